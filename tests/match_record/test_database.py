"""The match record: schema, events, matches, and records that no longer replay."""

import hashlib
import json
import os
import sqlite3
from contextlib import closing

import platformdirs
import pytest

from rules.command import Command, Kind
from rules.match import replay
from rules.state import Setup
from tests.support.match import PLAYERS
from voice.cli.main import explain
from voice.match_record import database as record_module
from voice.match_record.database import (
    APPLICATION_ID,
    NoSuchMatch,
    Record,
    RecordError,
    default_path,
)

SETUP = Setup("cadre-47-2", 50, PLAYERS, first=1)
POINT, MISS, UNDO = Command(Kind.POINT), Command(Kind.MISS), Command(Kind.UNDO)


def digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def raw(path):
    """A plain connection, as another program (or a tamperer) would use."""
    return closing(sqlite3.connect(path, isolation_level=None))


def test_a_new_record_has_the_schema_wal_and_full_sync_and_leaves_no_temporary_file(tmp_path):
    path = tmp_path / "deep" / "er" / "m.sqlite3"
    with Record.open(path) as record:
        pragma = {name: record._db.execute(f"PRAGMA {name}").fetchone()[0]
                  for name in ("application_id", "user_version", "journal_mode", "synchronous")}
        assert pragma == {"application_id": APPLICATION_ID, "user_version": 1,
                          "journal_mode": "wal", "synchronous": 2}
        tables = {r[0] for r in record._db.execute("SELECT name FROM sqlite_master")}
        assert {"matches", "events"} <= tables
    assert sorted(p.name for p in path.parent.iterdir()) == ["m.sqlite3"]


def test_a_match_and_its_events_round_trip_and_replay(tmp_path):
    with Record.open(tmp_path / "m.sqlite3") as record:
        match_id = record.create_match(SETUP)
        ball_off = Command(Kind.BALL_OFF, balls=("red", "white"), covered=(("red", "yellow"),))
        commands = [POINT, MISS, ball_off, UNDO, Command(Kind.STARTS, player=PLAYERS[0])]
        for seq, command in enumerate(commands[:3], 1):
            record.append(match_id, seq, command)
        record.mark_announced(match_id, 2)
    with Record.open(tmp_path / "m.sqlite3") as record:
        loaded = record.load(match_id)
    assert loaded.setup == SETUP and loaded.id == match_id
    assert loaded.commands == tuple(commands[:3])
    assert [e.announced for e in loaded.events] == [False, True, False]
    assert [e.seq for e in loaded.events] == [1, 2, 3] and loaded.last_seq == 3
    assert loaded.match == replay(SETUP, commands[:3])


def test_the_spoken_forms_of_the_surnames_are_kept_and_a_record_without_them_still_loads(
    tmp_path,
):
    spoken = Setup("libre", 30, ("ΠΑΠΑΔΟΠΟΥΛΟΣ", "Jaspers"), spoken=("Παπαδόπουλος", "Γιάσπερς"))
    with Record.open(tmp_path / "m.sqlite3") as record:
        match_id = record.create_match(spoken)
        old = record.create_match(SETUP)
    with raw(tmp_path / "m.sqlite3") as db:  # as a record made before spoken forms existed
        (text,) = db.execute("SELECT setup FROM matches WHERE id = ?", (old,)).fetchone()
        data = json.loads(text)
        del data["spoken"]
        db.execute("UPDATE matches SET setup = ? WHERE id = ?", (json.dumps(data), old))
    with Record.open(tmp_path / "m.sqlite3") as record:
        assert record.load(match_id).setup == spoken
        assert record.load(old).setup == SETUP and SETUP.spoken == PLAYERS


def test_undo_is_recorded_as_an_event_and_the_state_is_the_replay_of_the_raw_log(tmp_path):
    with Record.open(tmp_path / "m.sqlite3") as record:
        match_id = record.create_match(SETUP)
        for seq, command in enumerate([POINT, POINT, UNDO], 1):
            record.append(match_id, seq, command)
        loaded = record.load(match_id)
    assert loaded.commands[-1] == UNDO
    assert loaded.match.players[1].points == 1


