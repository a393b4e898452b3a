"""A file that is not a match record this version can read is reported and never written to."""

import hashlib
import random
import re
import sqlite3
from contextlib import closing

import pytest

from rules.command import Command, Kind
from rules.state import Setup
from tests.support.match import PLAYERS
from voice.cli.main import explain
from voice.match_record.database import APPLICATION_ID, Record, RecordError


def digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def record_with_events(path, count=300):
    with Record.open(path) as record:
        match_id = record.create_match(Setup("libre", 10_000, PLAYERS))
        for seq in range(1, count + 1):
            record.append(match_id, seq, Command(Kind.MISS))


def sqlite_file(path, *pragmas):
    with closing(sqlite3.connect(path)) as db:
        db.execute("CREATE TABLE notes (body TEXT)")
        db.execute("INSERT INTO notes VALUES ('not a match')")
        for pragma in pragmas:
            db.execute(f"PRAGMA {pragma}")
        db.commit()


def random_bytes(path):
    path.write_bytes(random.Random(1).randbytes(8192))


def truncated(path):
    record_with_events(path)
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def cut_header(path):
    record_with_events(path, 1)
    path.write_bytes(path.read_bytes()[:60])


def scrambled_page(path):
    record_with_events(path)
    data = bytearray(path.read_bytes())
    rng = random.Random(25)  # a seed whose damage quick_check lists rather than raises
    offset = rng.randrange(1, len(data) // 4096) * 4096 + rng.randrange(4096)
    data[offset : offset + 8] = bytes(rng.randrange(256) for _ in range(8))
    path.write_bytes(bytes(data))


CASES = [
    (random_bytes, "not a match record (not an SQLite database)"),
    (lambda p: p.write_bytes(b""), "is an empty file, not a match record"),
    (cut_header, "not a match record (not an SQLite database)"),
    (truncated, "is a damaged match record (database disk image is malformed)"),
    (scrambled_page, "is a damaged match record (*** in database main *** On tree page"),
    (sqlite_file, "SQLite database of another program (application id 0x0)"),
    (lambda p: sqlite_file(p, "application_id = 7"), "another program (application id 0x7)"),
    (lambda p: sqlite_file(p, f"application_id = {APPLICATION_ID}", "user_version = 99"),
     "recorded by a newer carom-referee (record schema 99; this version reads 1)"),
    (lambda p: sqlite_file(p, f"application_id = {APPLICATION_ID}"), "unknown record schema 0"),
]


@pytest.mark.parametrize("make,message", CASES)
def test_the_file_is_reported_with_what_to_do_and_its_bytes_are_unchanged(tmp_path, make, message):
    path = tmp_path / "m.sqlite3"
    make(path)
    before = digest(path)
    with pytest.raises(RecordError, match=re.escape(message)) as error:
        Record.open(path)
    assert str(path) in str(error.value) and "left untouched" in str(error.value)
    assert any(hint in explain(error.value) for hint in ("--db", "upgrade", "backup"))
    assert "\n" not in str(error.value)
    assert digest(path) == before


@pytest.mark.parametrize("make,message", [c for c in CASES if c[0] not in (truncated,
                                                                          scrambled_page)])
def test_no_sqlite_side_file_appears_next_to_a_file_of_another_kind(tmp_path, make, message):
    path = tmp_path / "m.sqlite3"
    make(path)
    with pytest.raises(RecordError):
        Record.open(path)
    assert [p.name for p in tmp_path.iterdir()] == ["m.sqlite3"]


def test_a_newer_schema_still_in_the_write_ahead_log_is_seen(tmp_path):
    path = tmp_path / "m.sqlite3"
    record_with_events(path, 1)
    before = digest(path)
    with closing(sqlite3.connect(path, isolation_level=None)) as newer:
        newer.execute("PRAGMA wal_autocheckpoint = 0")
        newer.execute("PRAGMA user_version = 2")  # only in the -wal file while `newer` is open
        assert digest(path) == before
        with pytest.raises(RecordError, match="newer carom-referee .record schema 2"):
            Record.open(path)
        assert digest(path) == before


def test_a_directory_is_not_a_record(tmp_path):
    with pytest.raises(RecordError, match=f"{tmp_path} is a directory") as error:
        Record.open(tmp_path)
    assert "choose another file with --db" in explain(error.value)
    assert list(tmp_path.iterdir()) == []
