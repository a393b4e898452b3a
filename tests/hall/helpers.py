"""What the hall's tests share: tables that record, and what the hall holds."""

from __future__ import annotations

import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg

from rules.command import Command, Kind
from rules.state import Setup
from tests.support.server import REFEREE, STARTUP_SECONDS, free_port
from tests.support.server import wait_for as wait_until_listening
from tests.support.signals import at_a_terminal
from voice.match_record.database import Record
from voice.match_record.ledger import Ledger

PLAYERS = ("Παπαδόπουλος", "Κωνσταντίνου")
WAIT_SECONDS = 30.0


def new_match(path: Path, table: str | None = None, hall: str | None = None) -> Ledger:
    """A new match (to 1000 points: it never ends in a test) in the record at `path`."""
    record = Record.open(path)
    setup = Setup("libre", 1000, PLAYERS, 0, hall=hall, table=table)
    return Ledger(record, record.create_match(setup))


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


@contextmanager
def hall_served(url: str, secret: str) -> Iterator[str]:
    """`referee serve --db URL` (the hall's PostgreSQL) until the block ends, then Ctrl-C: it
    must exit with 0, having said it serves the hall, and never shown the password `secret`."""
    port = free_port()
    process = subprocess.Popen(
        [str(REFEREE), "serve", "--db", url, "--port", str(port)], stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, preexec_fn=at_a_terminal,
    )
    try:
        wait_until_listening(port, process)
        yield f"http://127.0.0.1:{port}"
    finally:
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=STARTUP_SECONDS)
    assert process.returncode == 0, err
    assert f":{port}/board/MATCH of every table pushing to user=referee" in err, err
    assert "Traceback" not in err and secret not in out + err, err
