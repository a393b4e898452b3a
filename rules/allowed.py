"""The commands the rules would take now, by the match's discipline and moment: what a control
panel offers."""

from __future__ import annotations

from collections.abc import Iterable

from rules.announcement import Code
from rules.command import Command, Kind
from rules.match import apply
from rules.state import Match


def allowed(match: Match, kinds: Iterable[Kind]) -> list[Kind]:
    """Those of `kinds` that `apply` would not refuse now, each tried as a panel gives it: STARTS
    naming a player, BALL_OFF one ball, any other kind bare.

    >>> from rules.state import Setup, new_match
    >>> match = new_match(Setup("three-cushion", 15, ("Jaspers", "Caudron")))
    >>> allowed(match, [Kind.POINT, Kind.ENTREES, Kind.LIBRES, Kind.BREAK_END])
    [<Kind.POINT: 'point'>]
    """
    tried = {
        Kind.STARTS: Command(Kind.STARTS, player=match.players[0].surname),
        Kind.BALL_OFF: Command(Kind.BALL_OFF, balls=("red",)),
    }
    return [
        kind for kind in kinds
        if not any(a.code is Code.REFUSED for a in apply(match, tried.get(kind, Command(kind)))[1])
    ]
