"""The hall's scoreboard: every table's matches read from the hall's PostgreSQL, each board
brought up to date when the hall hears of a new event (LISTEN referee_hall), read-only."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

import psycopg

from voice.hall.pusher import first_line
from voice.hall.reader import HallRecord
from voice.hall.target import connect, shown
from voice.match_record.database import RecordError
from voice.scoreboard.push import Watcher
from voice.scoreboard.record_worker import Desk
from voice.scoreboard.view import View

CHANNEL = "referee_hall"  # the pushed tables' trigger notifies each match's id on it
RETRY_SECONDS = 1.0  # after the hall's database was lost, the listener tries again this often
log = logging.getLogger("referee.serve")


class HallView(View):
    """A match's view with the names of the hall and the table it is played on."""

    hall: str | None = None
    table: str | None = None

    def board(self) -> dict[str, Any]:
        """The board, and where the match is played."""
        return {**super().board(), "hall": self.hall, "table": self.table}


class HallDesk(Desk):
    """The hall's database for the scoreboard, read on two threads of their own: the reader
    loads matches; the other brings the views shown up to date, as the hall hears of events."""

    controlled = False  # each table controls its own matches

    def __init__(self, conninfo: str) -> None:
        super().__init__(Path(shown(conninfo)))
        self.conninfo = conninfo
        self._numbers: dict[str, int] = {}  # match id → its number in the hall, once shown

    def _connect(self, create: bool) -> None:
        self._views.clear()
        self._reading = self._reader.submit(HallRecord.open, self.conninfo).result()
        try:
            self._advancing = self._worker.submit(HallRecord.open, self.conninfo).result()
        except RecordError:
            self._reader.submit(self._reading.close).result()
            raise

    def _disconnect(self) -> None:
        self._reader.submit(self._reading.close).result()
        self._worker.submit(self._advancing.close).result()

    def _load(self, match_id: int) -> View:
        hall = self._reading
        assert isinstance(hall, HallRecord)
        view = HallView.load(hall, match_id)
        assert isinstance(view, HallView)
        place = hall.place(match_id)
        view.hall, view.table = place.hall, place.table
        view.redraw()
        self._numbers[place.uid] = match_id
        return view

    async def view(self, match_id: int) -> View:
        """The match's view; loaded the first time, then brought up to what the hall got
        meanwhile (its notices are not followed until it is shown)."""
        loaded = match_id in self._views
        view = await super().view(match_id)
        if not loaded:
            await self.catch_up(match_id)
        return view

    def number(self, uid: str) -> int | None:
        """The hall's number of match `uid`, if its board is shown."""
        match_id = self._numbers.get(uid)
        return match_id if match_id in self._views else None

    def numbers(self) -> list[int]:
        """The number of every match shown."""
        return list(self._views)

    async def catch_up(self, match_id: int) -> None:
        """Bring the match's view up to what the hall holds."""
        view = self._views[match_id]
        if await asyncio.wrap_future(self._worker.submit(view.catch_up, self._advancing)):
            self._changed(match_id)

    async def beat(self, match_id: int) -> bool:
        """Bring the match's view up to its table's latest heartbeat; whether it changed."""
        view = self._views[match_id]
        job = self._worker.submit(lambda: view.beat(self._advancing.heartbeat(match_id)))
        return await asyncio.wrap_future(job)


class HallWatcher(Watcher):
    """Pushes each new board to its watchers, hearing of new events from one connection that
    listens on the hall's channel, however many boards are watched."""

    desk: HallDesk

    def __init__(self, desk: HallDesk) -> None:
        super().__init__(desk)

    async def run(self) -> None:
        """Listen until cancelled; a lost connection is logged once and opened again, and
        every match shown brought up to date, since notices sent meanwhile are lost."""
        fault = None
        while True:
            try:
                db = await asyncio.to_thread(connect, self.desk.conninfo, True)
            except psycopg.Error as error:
                fault = _once(fault, first_line(error))
                await asyncio.sleep(RETRY_SECONDS)
                continue
            try:
                db.execute(f"LISTEN {CHANNEL}")
                fault = None
                for match_id in self.desk.numbers():
                    await self.refresh(match_id)
                await self._hear(db)
            except psycopg.Error as error:
                fault = _once(fault, first_line(error))
            finally:
                db.close()
            await asyncio.sleep(RETRY_SECONDS)

    async def _hear(self, db: psycopg.Connection[Any]) -> None:
        """Refresh each shown match the hall notifies, until the connection fails."""
        loop = asyncio.get_running_loop()
        while True:
            heard = await loop.run_in_executor(None, _next_notices, db)
            for uid in dict.fromkeys(heard):  # each match once, however many events it got
                match_id = self.desk.number(uid)
                if match_id is not None:
                    await self.refresh(match_id)

    async def refresh(self, match_id: int) -> None:
        """Bring the match's board up to the hall; a match that cannot be read is logged."""
        try:
            await self.desk.catch_up(match_id)  # its watchers get the board if it changed
            if await self.desk.beat(match_id):
                self.publish(match_id, every=True)
        except RecordError as error:
            log.warning("match %s cannot be shown: %s", match_id, error)


def _next_notices(db: psycopg.Connection[Any]) -> list[str]:
    """The notices that come within a second (at least one, or none if the second passes)."""
    return [n.payload for n in db.notifies(timeout=1.0, stop_after=1)] + [
        n.payload for n in db.notifies(timeout=0)]


def _once(fault: str | None, error: str) -> str:
    """Log `error` unless it is the one logged last; it is the one logged last now."""
    if error != fault:
        log.warning("cannot listen to the hall's database: %s", error)
    return error
