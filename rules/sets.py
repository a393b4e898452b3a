"""Sets: best of N, each to the distance, the break alternating from set to set.

A set is decided as a match is (the equalising inning, a tie settled by Article 4's extension
or a play-off); its winner wins the set. Points, innings and runs count over the whole match.
"""

from __future__ import annotations

from collections.abc import Callable

from rules.announcement import Announcement, Code, Form
from rules.state import Match, Phase, evolve

Result = tuple[Match, list[Announcement]]
StartInning = Callable[[Match, int, list[Announcement], Form | None], Result]


def needed(sets: int) -> int:
    """The sets that win a best of `sets`.

    >>> needed(3), needed(5)
    (2, 3)
    """
    return sets // 2 + 1


def breaker(match: Match) -> int:
    """Who breaks the next set: the one who did not break the set just won (its white ball's
    player, whoever the referee named to start it)."""
    return 1 - match.white


def won(match: Match, winner: int, said: list[Announcement], start: StartInning) -> Result:
    """`winner` has won the set being played: the match, or the next set, its breaker at the
    table."""
    count = list(match.sets)
    count[winner] += 1
    sets = (count[0], count[1])
    surname = match.surname(winner)
    setup = match.setup
    assert setup.sets is not None  # only a match played in sets has sets to win
    if count[winner] >= needed(setup.sets):
        done = evolve(match, at_table=None, winner=winner, run=0, touchent=False, sets=sets)
        return done, [*said, Announcement(Code.SET, player=surname, variant=Form.AND_MATCH)]
    points = (match.players[0].points, match.players[1].points)
    first = breaker(match)
    distances = setup.distances
    phase = Phase(targets=(points[0] + distances[0], points[1] + distances[1]), breaker=first)
    following = evolve(match, sets=sets, set_start=points, phase=phase, white=first)
    return start(following, first, [*said, Announcement(Code.SET, player=surname)], Form.STARTS)
