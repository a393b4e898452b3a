"""The innings limit: a match that ends when both players have played so many innings."""

from __future__ import annotations

from rules.state import Match


def last_inning(match: Match, player: int) -> bool:
    """Whether `player`, at the table, is in his last inning under the limit (the match proper)."""
    limit = match.setup.innings_limit
    return limit is not None and match.phase.number == 0 and match.players[player].innings == limit


def reached(match: Match) -> bool:
    """Whether both players have played every inning the limit allows (the match proper)."""
    limit = match.setup.innings_limit
    return (
        limit is not None
        and match.phase.number == 0
        and all(p.innings >= limit for p in match.players)
    )


def leader(match: Match) -> int | None:
    """The player with more points, or None on equal points."""
    first, second = (p.points for p in match.players)
    return None if first == second else (0 if first > second else 1)
