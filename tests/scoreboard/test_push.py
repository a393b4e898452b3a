"""The watcher and the desk: each watcher gets the newest state it has not seen, whoever wrote."""

import asyncio
import json
import logging
import sqlite3
import threading
from contextlib import closing

import pytest

import rules.match
from rules.command import Command, Kind
from rules.state import Setup
from tests.support.match import PLAYERS
from tests.support.server import new_record
from voice.match_record.database import NoSuchMatch, Record, RecordError
from voice.match_record.ledger import Ledger
from voice.scoreboard.push import Watcher
from voice.scoreboard.record_worker import Desk
from voice.scoreboard.view import View


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


def test_each_watcher_gets_the_board_it_has_not_seen(db):
    point(db)

    async def body(watcher):
        await watcher.desk.view(1)
        with watcher.watch(1, 1) as current, watcher.watch(1, 0) as behind:
            watcher.publish(1)
            return current.empty(), json.loads(behind.get_nowait())["seq"]

    assert watched(db, body) == (True, 1)


def test_every_watcher_gets_the_same_text_made_once(db):
    async def body(watcher):
        await watcher.desk.view(1)
        with watcher.watch(1, 0) as first, watcher.watch(1, 0) as second:
            await watcher.desk.command(1, Command(Kind.POINT))
            return first.get_nowait(), second.get_nowait()

    first, second = watched(db, body)
    assert first is second and json.loads(first)["players"][0]["points"] == 1


def test_a_command_on_the_desk_is_pushed_at_once_without_a_poll(db):
    async def body(watcher):
        shown = await watcher.desk.board(1)
        with watcher.watch(1, shown.seq) as queue:
            recorded, _ = await watcher.desk.command(1, Command(Kind.POINT))
            return recorded, json.loads(queue.get_nowait())["seq"]

    assert watched(db, body) == (1, 1)


def test_events_another_process_records_are_pushed_at_the_next_poll(db):
    async def body(watcher):
        await watcher.desk.view(1)
        with watcher.watch(1, 0) as queue:
            point(db)
            assert queue.empty()
            await watcher.poll()
            return json.loads(queue.get_nowait())["seq"]

    assert watched(db, body) == 1


def test_a_watcher_slow_to_take_gets_only_the_newest_board(db):
    async def body(watcher):
        await watcher.desk.view(1)
        with watcher.watch(1, 0) as queue:
            for _ in range(2):
                point(db)
                await watcher.poll()
            return queue.qsize(), json.loads(queue.get_nowait())["players"][0]["points"]

    assert watched(db, body) == (1, 2)


def test_a_match_that_cannot_be_read_is_logged_once_and_the_others_still_shown(db, caplog):
    async def body(watcher):
        await watcher.desk.view(1)
        await watcher.desk.view(2)
        with watcher.watch(1, 0) as good, watcher.watch(2, 0):
            with closing(sqlite3.connect(db)) as raw, raw:
                raw.execute("INSERT INTO events VALUES (2, 1, '{\"kind\": \"warp\"}', 'now', 0)")
            point(db)
            for _ in range(3):
                await watcher.poll()
            return json.loads(good.get_nowait())["seq"]

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
            await desk.board(3)
        with pytest.raises(RecordError, match="event 1 of match 2") as unreadable:
            await desk.board(2)
        assert not isinstance(unreadable.value, NoSuchMatch)

    watched(db, body)


def test_a_desk_that_cannot_open_its_record_leaves_no_thread(tmp_path):
    with pytest.raises(RecordError, match="is a directory"):
        Desk(tmp_path).open()
    assert not any(t.name.startswith("record") for t in threading.enumerate())


