"""The voice loop's heartbeat in the record, and records made before heartbeats existed."""

import re
import sqlite3
from contextlib import closing
from datetime import datetime
from importlib.resources import files

from rules.state import Setup
from tests.support.heartbeats import beats
from tests.support.match import PLAYERS
from voice.match_record.database import Record, RecordError
from voice.match_record.liveness import Liveness
from voice.match_record.writer import RecordWriter


def test_the_latest_heartbeat_of_each_match_is_kept(tmp_path):
    with Record.open(tmp_path / "m.sqlite3") as record:
        first, second = (record.create_match(Setup("libre", 10, PLAYERS)) for _ in range(2))
        assert record.heartbeat(first) is None
        record.beat(first, "listening")
        record.beat(first, "mic_lost")
        record.beat(second, "stopped")
        beat = record.heartbeat(first)
        assert beat is not None and beat.state == "mic_lost"
        assert datetime.fromisoformat(beat.at).tzinfo is not None
        assert record.heartbeat(second).state == "stopped"


def test_a_record_made_before_heartbeats_loads_and_gets_them_keeping_its_schema(tmp_path):
    path = tmp_path / "m.sqlite3"
    with Record.open(path) as record:
        record.create_match(Setup("libre", 10, PLAYERS))
    with closing(sqlite3.connect(path)) as old:  # schema 1 as first written: no such table
        assert not old.execute("SELECT 1 FROM sqlite_master WHERE name = 'liveness'").fetchall()
    with Record.open(path, create=False) as record:
        assert record.heartbeat(1) is None and record.load(1).last_seq == 0
        record.beat(1, "listening")
    with Record.open(path, create=False) as record:  # still a sound schema-1 record
        assert record._db.execute("PRAGMA user_version").fetchone() == (1,)
        assert record.heartbeat(1).state == "listening"


def test_a_heartbeat_is_read_as_its_state_and_an_unknown_state_as_none(tmp_path):
    with Record.open(tmp_path / "m.sqlite3") as record:
        match = record.create_match(Setup("libre", 10, PLAYERS))
        record.beat(match, Liveness.HEADSET_LOST)
        assert record.heartbeat(match).state is Liveness.HEADSET_LOST
        record.beat(match, "dozing")  # written by a newer version with a state this one lacks
        assert record.heartbeat(match) is None


def test_the_board_script_words_every_state_and_no_other():
    script = (files("voice.scoreboard.web") / "feed.js").read_text(encoding="utf-8")
    words = re.search(r"const HEARD = \{(.*?)\};", script, re.S)
    assert words is not None
    assert set(re.findall(r"^\s*(\w+):", words[1], re.M)) == set(Liveness)


def test_a_state_left_before_the_writer_came_round_is_still_written(tmp_path, monkeypatch):
    path = tmp_path / "m.sqlite3"
    with Record.open(path) as record:
        match = record.create_match(Setup("libre", 10, PLAYERS))
    written = beats(monkeypatch)
    writer = RecordWriter(path, match, log=lambda line: None)
    writer.start()
    with writer._wake:  # a microphone lost and back before the writer's next round
        writer.beat(Liveness.LISTENING)
        writer.beat(Liveness.MIC_LOST)
        writer.beat(Liveness.LISTENING)
    writer.flush()
    writer.close()
    assert written == [Liveness.LISTENING, Liveness.MIC_LOST, Liveness.LISTENING]


def test_a_state_changed_while_the_writer_writes_a_heartbeat_is_written_in_its_turn(
    tmp_path, monkeypatch
):
    path = tmp_path / "m.sqlite3"
    with Record.open(path) as record:
        match = record.create_match(Setup("libre", 10, PLAYERS))
    written, vanished = beats(monkeypatch), Record.vanished
    writer = RecordWriter(path, match, log=lambda line: None)

    def checked(record):  # the writer's round is under way: the microphone is lost and back
        if not written:
            writer.beat(Liveness.MIC_LOST)
            writer.beat(Liveness.LISTENING)
        return vanished(record)

    monkeypatch.setattr(Record, "vanished", checked)
    writer.start()
    writer.beat(Liveness.LISTENING)
    writer.flush()
    writer.flush()
    writer.close()
    assert written == [Liveness.LISTENING, Liveness.MIC_LOST, Liveness.LISTENING]


def test_a_state_whose_heartbeat_failed_is_written_before_the_next_one(tmp_path, monkeypatch):
    path = tmp_path / "m.sqlite3"
    with Record.open(path) as record:
        match = record.create_match(Setup("libre", 10, PLAYERS))
    written, beat = [], Record.beat

    def flaky(record, match_id, state):  # the first heartbeat meets a record it cannot write
        if not hasattr(flaky, "failed"):
            flaky.failed = True
            raise RecordError("cannot write the heartbeat: disk I/O error", record.path)
        beat(record, match_id, state)
        written.append(state)

    monkeypatch.setattr(Record, "beat", flaky)
    writer = RecordWriter(path, match, log=lambda line: None)
    writer.start()
    writer.beat(Liveness.MIC_LOST)
    writer.flush()
    writer.flush()  # a round after the failed one: the heartbeat is not due again yet
    writer.beat(Liveness.LISTENING)
    writer.flush()
    writer.close()
    assert written == [Liveness.MIC_LOST, Liveness.LISTENING]
