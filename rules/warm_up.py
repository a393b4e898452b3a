"""The warm-up before the match: started by the referee, timed by the live loop's clock."""

from __future__ import annotations

from rules.announcement import Announcement, Code, Reason, refused
from rules.command import Command, Kind
from rules.state import Match, WarmUp, evolve

Result = tuple[Match, list[Announcement]]

WARNING_BEFORE = 60  # the headset's warning, this many seconds before the end
NOT_PLAY = frozenset({Kind.WARM_UP, Kind.WARM_UP_END, Kind.TICK})


def played(match: Match) -> bool:
    """Whether anything but the warm-up and its clock has been recorded (looked for from the
    newest: once play has begun, the first entry looked at is play)."""
    return any(entry.command.kind not in NOT_PLAY for entry in match.history.entries())


def start(match: Match, player: int | None) -> Result:
    """«προθέρμανση»: `player` (None: a name neither player has) warms up, before the match."""
    if player is None:
        return match, [refused(Reason.UNKNOWN_PLAYER)]
    if played(match) or match.run:
        return match, [refused(Reason.ALREADY_STARTED)]
    said = Announcement(Code.WARM_UP_START, player=match.surname(player))
    return evolve(match, warm_up=WarmUp(player)), [said]


def end(match: Match, command: Command) -> Result:
    """«τέλος προθέρμανσης», or the time is up."""
    if match.warm_up is None:
        return match, [refused(Reason.NO_WARM_UP)]
    return evolve(match, warm_up=None), [Announcement(Code.WARM_UP_END)]


def tick(match: Match, seconds: float) -> Result:
    """Warm-up time passing: the headset's one-minute warning, then the end."""
    warm_up = match.warm_up
    length = match.setup.warm_up_seconds
    if warm_up is None:
        return match, []
    if seconds >= length:
        return end(match, Command(Kind.WARM_UP_END))
    if seconds >= length - WARNING_BEFORE and not warm_up.warned and length > WARNING_BEFORE:
        warned = evolve(match, warm_up=evolve(warm_up, warned=True))
        return warned, [Announcement(Code.WARM_UP_WARNING, player=match.surname(warm_up.player))]
    return match, []
