"""The phases a match went through (the match proper or each set, each extension or
play-off), and the innings each began after: what the protocol marks."""

from __future__ import annotations

from dataclasses import dataclass

from rules.command import Kind
from rules.match import steps
from rules.state import Match, Phase, evolve, new_match


@dataclass(frozen=True)
class Played:
    """One phase of a match as it was played."""

    phase: Phase  # as it last stood: its targets, its number and who started it (`breaker`)
    set: int | None  # the set it belongs to, from 1; None in a match not played in sets
    before: tuple[int, int]  # each player's finished innings before it began
    set_start: tuple[int, int]  # each player's points when its set began


def played(match: Match) -> list[Played]:
    """Each phase `match` went through, in order: its commands in force replayed.

    >>> from rules.command import Command
    >>> from rules.match import replay
    >>> from rules.state import Setup
    >>> tie = [Command(Kind.POINT)] * 4  # both reach 2 in one inning: an extension to 3 each
    >>> match = replay(Setup("libre", 2, ("Jaspers", "Caudron")),
    ...                [*tie, Command(Kind.STARTS, player="Caudron"), Command(Kind.POINT)])
    >>> [(p.phase.number, p.phase.targets, p.phase.breaker, p.before) for p in played(match)]
    [(0, (2, 2), 0, (0, 0)), (1, (3, 3), 1, (1, 1))]
    """
    state = new_match(match.setup)
    phases = [_begun(state)]
    commands = list(match.history)
    for command, (after, _) in zip(commands, steps(state, commands), strict=True):
        if (after.set_start, after.phase.number) != (state.set_start, state.phase.number):
            phases.append(_begun(after))
        else:
            phases[-1] = evolve(phases[-1], phase=after.phase)  # who starts, once named
        if command.kind is Kind.DELETE_INNING and command.inning is not None:
            # A deleted round moves every phase after it one inning earlier. (A round is
            # inserted only in the first phase, and so moves none.)
            phases = [_earlier(p, command.inning) for p in phases]
        state = after
    return phases


def _begun(match: Match) -> Played:
    """The phase `match` has just begun."""
    number = None if match.setup.sets is None else sum(match.sets) + 1
    before = tuple(len(p.innings_points) for p in match.players)
    return Played(match.phase, number, (before[0], before[1]), match.set_start)


def _earlier(phase: Played, deleted: int) -> Played:
    """`phase` after round `deleted` (from 1) was deleted."""
    before = tuple(b - 1 if deleted <= b else b for b in phase.before)
    return evolve(phase, before=(before[0], before[1]))