def test_a_second_event_with_the_same_number_is_refused(tmp_path):
    with Record.open(tmp_path / "m.sqlite3") as record:
        match_id = record.create_match(SETUP)
        record.append(match_id, 1, POINT)
        with pytest.raises(RecordError, match="cannot record event 1 of match 1 in .*UNIQUE"):
            record.append(match_id, 1, MISS)
        assert record.load(match_id).commands == (POINT,)


def test_an_unknown_match_is_named(tmp_path):
    with Record.open(tmp_path / "m.sqlite3") as record, pytest.raises(
        NoSuchMatch, match=r"there is no match 7 in .*m.sqlite3"
    ) as error:
        record.load(7)
    assert f"`referee matches --db {tmp_path / 'm.sqlite3'}` lists them" in explain(error.value)


def test_opening_a_missing_record_without_create_makes_no_file(tmp_path):
    path = tmp_path / "none.sqlite3"
    with pytest.raises(RecordError, match=f"there is no match record at {path}"):
        Record.open(path, create=False)
    assert not path.exists()


def test_the_latest_match_is_the_one_played_most_recently(tmp_path):
    with Record.open(tmp_path / "m.sqlite3") as record:
        assert record.latest() is None
        first = record.create_match(SETUP)
        second = record.create_match(SETUP)
        assert record.latest() == second
        record.append(first, 1, POINT)
        assert record.latest() == first


def test_the_list_of_matches_replays_each_and_reports_one_that_does_not(tmp_path):
    path = tmp_path / "m.sqlite3"
    with Record.open(path) as record:
        good = record.create_match(SETUP)
        record.append(good, 1, POINT)
        bad = record.create_match(Setup("three-cushion", 20, PLAYERS))
        record.append(bad, 1, Command(Kind.ENTREES))  # no zones in three-cushion
        entries = record.matches()
    assert [e.id for e in entries] == [good, bad]
    assert entries[0].match.players[1].points == 1 and entries[0].problem is None
    assert entries[1].match is None
    assert "match 2" in str(entries[1].problem) and "no longer replays" in str(entries[1].problem)


def test_a_record_that_no_longer_replays_is_reported_and_left_untouched(tmp_path):
    path = tmp_path / "m.sqlite3"
    with Record.open(path) as record:
        match_id = record.create_match(Setup("one-cushion", 20, PLAYERS))
        record.append(match_id, 1, POINT)
        record.append(match_id, 2, Command(Kind.ENTREES_ANCHOR))
    before = digest(path)
    with Record.open(path) as record, pytest.raises(RecordError) as error:
        record.load(match_id)
    message = str(error.value)
    assert f"match 1 in {path} no longer replays" in message
    assert "recorded command 2 (entrees_anchor) is refused: no_anchors" in message
    assert "left untouched" in message and "version of carom-referee" in explain(error.value)
    assert digest(path) == before


@pytest.mark.parametrize(
    "column,value,message",
    [
        ("command", "{not json", "event 1 of match 1 .* cannot be read"),
        ("command", json.dumps({"kind": "jump_shot"}), "unknown command kind: 'jump_shot'"),
        ("command", json.dumps({"kind": "ball_off", "balls": 5}), "event 1 of match 1"),
        ("setup", json.dumps({"discipline": "pool"}), "the set-up of match 1 .* cannot be read"),
        ("setup", "[]", "the set-up of match 1"),
    ],
)
def test_an_unreadable_event_or_set_up_is_reported_and_left_untouched(
    tmp_path, column, value, message
):
    path = tmp_path / "m.sqlite3"
    with Record.open(path) as record:
        record.append(record.create_match(SETUP), 1, POINT)
    table = "events" if column == "command" else "matches"
    with raw(path) as db:
        db.execute(f"UPDATE {table} SET {column} = ?", (value,))
    before = digest(path)
    with Record.open(path) as record, pytest.raises(RecordError, match=message) as error:
        record.load(1)
    assert "left untouched" in str(error.value) and "newer carom-referee" in explain(error.value)
    assert digest(path) == before