def test_the_watcher_keeps_polling_after_the_record_fails(db, caplog):
    class Flaky(Desk):
        """A desk whose first poll of the record fails."""

        polls = 0

        async def newest(self):
            self.polls += 1
            if self.polls == 1:
                raise RecordError("disk I/O error", db)
            return await super().newest()

    async def body():
        desk = Flaky(db)
        desk.open()
        try:
            watcher = Watcher(desk, interval=0.001)
            await desk.view(1)
            point(db)
            with watcher.watch(1, 0) as queue:
                polling = asyncio.create_task(watcher.run())
                try:
                    return json.loads(await asyncio.wait_for(queue.get(), timeout=5))["seq"]
                finally:
                    polling.cancel()
        finally:
            desk.close()

    with caplog.at_level(logging.WARNING, logger="referee.serve"):
        assert asyncio.run(body()) == 1
    assert caplog.records[0].getMessage() == "cannot read the match record: disk I/O error"


def test_a_match_is_loaded_once_however_many_ask_at_once(db, monkeypatch):
    loads = []
    original = View.load

    def counted(record, match_id):
        loads.append(match_id)
        return original(record, match_id)

    monkeypatch.setattr(View, "load", counted)

    async def body(watcher):
        boards = await asyncio.gather(*(watcher.desk.board(1) for _ in range(50)))
        return len({id(board) for board in boards})

    assert watched(db, body) == 1 and loads == [1]


def test_an_unknown_match_is_told_without_replaying_any(db, monkeypatch):
    for match_id in (1, 2):
        for _ in range(3):
            point(db, match_id)
    applied = []
    monkeypatch.setattr(rules.match, "apply", lambda *args: applied.append(args))

    async def body(watcher):
        with pytest.raises(NoSuchMatch):
            await watcher.desk.board(3)
        with pytest.raises(NoSuchMatch):
            await watcher.desk.command(3, Command(Kind.POINT))

    watched(db, body)
    assert applied == []


def test_reads_are_served_while_the_record_thread_is_busy(db):
    async def body(watcher):
        desk = watcher.desk
        await desk.view(1)
        busy = threading.Event()
        desk._worker.submit(busy.wait, 5)  # a long write holds the record thread
        try:
            shown = await asyncio.wait_for(desk.board(1), timeout=1)
            events = await asyncio.wait_for(desk.events(1), timeout=1)
            unknown = await asyncio.wait_for(desk.board(2), timeout=1)
            return shown.seq, events, unknown.seq
        finally:
            busy.set()

    assert watched(db, body) == (0, (), 0)


def test_the_voice_loops_heartbeat_is_carried_in_the_board_and_pushed_at_the_next_poll(db):
    with Record.open(db) as record:
        record.beat(1, "listening")

    async def body(watcher):
        first = json.loads((await watcher.desk.board(1)).text("now"))["liveness"]
        with watcher.watch(1, 0) as queue:
            with Record.open(db) as record:  # no event: the heartbeat alone changes
                record.beat(1, "mic_lost")
            await watcher.poll()
            pushed = json.loads(queue.get_nowait())
            await watcher.poll()  # the same heartbeat: nothing more is pushed
            return first, pushed, queue.empty()

    first, pushed, quiet = watched(db, body)
    assert first["state"] == "listening" and pushed["seq"] == 0 and quiet
    assert pushed["liveness"]["state"] == "mic_lost" and pushed["liveness"]["at"] > first["at"]
    with Record.open(db) as record:
        assert View.load(record, 2).state["liveness"] is None  # no loop ever ran for it


def test_a_vanished_record_is_a_record_error_for_every_reader_at_once_until_it_is_back(db):
    async def body(watcher):
        desk = watcher.desk
        await desk.view(1)
        db.unlink()
        asked = [desk.kept(), desk.view(1), desk.newest(), desk.events(1), desk.match_ids(),
                 watcher.poll(), desk.command(1, Command(Kind.POINT))]
        answers = await asyncio.gather(*asked, return_exceptions=True)
        assert all(isinstance(a, RecordError) and "deleted or replaced" in str(a)
                   for a in answers), answers
        new_record(db)
        return (await desk.view(1)).seq

    assert watched(db, body) == 0
