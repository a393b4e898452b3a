"""Property-based tests: random phrase sequences never corrupt the match."""

from hypothesis import given, settings
from hypothesis import strategies as st

from phrases.render import render
from rules.command import Command, Kind
from rules.discipline import DISCIPLINES
from rules.grammar import parse
from rules.match import apply, replay
from rules.state import Match, OnTie, Setup, new_match
from tests.support.match import PLAYERS, spoken_sentences

SENTENCES = spoken_sentences()
COMMANDS = st.one_of(
    SENTENCES.map(lambda s: parse(s, PLAYERS)),
    st.floats(0, 400).map(lambda s: Command(Kind.TICK, seconds=s)),
).filter(lambda c: c is not None)
# Points weigh more, so that matches reach their distance and extensions happen.
WEIGHTED = st.one_of(st.just(Command(Kind.POINT)), st.just(Command(Kind.MISS)), COMMANDS)


def check(match: Match) -> None:
    """The invariants every reachable state keeps."""
    phase = match.phase
    for p in match.players:
        assert 0 <= p.points <= phase.target
        assert 0 <= p.highest_run <= p.points
        assert p.innings >= 0
    if match.at_table is None:
        assert match.run == 0
    else:
        assert 0 <= match.run <= match.players[match.at_table].points
    if phase.breaker is not None:
        lead = phase.innings[phase.breaker] - phase.innings[1 - phase.breaker]
        assert lead in (0, 1)
    assert sum(match.players[i].innings for i in (0, 1)) >= sum(phase.innings)
    if match.winner is not None:
        leads = match.players[match.winner].points > match.players[1 - match.winner].points
        limited = match.setup.innings_limit is not None  # more points wins at the limit
        assert match.players[match.winner].points >= phase.targets[match.winner] or (
            limited and leads)
        assert match.at_table is None
    assert all(z.strokes_left >= 0 for z in match.zones)
    for index, p in enumerate(match.players):  # the protocol adds up to the totals
        current = match.at_table == index
        assert len(p.innings_points) == p.innings - current
        assert sum(p.innings_points) + (match.run if current else 0) == p.points


@settings(max_examples=300, deadline=None)
@given(
    discipline=st.sampled_from(list(DISCIPLINES)),
    distance=st.integers(1, 12),
    commands=st.lists(WEIGHTED, max_size=80),
)
def test_random_sequences_keep_every_invariant_and_replay_deterministically(
    discipline, distance, commands
):
    setup = Setup(discipline, distance, PLAYERS)
    match = new_match(setup)
    for command in commands:
        new, said = apply(match, command)
        for announcement in said:
            render(announcement)  # the bank has a phrase for everything the rules say
        if new is match:
            assert all(a.code in ("refused", "repeat_score", "libres", "a_cheval") for a in said)
        check(new)
        match = new
    assert replay(setup, match.history) == match


@settings(max_examples=300, deadline=None)
@given(
    discipline=st.sampled_from(list(DISCIPLINES)),
    distance=st.integers(1, 12),
    commands=st.lists(WEIGHTED, max_size=60),
    last=COMMANDS.filter(lambda c: c.kind not in (Kind.UNDO, Kind.TICK)),
)
def test_undo_restores_exactly_and_redo_gives_the_same_state(
    discipline, distance, commands, last
):
    match = new_match(Setup(discipline, distance, PLAYERS))
    for command in commands:
        match, _ = apply(match, command)
    after, _ = apply(match, last)
    if after is match:
        return
    undone, _ = apply(after, Command(Kind.UNDO))
    assert undone == match
    redone, _ = apply(undone, last)
    assert redone == after


@settings(max_examples=200, deadline=None)
@given(
    discipline=st.sampled_from(list(DISCIPLINES)),
    distance=st.integers(1, 12),
    commands=st.lists(WEIGHTED.filter(lambda c: c.kind is not Kind.UNDO), max_size=80),
)
def test_innings_add_up_to_the_turns_announced(discipline, distance, commands):
    match = new_match(Setup(discipline, distance, PLAYERS))
    started = 1
    for command in commands:
        new, said = apply(match, command)
        for a in said:
            rechosen = a.variant == "starts" and match.at_table is not None
            if a.code == "turn" and a.player is not None and not rechosen:
                started += 1
        match = new
    assert sum(p.innings for p in match.players) == started


FORMATS = st.one_of(
    st.builds(dict, sets=st.sampled_from([1, 3, 5]),
              on_tie=st.sampled_from([OnTie.EXTENSION, OnTie.PLAYOFF])),
    st.builds(dict, on_tie=st.sampled_from(list(OnTie)),
              innings_limit=st.none() | st.integers(1, 4)),
).map(lambda fields: {**fields, "playoff_points": 2})


@settings(max_examples=200, deadline=None)
@given(
    distance=st.integers(1, 6),
    fields=FORMATS,
    commands=st.lists(WEIGHTED, max_size=80),
    equalising=st.booleans(),
)
def test_sets_and_ties_keep_every_invariant_undo_and_replay(distance, fields, commands,
                                                            equalising):
    setup = Setup("libre", distance, PLAYERS, equalising=equalising, **fields)
    match = new_match(setup)
    for command in commands:
        new, said = apply(match, command)
        for announcement in said:
            render(announcement)
        check(new)
        if new is not match and command.kind is not Kind.UNDO:
            undone, _ = apply(new, Command(Kind.UNDO))
            assert undone == match or command.kind is Kind.TICK
        match = new
    assert sum(match.sets) <= (setup.sets or 0) and replay(setup, match.history) == match
    if setup.sets is not None and match.over:
        assert max(match.sets) == setup.sets // 2 + 1
