"""Corrections of the match protocol: a past inning's points, or a forgotten round inserted.

Each returns the corrected match, or the reason it cannot be corrected so. Points and
statistics are recomputed from the innings; who reached his target may not change.
"""

from __future__ import annotations

from itertools import accumulate

from rules import innings_limit, warm_up
from rules.announcement import Reason
from rules.command import Command
from rules.series import Series
from rules.state import Match, OnTie, PlayerState, evolve


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
        return Reason.BEFORE_EXTENSION if match.phase.number else Reason.BEFORE_SET
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
    if not before.over or any(now) or not innings_limit.reached(after):
        return after
    leader = innings_limit.leader(after)
    if leader is None and after.setup.on_tie is not OnTie.DRAW:
        return Reason.CHANGES_END
    return evolve(after, winner=leader, drawn=leader is None)


def _with(match: Match, index: int, player: PlayerState) -> Match:
    players = (player, match.players[1]) if index == 0 else (match.players[0], player)
    return evolve(match, players=players)
