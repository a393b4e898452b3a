"""Fuzzing: arbitrary Unicode and huge inputs never crash, never change the match, say why."""

import time
from contextlib import chdir

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from phrases.render import render
from rules.announcement import Announcement
from rules.command import Command, Kind
from rules.grammar import grammar, parse
from rules.state import Setup
from tests.support.match import PLAYERS
from tests.support.referee import referee
from voice.match_record.database import Record
from voice.match_record.ledger import Ledger

NOT_UNDERSTOOD = [render(Announcement("not_understood"))]
SENTENCES = grammar().sentences(PLAYERS)
# Arbitrary text, and text built from the grammar's own words so that some of it parses.
WORDS = sorted({w for s in SENTENCES for w in s.split()} | {p.lower() for p in PLAYERS})
TEXT = st.one_of(
    st.text(),
    st.text(st.characters(codec="utf-8"), min_size=100, max_size=5000),
    st.lists(st.one_of(st.sampled_from(WORDS), st.text(max_size=5)), max_size=8).map(" ".join),
)
MEGABYTE = 1_000_000
HUGE = {
    "random unicode": "".join(chr(0x20 + (i * 7919) % 0xD000) for i in range(MEGABYTE)),
    "nul characters": "\0" * MEGABYTE,
    "one long word": "π" * MEGABYTE,
    "a phrase over and over": "πόντος " * (MEGABYTE // 7),
    "a phrase then junk": "πόντος " + "ζ" * MEGABYTE,
    "ball colours over and over": "εκτός τραπεζιού " + "κόκκινη λευκή " * (MEGABYTE // 14),
    "a surname over and over": "διάλειμμα " + "παπαδόπουλος " * (MEGABYTE // 13),
    "line breaks": "\n\r\u2028" * (MEGABYTE // 3),
}
FUZZ = settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@pytest.fixture(scope="module")
def ledger(tmp_path_factory):
    record = Record.open(tmp_path_factory.mktemp("fuzz") / "m.sqlite3")
    ledger = Ledger(record, record.create_match(Setup("cadre-47-2", 50, PLAYERS)))
    for text in ("πόντος", "αντρέ 5", "πόντος"):
        ledger.hear(text)
    yield ledger
    record.close()


def heard_safely(ledger, text):
    """What the ledger says to `text`; nothing changes unless it is a phrase of the grammar."""
    before, seq = ledger.match, ledger.record.last_seq(ledger.match_id)
    said = ledger.hear(text)
    if parse(text, PLAYERS) is None:
        assert said == NOT_UNDERSTOOD
        assert ledger.match is before and ledger.written is None
        assert ledger.record.last_seq(ledger.match_id) == seq
    else:
        assert (ledger.written is None) == (ledger.match is before)


@FUZZ
@given(text=TEXT)
def test_the_parser_takes_any_text(text):
    command = parse(text, PLAYERS)
    assert command is None or isinstance(command, Command)


@FUZZ
@given(text=TEXT)
def test_the_ledger_takes_any_text_and_only_a_phrase_changes_the_match(ledger, text):
    heard_safely(ledger, text)


@pytest.mark.parametrize("name", list(HUGE))
def test_a_huge_input_is_not_understood_quickly(ledger, name):
    started = time.monotonic()
    assert parse(HUGE[name], PLAYERS) is None
    heard_safely(ledger, HUGE[name])
    assert time.monotonic() - started < 10


@pytest.mark.parametrize("text", ["αντρέ ¹", "αντρέ ²", "αντρέ " + "9" * 5000])
def test_numbers_the_grammar_cannot_read_are_not_understood(ledger, text):
    heard_safely(ledger, text)


OPTIONS = ["--discipline", "--distance", "--players", "--first", "--input", "--jsonl", "--db",
           "--format", "--output", "--help", "-h", "libre", "three-cushion", "3", "0", "-1",
           "json", "csv", "1", "2", "phrases.txt", "Παπαδόπουλος,Κωνσταντίνου", "Α,Β", "--", "="]
TOKENS = st.one_of(st.sampled_from(OPTIONS), st.text(max_size=30), st.text(min_size=1000,
                                                                            max_size=3000))
ARGV = st.tuples(
    st.sampled_from(["simulate", "resume", "matches", "export"]),
    st.lists(TOKENS.filter(lambda t: not t.startswith("--w")), max_size=12),
)


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    """A folder holding one recorded match the fuzzed commands must never lose."""
    folder = tmp_path_factory.mktemp("cli")
    with Record.open(folder / "m.sqlite3") as record:
        Ledger(record, record.create_match(Setup("libre", 50, PLAYERS))).hear("πόντος")
    return folder


@FUZZ
@given(argv=ARGV, phrases=TEXT, stdin=st.binary(max_size=300))
def test_any_command_line_exits_0_or_2_with_a_one_line_message_and_loses_nothing(
    workdir, argv, phrases, stdin
):
    command, tokens = argv
    with chdir(workdir):
        (workdir / "phrases.txt").write_text(phrases, encoding="utf-8")
        code, out, err = referee(command, "--db", "m.sqlite3", *tokens, stdin=stdin)
        assert code in (0, 2), (code, err)
        if code == 2:  # after the line naming the match being recorded, if it got that far
            fault = err.removeprefix("match 1 recorded in m.sqlite3\n")
            assert fault.startswith("referee") and fault.count("\n") == 1
        else:
            assert "Traceback" not in err
        with Record.open(workdir / "m.sqlite3") as record:
            assert record.load(1).commands[:1] == (Command(Kind.POINT),)
