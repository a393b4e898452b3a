"""Property-based tests: random command sequences through the record, for every discipline."""

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.command import Command, Kind
from rules.discipline import DISCIPLINES
from rules.grammar import parse
from rules.match import apply, replay
from rules.state import Match, Setup, new_match
from tests.support.match import PLAYERS, spoken_sentences
from voice.match_record.database import Record
from voice.match_record.ledger import Ledger
from voice.session import Session

SPOKEN = spoken_sentences().map(lambda s: parse(s, PLAYERS)).filter(bool)
TICKS = st.floats(0, 400).map(lambda s: Command(Kind.TICK, seconds=s))
# Points weigh more, so that matches reach their distance and extensions happen.
COMMANDS = st.one_of(st.just(Command(Kind.POINT)), st.just(Command(Kind.MISS)), SPOKEN, TICKS)
NO_UNDO = COMMANDS.filter(lambda c: c.kind is not Kind.UNDO)
SETTINGS = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
_files = itertools.count()


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("records")


def fresh(folder, setup):
    record = Record.open(folder / f"{next(_files)}.sqlite3")
    return Ledger(record, record.create_match(setup))


def restarted(ledger):
    """The ledger a new process would have: a new connection, the match replayed from disk."""
    ledger.record.close()
    return Ledger(Record.open(ledger.record.path), ledger.match_id)


def innings(match: Match) -> int:
    return sum(p.innings for p in match.players)


@pytest.mark.parametrize("discipline", list(DISCIPLINES))
@SETTINGS
@given(
    distance=st.integers(1, 12),
    steps=st.lists(st.tuples(COMMANDS, st.booleans()), max_size=50),
)
def test_the_record_replays_to_the_live_state_through_any_number_of_restarts(
    folder, discipline, distance, steps
):
    setup = Setup(discipline, distance, PLAYERS)
    ledger, session = fresh(folder, setup), Session(new_match(setup))
    accepted = 0
    for command, restart in steps:
        before = session.match
        assert ledger.command(command) == session.command(command)
        assert ledger.match == session.match
        accepted += session.match is not before
        assert (ledger.written is not None) == (session.match is not before)
        assert all(p.points >= 0 and p.highest_run >= 0 for p in ledger.match.players)
        if restart:
            ledger = restarted(ledger)
            assert ledger.match == session.match
    loaded = ledger.record.load(ledger.match_id)
    assert loaded.match == replay(setup, loaded.commands) == session.match  # deterministic
    assert len(loaded.events) == accepted
    ledger.record.close()


@pytest.mark.parametrize("discipline", list(DISCIPLINES))
@SETTINGS
@given(
    distance=st.integers(1, 12),
    commands=st.lists(COMMANDS, max_size=40),
    last=SPOKEN.filter(lambda c: c.kind not in (Kind.UNDO, Kind.SCORE)),
    restart=st.booleans(),
)
def test_undo_then_the_same_command_gives_the_same_state_across_a_restart(
    folder, discipline, distance, commands, last, restart
):
    ledger = fresh(folder, Setup(discipline, distance, PLAYERS))
    for command in commands:
        ledger.command(command)
    before = ledger.match
    ledger.command(last)
    after = ledger.match
    if after is not before:
        if restart:
            ledger = restarted(ledger)
        ledger.command(Command(Kind.UNDO))
        assert ledger.match == before
        ledger.command(last)
        assert ledger.match == after
        assert restarted(ledger).match == after
    ledger.record.close()


@pytest.mark.parametrize("discipline", list(DISCIPLINES))
@SETTINGS
@given(distance=st.integers(1, 12), commands=st.lists(NO_UNDO, max_size=60))
def test_innings_grow_by_one_exactly_when_a_new_player_comes_to_the_table(
    folder, discipline, distance, commands
):
    ledger = fresh(folder, Setup(discipline, distance, PLAYERS))
    assert innings(ledger.match) == 1
    for command in commands:
        before = ledger.match
        ledger.command(command)
        after = ledger.match
        came = after.at_table is not None and after.at_table != before.at_table
        rechosen = command.kind is Kind.STARTS and before.at_table is not None
        assert innings(after) - innings(before) == (1 if came and not rechosen else 0)
    assert innings(restarted(ledger).match) == innings(ledger.match)
    ledger.record.close()


@SETTINGS
@given(
    discipline=st.sampled_from(list(DISCIPLINES)),
    commands=st.lists(COMMANDS, max_size=60),
)
def test_replaying_the_raw_log_is_applying_it(discipline, commands):
    setup = Setup(discipline, 8, PLAYERS)
    match, log = new_match(setup), []
    for command in commands:
        new, _ = apply(match, command)
        if new is not match:
            log.append(command)
        match = new
    assert replay(setup, log) == replay(setup, log) == match
