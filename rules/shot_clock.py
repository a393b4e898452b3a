"""The shot clock and time-outs (UMB three-cushion since 2020), timed by the live loop's clock.

The clock restarts at every recorded stroke outcome and when a player comes to the table; it
stops during a break, a warm-up, while waiting for who starts and after the match. A TICK
names its shot and counts `seconds` from the restart. At zero a time-out left is applied and
adds one period; with none left the inning ends.
"""

from __future__ import annotations

from collections.abc import Callable

from rules.announcement import Announcement, Code, Reason, refused
from rules.command import Command, Kind
from rules.state import Match, PlayerState, ShotClock, evolve

Result = tuple[Match, list[Announcement]]
EndInning = Callable[[Match, int, list[Announcement]], Result]

WARNING_BEFORE = 10  # the warning, this many seconds before the end

# The recorded stroke outcomes: each one restarts the clock.
OUTCOMES = frozenset({
    Kind.POINT, Kind.POINT_OUT, Kind.POINT_OUT_ANCHOR, Kind.POINT_ENTREES,
    Kind.POINT_ENTREES_ANCHOR, Kind.MISS, Kind.FOUL, Kind.FAULT_SIX, Kind.BALL_OFF,
})


def runs(match: Match) -> bool:
    """Whether the set-up has a shot clock and a player is at the table, play going on."""
    return (
        match.setup.shot_clock is not None and match.at_table is not None and not match.over
        and match.pause is None and match.warm_up is None
    )


def follow(before: Match, after: Match, command: Command) -> Match:
    """`after`, the state `command` led to from `before`, with its shot clock restarted, kept
    or stopped."""
    if after.setup.shot_clock is None:
        return after
    if not runs(after):
        return after if after.shot_clock is None else evolve(after, shot_clock=None)
    clock = after.shot_clock
    restart = (
        clock is None or command.kind in OUTCOMES or command.kind is Kind.UNDO
        or after.at_table != before.at_table
    )
    if not restart:
        return after
    numbers = [c.shot for c in (before.shot_clock, clock) if c is not None]
    return evolve(after, shot_clock=ShotClock(shot=max(numbers, default=0) + 1))


def left(match: Match, player: int) -> int:
    """The time-outs `player` has still to use."""
    return (match.setup.time_outs or 0) - match.players[player].time_outs


def call(match: Match, command: Command) -> Result:
    """«τάιμ άουτ»: the player at the table takes a time-out, one more period for this shot."""
    player = match.at_table
    clock = match.shot_clock
    if clock is None or player is None:
        return match, [refused(Reason.NO_SHOT_CLOCK)]
    if left(match, player) <= 0:
        return match, [refused(Reason.NO_TIME_OUTS, match.surname(player))]
    return _time_out(match, clock, player)


def tick(match: Match, command: Command, end_inning: EndInning) -> Result:
    """Shot time passing: the warning, then a time-out applied, or the inning's end; a tick of
    another shot (one that came late) changes nothing."""
    clock = match.shot_clock
    player = match.at_table
    period = match.setup.shot_clock
    seconds = command.seconds
    if clock is None or player is None or period is None or seconds is None:
        return match, []
    if command.shot != clock.shot:
        return match, []
    limit = clock.periods * period
    if seconds >= limit:
        if left(match, player) > 0:
            return _time_out(match, clock, player)
        said = [Announcement(Code.SHOT_CLOCK_EXPIRED, player=match.surname(player))]
        return end_inning(evolve(match, touchent=False), player, said)
    if seconds >= limit - WARNING_BEFORE and not clock.warned and period > WARNING_BEFORE:
        warned = evolve(match, shot_clock=evolve(clock, warned=True))
        return warned, [Announcement(Code.SHOT_CLOCK_WARNING, player=match.surname(player))]
    return match, []


def _time_out(match: Match, clock: ShotClock, player: int) -> Result:
    stats: PlayerState = match.players[player]
    used = evolve(stats, time_outs=stats.time_outs + 1)
    players = (used, match.players[1]) if player == 0 else (match.players[0], used)
    longer = evolve(clock, periods=clock.periods + 1, warned=False)
    new = evolve(match, players=players, shot_clock=longer)
    return new, [Announcement(Code.TIME_OUT, player=stats.surname)]


def timed(match: Match) -> tuple[str, int] | None:
    """What the live clock times now, as a key that changes when it starts anew: a warm-up, a
    break or a shot (None: nothing)."""
    if match.warm_up is not None:
        return "warm_up", match.warm_up.player
    if match.pause is not None:
        return "break", match.pause.player
    if match.shot_clock is not None:
        return "shot", match.shot_clock.shot
    return None
