"""Where balls are placed after leaving the table or on a requested re-spot (Article 3)."""

from __future__ import annotations

from rules.state import Match

# The seed gives these places under three-cushion; the UMB world rules (art. 28) place balls
# that leave the table the same way in every carom game, so all disciplines use them.
HEAD = "head"  # the central one of the starting spots: the ball of the player to play
CENTRE = "centre"  # the centre of the table: the opponent's ball
FOOT = "foot"  # the red's place at the opening carom


def cue_ball(match: Match, player: int) -> str:
    """The colour of a player's ball: white for the player who broke the match."""
    return "white" if player == match.white else "yellow"


def home_spot(match: Match, ball: str, to_play: int) -> str:
    """The spot a ball is placed on when the player `to_play` is next."""
    if ball == "red":
        return FOOT
    return HEAD if ball == cue_ball(match, to_play) else CENTRE


def place(
    match: Match, balls: tuple[str, ...], covered: tuple[tuple[str, str], ...], to_play: int
) -> tuple[tuple[str, str], ...]:
    """Each ball with its spot; a ball whose spot is covered takes the coverer's spot."""
    coverer = dict(covered)
    placed = []
    for ball in balls:
        over = coverer.get(ball)
        placed.append((ball, home_spot(match, over if over else ball, to_play)))
    return tuple(placed)
