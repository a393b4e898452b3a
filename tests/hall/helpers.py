"""What the hall's tests share: tables that record, and what the hall holds."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import psycopg

from rules.command import Command, Kind
from rules.state import Setup
from voice.match_record.database import Record
from voice.match_record.ledger import Ledger

PLAYERS = ("Παπαδόπουλος", "Κωνσταντίνου")
WAIT_SECONDS = 30.0


def new_match(path: Path, table: str | None = None) -> Ledger:
    """A new match (to 1000 points: it never ends in a test) in the record at `path`."""
    record = Record.open(path)
    return Ledger(record, record.create_match(Setup("libre", 1000, PLAYERS, 0, table=table)))


def play(ledger: Ledger, count: int) -> None:
    """Record `count` events: points and misses in turn."""
    for n in range(count):
        ledger.command(Command(Kind.POINT if n % 3 else Kind.MISS))


def played(path: Path, count: int) -> None:
    """A new match of `count` events recorded at `path`."""
    ledger = new_match(path)
    play(ledger, count)
    ledger.record.close()


def held(url: str) -> dict[str, list[int]]:
    """Each match id in the hall and the numbers of its events, in order."""
    with psycopg.connect(url) as db:
        if db.execute("SELECT to_regclass('events')").fetchone() == (None,):
            return {}  # no table has pushed yet
        rows = db.execute("SELECT m.id::text, e.seq FROM matches AS m"
                          " LEFT JOIN events AS e ON e.match_id = m.id ORDER BY m.id, e.seq")
        found: dict[str, list[int]] = {}
        for match_id, seq in rows:
            found.setdefault(match_id, []).extend([] if seq is None else [seq])
    return found


def recorded(path: Path) -> dict[str, list[int]]:
    """Each match id in the record at `path` and the numbers of its events, in order."""
    with Record.open(path, create=False) as record:
        return {record.uid(m): [e.seq for e in record.events(m)] for m in record.match_ids()}


def wait_for(done: Callable[[], bool], seconds: float = WAIT_SECONDS) -> bool:
    """Whether `done()` came true within `seconds`."""
    limit = time.monotonic() + seconds
    while not done():
        if time.monotonic() > limit:
            return False
        time.sleep(0.05)
    return True
