"""The watcher and the desk: each watcher gets the newest state it has not seen, whoever wrote."""

import asyncio
import logging
import sqlite3
import threading
from contextlib import closing
from pathlib import Path

import pytest

from rules.state import Setup
from tests.support.match import PLAYERS
from voice.match_record.database import NoSuchMatch, Record, RecordError
from voice.match_record.ledger import Ledger
from voice.scoreboard.push import Watcher
from voice.scoreboard.record_worker import Desk


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "m.sqlite3"
    with Record.open(path) as record:
        for _ in range(2):
            record.create_match(Setup("libre", 10, PLAYERS))
    return path


def point(db, match_id=1):
    """A point recorded by another connection, as the voice loop would."""
    with Record.open(db) as record:
        Ledger(record, match_id).hear("πόντος")


def watched(db, body):
    """Run `body(watcher)` on a fresh desk, closing it after."""
    desk = Desk(db)
    desk.open()
    try:
        return asyncio.run(body(Watcher(desk)))
    finally:
        desk.close()


def test_each_watcher_gets_the_state_it_has_not_seen(db):
    point(db)

    async def body(watcher):
        with watcher.watch(1, 1) as current, watcher.watch(1, 0) as behind:
            await watcher.poll()
            return current.empty(), behind.get_nowait()["seq"]

    assert watched(db, body) == (True, 1)


def test_a_watcher_slow_to_take_gets_only_the_newest_state(db):
    async def body(watcher):
        with watcher.watch(1, 0) as queue:
            for _ in range(2):
                point(db)
                await watcher.poll()
            return queue.qsize(), queue.get_nowait()["players"][0]["points"]

    assert watched(db, body) == (1, 2)


def test_a_match_that_cannot_be_read_is_logged_once_and_the_others_still_shown(db, caplog):
    with closing(sqlite3.connect(db)) as raw, raw:
        raw.execute("INSERT INTO events VALUES (2, 1, '{\"kind\": \"warp\"}', 'now', 0)")

    async def body(watcher):
        with watcher.watch(1, 0) as good, watcher.watch(2, 0):
            point(db)
            for _ in range(3):
                await watcher.poll()
            return good.get_nowait()["seq"]

    with caplog.at_level(logging.WARNING, logger="referee.serve"):
        assert watched(db, body) == 1
    [logged] = caplog.records
    assert logged.getMessage().startswith("match 2 cannot be shown: event 1 of match 2")


def test_the_desk_tells_an_unknown_match_from_an_unreadable_one(db):
    with closing(sqlite3.connect(db)) as raw, raw:
        raw.execute("INSERT INTO events VALUES (2, 1, '{\"kind\": \"warp\"}', 'now', 0)")

    async def body(watcher):
        desk = watcher.desk
        with pytest.raises(NoSuchMatch, match="there is no match 3"):
            await desk.state(3)
        with pytest.raises(RecordError, match="event 1 of match 2") as unreadable:
            await desk.state(2)
        assert not isinstance(unreadable.value, NoSuchMatch)

    watched(db, body)


def test_a_desk_that_cannot_open_its_record_leaves_no_thread(tmp_path):
    with pytest.raises(RecordError, match="is a directory"):
        Desk(tmp_path).open()
    assert not any(t.name.startswith("record") for t in threading.enumerate())


def test_the_watcher_keeps_polling_after_the_record_fails(caplog):
    class Flaky:
        """A desk whose first read of the record fails."""

        def __init__(self):
            self.reads = 0

        async def last_seqs(self, match_ids):
            self.reads += 1
            if self.reads == 1:
                raise RecordError("disk I/O error", Path("m.sqlite3"))
            return {1: 1}

        async def state(self, match_id):
            return {"seq": 1}

    async def body():
        watcher = Watcher(Flaky(), interval=0.001)
        with watcher.watch(1, 0) as queue:
            polling = asyncio.create_task(watcher.run())
            try:
                return await asyncio.wait_for(queue.get(), timeout=5)
            finally:
                polling.cancel()

    with caplog.at_level(logging.WARNING, logger="referee.serve"):
        assert asyncio.run(body()) == {"seq": 1}
    assert caplog.records[0].getMessage() == "cannot read the match record: disk I/O error"
