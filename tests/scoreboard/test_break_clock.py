"""`serve` alone times a break from its recorded start: the warning at 4:00, the end at 5:00."""

import asyncio
import sqlite3
from contextlib import closing
from datetime import datetime

from rules.command import Command, Kind
from rules.state import Setup
from tests.support.match import PLAYERS
from voice.match_record.database import Record
from voice.match_record.ledger import Ledger
from voice.scoreboard.break_clock import keep_time
from voice.scoreboard.record_worker import Desk


def test_serve_alone_warns_and_ends_a_break_from_its_recorded_start(tmp_path):
    db = tmp_path / "m.sqlite3"
    with Record.open(db) as record:
        ledger = Ledger(record, record.create_match(Setup("libre", 10, PLAYERS)))
        ledger.command(Command(Kind.BREAK))  # from the panel; no voice loop runs
    with closing(sqlite3.connect(db)) as other:
        (created,) = other.execute("SELECT created FROM events").fetchone()
    started = datetime.fromisoformat(created).timestamp()
    now = [started + 239.0]

    async def serve():
        desk = Desk(db)
        desk.open()
        await desk.view(1)  # the board shows the match
        timing = asyncio.create_task(keep_time(desk, interval=0.01, clock=lambda: now[0]))
        try:
            for at in (239.0, 240.5, 299.0, 300.5):
                now[0] = started + at
                await asyncio.sleep(0.1)
                await desk.catch_up(1)
        finally:
            timing.cancel()
            desk.close()

    asyncio.run(serve())
    with Record.open(db) as record:
        loaded = record.load(1)
    ticks = [round(e.command.seconds) for e in loaded.events if e.command.kind is Kind.TICK]
    assert ticks == [240, 300] and loaded.match.pause is None
