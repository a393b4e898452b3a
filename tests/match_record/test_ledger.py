"""The ledger: commit before voicing, undo across a restart, several writers on one match."""

import sqlite3
import subprocess
import sys
from contextlib import closing

import pytest

import rules.match
from phrases.render import render
from rules.announcement import Announcement
from rules.command import Command, Kind
from rules.match import replay
from rules.state import CHECKPOINT_EVERY, Setup, new_match
from tests.support.match import PLAYERS, A
from voice.match_record.database import Record, RecordError
from voice.match_record.ledger import Ledger
from voice.session import Session

SETUP = Setup("libre", 50, PLAYERS)


@pytest.fixture
def path(tmp_path):
    return tmp_path / "m.sqlite3"


def new_ledger(path, setup=SETUP):
    record = Record.open(path)
    return Ledger(record, record.create_match(setup))


def stored(path, match_id=1):
    with Record.open(path) as record:
        return record.load(match_id)


def test_an_accepted_command_is_committed_before_its_announcements_are_returned(path):
    ledger = new_ledger(path)
    said = ledger.hear("πόντος")
    assert [u.code for u in said] == ["score"]
    assert stored(path).commands == (Command(Kind.POINT),)  # seen by another connection
    assert ledger.written == 1 and ledger.seq == 1


def test_the_ledger_says_what_a_session_says(path):
    ledger, session = new_ledger(path), Session(new_match(SETUP))
    for text in ["πόντος", "αντρέ", "πόντος", "πόντος", "χμμ", "σκορ", "άστοχο", "διόρθωση"]:
        assert ledger.hear(text) == session.hear(text)
        assert ledger.match == session.match


@pytest.mark.parametrize(
    "text",
    ["σκορ", "λιμπρ", "στήσιμο", "τέλος διαλείμματος", "ξεκινά παπαδόπουλος", "γεια σου", ""],
)
def test_what_changes_nothing_writes_nothing(path, text):
    ledger = new_ledger(path)
    ledger.hear("πόντος")
    before = ledger.match
    ledger.hear(text)
    assert ledger.written is None and ledger.match is before
    assert len(stored(path).events) == 1


def test_a_phrase_that_says_nothing_is_not_understood(path):
    ledger = new_ledger(path)
    assert ledger.hear("καλημέρα") == [render(Announcement("not_understood"))]
    assert ledger.written is None and stored(path).events == ()


def test_marking_announced_is_recorded_and_what_was_never_announced_is_rederived(path):
    ledger = new_ledger(path)
    first = ledger.hear("πόντος")
    ledger.mark_announced(ledger.written)
    second = ledger.hear("άστοχο")
    third = ledger.hear("διόρθωση")
    assert [e.announced for e in stored(path).events] == [True, False, False]
    assert ledger.unannounced() == [(2, second), (3, third)]
    assert first != second


def test_undo_works_across_a_restart(path):
    ledger = new_ledger(path)
    ledger.hear("πόντος")
    before = ledger.match
    ledger.hear("άστοχο")
    ledger.record.close()
    again = Ledger(Record.open(path), 1)
    said = again.hear("διόρθωση")
    assert again.match == before
    assert [u.code for u in said] == ["withdrawn", "repeat_score"]
    assert said[0].text == "ακυρώθηκε: άστοχο" and said[1].text.startswith("διόρθωση")
    assert stored(path).commands[-1] == Command(Kind.UNDO)
    assert stored(path).match == before


def test_two_ledgers_on_one_match_catch_up_with_each_other(path):
    voice = new_ledger(path)
    panel = Ledger(Record.open(path), 1)
    voice.hear("πόντος")
    said = panel.hear("πόντος")
    assert said[0].display == f"{A} 2"  # the panel saw the voice loop's point first
    assert panel.seq == 2
    voice.hear("άστοχο")
    assert voice.seq == 3 and voice.match.at_table == 1
    assert voice.match == stored(path).match == replay(SETUP, [Command(Kind.POINT)] * 2
                                                      + [Command(Kind.MISS)])


def test_refresh_applies_and_returns_what_other_writers_recorded(path):
    voice = new_ledger(path)
    board = Ledger(Record.open(path), 1)
    assert board.refresh() == ()
    voice.hear("πόντος")
    voice.hear("άστοχο")
    newer = board.refresh()
    assert [e.seq for e in newer] == [1, 2]
    assert [e.command.kind for e in newer] == [Kind.POINT, Kind.MISS]
    assert board.match == voice.match and board.seq == 2
    assert board.refresh() == ()


def test_a_write_that_fails_changes_neither_the_match_nor_the_record(path):
    ledger = new_ledger(path)
    ledger.hear("πόντος")
    before = ledger.match
    with closing(sqlite3.connect(path, isolation_level=None)) as db:
        db.execute("CREATE TRIGGER full BEFORE INSERT ON events"
                   " BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END")
        with pytest.raises(RecordError, match="cannot record event 2 of match 1.*disk is full"):
            ledger.hear("πόντος")
        assert ledger.match is before and ledger.seq == 1 and ledger.written is None
        db.execute("DROP TRIGGER full")
    assert ledger.hear("πόντος")[0].display == f"{A} 2"
    assert stored(path).last_seq == 2


WRITER = """
import sys
from pathlib import Path
from voice.match_record.ledger import Ledger
from voice.match_record.database import Record
ledger = Ledger(Record.open(Path(sys.argv[1])), 1)
for _ in range(int(sys.argv[2])):
    ledger.hear(sys.argv[3])
"""


def test_processes_writing_one_match_at_once_lose_nothing_and_keep_the_order(path):
    new_ledger(path, Setup("three-cushion", 10_000, PLAYERS)).record.close()
    writers = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(path), "40", phrase])
        for phrase in ("άστοχο", "πόντος")
    ]
    assert [w.wait(timeout=120) for w in writers] == [0, 0]
    loaded = stored(path)
    assert [e.seq for e in loaded.events] == list(range(1, 81))
    kinds = [c.kind for c in loaded.commands]
    assert kinds.count(Kind.MISS) == 40 and kinds.count(Kind.POINT) == 40
    assert loaded.match == replay(loaded.setup, loaded.commands)
    assert sum(p.points for p in loaded.match.players) == 40


def counting(monkeypatch):
    """Every command the rules apply from now on, the replays of an undo included."""
    applied = []
    original = rules.match.apply

    def apply(match, command):
        applied.append(command)
        return original(match, command)

    monkeypatch.setattr(rules.match, "apply", apply)
    return applied


def test_opening_a_ledger_replays_the_record_once_keeping_what_was_never_said(path, monkeypatch):
    ledger = new_ledger(path)
    said = [ledger.hear(text) for text in ["πόντος"] * 30 + ["διόρθωση", "άστοχο"]]
    ledger.mark_announced(1)
    applied = counting(monkeypatch)
    again = Ledger(Record.open(path), 1)
    assert again.unannounced() == list(enumerate(said, 1))[1:]
    assert len(applied) <= 32 + CHECKPOINT_EVERY - 1  # once each; the undo from its checkpoint


def test_catching_up_applies_only_the_events_other_writers_added(path, monkeypatch):
    voice = new_ledger(path)
    for _ in range(40):
        voice.hear("πόντος")
    panel = Ledger(Record.open(path), 1)
    voice.hear("άστοχο")
    applied = counting(monkeypatch)
    assert [e.seq for e in panel.refresh()] == [41]
    assert applied == [Command(Kind.MISS)] and panel.match == voice.match