def test_a_failed_write_is_reported_and_keeps_what_was_committed(tmp_path):
    path = tmp_path / "m.sqlite3"
    with Record.open(path) as record:
        match_id = record.create_match(SETUP)
        record.append(match_id, 1, POINT)
        with raw(path) as db:
            db.execute("CREATE TRIGGER full BEFORE INSERT ON events"
                       " BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END")
        with pytest.raises(RecordError, match="cannot record event 2 .*disk is full.*is kept"):
            record.append(match_id, 2, MISS)
        assert record.load(match_id).commands == (POINT,)


def test_when_another_process_creates_the_record_first_its_record_is_used(tmp_path, monkeypatch):
    path = tmp_path / "m.sqlite3"
    link = os.link

    def racing_link(source, target):
        monkeypatch.setattr(record_module.os, "link", link)
        with Record.open(target) as theirs:
            theirs.create_match(SETUP)
        link(source, target)

    monkeypatch.setattr(record_module.os, "link", racing_link)
    with Record.open(path) as record:
        assert [e.id for e in record.matches()] == [1]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.sqlite3"]


def test_a_record_cannot_be_made_where_no_file_can_be(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(RecordError, match=f"cannot open the match record {blocker}/m.sqlite3"):
        Record.open(blocker / "m.sqlite3")
    with pytest.raises(RecordError, match="cannot open the match record"):
        Record.open(tmp_path / "nul\0name")


def test_the_default_record_is_in_the_user_data_directory(monkeypatch, tmp_path):
    monkeypatch.setattr(platformdirs, "user_data_dir", lambda name, appauthor: tmp_path / name)
    assert default_path() == tmp_path / "carom-referee" / "matches.sqlite3"


def test_a_draw_recorded_before_a_tie_at_the_distance_was_drawn_still_plays_its_extension(
    tmp_path,
):
    # As an older version wrote it: `--innings 30 --on-tie draw`, no `draw_at_distance`, and a
    # tie at the distance (5:5 in two innings each) that went to Article 4's extension.
    old = {"discipline": "libre", "distance": 5, "players": list(PLAYERS), "first": 0,
           "spoken": list(PLAYERS), "innings_limit": 30, "on_tie": "draw"}
    played = ([POINT] * 4 + [MISS]) * 2 + [POINT, POINT]  # A 5 in 2, B 5 in 2
    played += [Command(Kind.STARTS, player=PLAYERS[1]), POINT, MISS]  # B 6 in the extension
    with Record.open(tmp_path / "m.sqlite3") as record:
        match_id = record.create_match(SETUP)
    with raw(tmp_path / "m.sqlite3") as db:
        db.execute("UPDATE matches SET setup = ? WHERE id = ?", (json.dumps(old), match_id))
        for seq, command in enumerate(played, 1):
            db.execute("INSERT INTO events (match_id, seq, command, created) VALUES (?, ?, ?, ?)",
                       (match_id, seq, json.dumps(command.to_dict()), "2026-01-01T20:00:00"))
    with Record.open(tmp_path / "m.sqlite3") as record:
        loaded = record.load(match_id)
    match = loaded.match
    assert loaded.setup.draw_at_limit_only and loaded.setup.to_dict()["draw_at_distance"] is False
    assert match.winner == 1 and not match.drawn and match.phase.number == 1
    assert [p.points for p in match.players] == [5, 6]
    assert [tuple(p.innings_points) for p in match.players] == [(4, 1, 0), (4, 1, 1)]
    as_extension = Setup("libre", 5, PLAYERS, innings_limit=30)  # the rule it was played under
    assert match.players == replay(as_extension, played).players
    assert Setup.from_dict(loaded.setup.to_dict()) == loaded.setup  # kept when written again


def test_a_draw_set_up_now_draws_a_tie_at_the_distance_and_says_so_in_its_record(tmp_path):
    setup = Setup("libre", 1, PLAYERS, innings_limit=30, on_tie="draw")
    assert setup.to_dict()["draw_at_distance"] is True and not setup.draw_at_limit_only
    with Record.open(tmp_path / "m.sqlite3") as record:
        match_id = record.create_match(setup)
        record.append(match_id, 1, POINT)
        record.append(match_id, 2, POINT)
        loaded = record.load(match_id)
    assert loaded.setup == setup and loaded.match.drawn
