"""Corrections of the match protocol: a past inning's points, a forgotten round inserted, or a
spurious round deleted.

Each returns the corrected match, or the reason it cannot be corrected so. Points and
statistics are recomputed from the innings; who reached his target may not change.
"""

from __future__ import annotations

from itertools import accumulate

from rules import innings_limit, warm_up
from rules.announcement import Reason
from rules.command import Command, Kind
from rules.series import Series
from rules.state import Match, OnTie, PlayerState, evolve

KINDS = frozenset({Kind.CORRECT, Kind.INSERT_INNING, Kind.DELETE_INNING})  # the protocol editor's


def correct_inning(match: Match, command: Command, player: int) -> Match | Reason:
    """Inning `command.inning` of `player` had `command.points` points."""
    stats = match.players[player]
    done = stats.innings_points
    inning, points = command.inning, command.points
    if points is None or points < 0:
        return Reason.NEGATIVE_POINTS
    if inning is None or not 1 <= inning <= len(done):
        return Reason.NOT_PLAYED
    first = _phase_start(match, player)
    if inning <= first:
        return _before_phase(match, done[inning - 1] == points)
    innings = done[: inning - 1] + (points,) + done[inning:]
    at_table = match.at_table == player
    run = match.run if at_table else 0
    target = match.phase.targets[player]
    totals = list(accumulate(innings[first:], initial=sum(innings[:first])))[1:]
    now = totals[-1] + run
    # Only his last inning may take him to his target: the one being played, if he is at it.
    if any(t >= target for t in totals[:-1]) or now > target or (at_table and now >= target):
        return Reason.PASSES_DISTANCE
    after = evolve(
        stats, points=now, highest_run=max(*innings, run), innings_points=Series(innings)
    )
    return _outcome(match, _with(match, player, after))


def insert_round(match: Match, command: Command) -> Match | Reason:
    """A round forgotten before round `command.inning`: each player's inning without a point."""
    inning = command.inning
    played = min(len(p.innings_points) for p in match.players)
    if inning is None or not 1 <= inning <= played + 1 or not warm_up.played(match):
        return Reason.NOT_PLAYED
    if match.phase.number:
        return Reason.BEFORE_EXTENSION
    if sum(match.sets):
        return Reason.BEFORE_SET
    limit = match.setup.innings_limit
    if limit is not None and any(p.innings + 1 > limit for p in match.players):
        return Reason.OVER_LIMIT
    first, second = (_inserted(p, inning) for p in match.players)
    phase = evolve(match.phase, innings=(match.phase.innings[0] + 1, match.phase.innings[1] + 1))
    return evolve(match, players=(first, second), phase=phase)


def delete_round(match: Match, command: Command) -> Match | Reason:
    """Round `command.inning` deleted: each player's inning of that number, and its points.

    Once a match without sets is over, a round without a point before its extension may go too:
    the tie at the distance stands (at an innings limit it would not)."""
    inning = command.inning
    played = min(len(p.innings_points) for p in match.players)
    if inning is None or not 1 <= inning <= played:
        return Reason.NOT_PLAYED
    phase = match.phase
    if any(inning <= _phase_start(match, index) for index in (0, 1)):
        scored = any(p.innings_points[inning - 1] for p in match.players)
        refusal = _before_phase(match, not scored and match.setup.innings_limit is None)
        if isinstance(refusal, Reason):
            return refusal
    else:
        phase = evolve(phase, innings=(phase.innings[0] - 1, phase.innings[1] - 1))
    first, second = (_deleted(match, index, inning) for index in (0, 1))
    return _outcome(match, evolve(match, players=(first, second), phase=phase))


def _before_phase(match: Match, unchanged: bool) -> Match | Reason:
    """A correction of an inning before the phase being played (an earlier set, or before an
    extension or play-off): once a match without sets is over, one that changes nothing is
    taken; any other would break the tie that brought the extension, and so its result."""
    if match.over and match.setup.sets is None:
        return evolve(match) if unchanged else Reason.BREAKS_TIE
    return Reason.BEFORE_EXTENSION if match.phase.number else Reason.BEFORE_SET


def _deleted(match: Match, player: int, inning: int) -> PlayerState:
    stats = match.players[player]
    done = stats.innings_points
    innings = done[: inning - 1] + done[inning:]
    run = match.run if match.at_table == player else 0
    return evolve(stats, points=sum(innings) + run, innings=stats.innings - 1,
                  highest_run=max((*innings, run), default=0), innings_points=Series(innings))


def _inserted(stats: PlayerState, inning: int) -> PlayerState:
    done = stats.innings_points
    innings = done[: inning - 1] + (0,) + done[inning - 1 :]
    return evolve(stats, innings=stats.innings + 1, innings_points=Series(innings))


def _phase_start(match: Match, player: int) -> int:
    """How many of `player`'s finished innings came before the phase being played."""
    return match.players[player].innings - match.phase.innings[player]


def _outcome(before: Match, after: Match) -> Match | Reason:
    """`after`, corrected from `before`, with its result; CHANGES_END when the correction
    changes who reached his target, or ties a match the innings limit decided and a tie there
    would have brought an extension."""
    targets = after.phase.targets
    was = [p.points >= t for p, t in zip(before.players, targets, strict=True)]
    now = [p.points >= t for p, t in zip(after.players, targets, strict=True)]
    if was != now:
        return Reason.CHANGES_END
    if before.over and not any(now) and not innings_limit.reached(after):
        return Reason.CHANGES_END  # the innings limit that ended it would not be reached
    if not before.over or any(now) or not innings_limit.reached(after):
        return after
    leader = innings_limit.leader(after)
    if leader is None and after.setup.on_tie is not OnTie.DRAW:
        return Reason.CHANGES_END
    return evolve(after, winner=leader, drawn=leader is None)


def _with(match: Match, index: int, player: PlayerState) -> Match:
    players = (player, match.players[1]) if index == 0 else (match.players[0], player)
    return evolve(match, players=players)
