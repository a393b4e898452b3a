"""The server's hold on the match record: each match shown is kept in memory as a `View`,
advanced per event. Two threads each own a connection: the record thread takes commands and
advances the views; the reader loads a match the first time it is asked for, lists events and
polls, so public reads and polls never wait behind a command, nor a command behind them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from phrases.render import Utterance
from rules.command import Command
from voice.match_record.database import Record, RecordedEvent, RecordError
from voice.match_record.ledger import Ledger
from voice.match_record.protocol import protocol_pdf
from voice.match_record.reading import Reader
from voice.scoreboard.view import Snapshot, View, server_time
from voice.translation import N_

Taken = tuple[int | None, list[Utterance]]  # the event recorded (if any), what is to be said
LOST = N_("the match record {path} was deleted or replaced; the voice loop writes it back, or put "
          "the file back")


class Desk:
    """The match record for asyncio code, once opened; each read or write may raise RecordError.

    Listeners (`subscribe`) hear, on the event loop, of each match whose board has changed.
    """

    controlled = True  # commands are taken here (not so in the hall's read-only desk)

    def __init__(self, path: Path) -> None:
        self.path = path
        self._views: dict[int, View] = {}  # advanced on the record thread only
        self._loading: dict[int, asyncio.Future[View]] = {}
        self._ledgers: dict[int, Ledger] = {}  # used on the record thread only
        self._listeners: list[Callable[[int], None]] = []
        self._lost = False  # the record cannot be used: its file vanished
        self._keeping = asyncio.Lock()  # one check of the file at a time
        self._reading: Reader  # the reader thread's connection, once open

    def open(self, create: bool = True) -> None:
        """Open the record (made if missing and `create`) on two new threads; RecordError, and
        no thread, if it cannot be."""
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="record")
        self._reader = ThreadPoolExecutor(max_workers=1, thread_name_prefix="record-reader")
        try:
            self._connect(create)
        except RecordError:
            self._worker.shutdown()
            self._reader.shutdown()
            raise

    async def kept(self) -> None:
        """RecordError while the record's file is deleted or replaced (its connections closed);
        the record opened again once a sound one is back at its path."""
        async with self._keeping:
            if not self._lost:
                if not self._reading.vanished():
                    return
                self._lost = True
                await asyncio.to_thread(self._disconnect)
            try:
                await asyncio.to_thread(self._connect, False)
            except RecordError:
                raise RecordError(LOST, self.path, path=self.path) from None
            self._lost = False

    def _connect(self, create: bool) -> None:
        """A connection on each thread; nothing is kept from an earlier one, as the record may
        have changed meanwhile."""
        self._views.clear()
        self._ledgers.clear()
        self._record = self._worker.submit(Record.open, self.path, create).result()
        try:
            self._reading = self._reader.submit(Record.open, self.path, False).result()
        except RecordError:
            self._worker.submit(self._record.close).result()
            raise

    def _disconnect(self) -> None:
        """Close both connections, after what is queued on their threads."""
        self._reader.submit(self._reading.close).result()
        self._worker.submit(self._record.close).result()

    @property
    def lost(self) -> bool:
        """Whether the record's file vanished and no sound record is back at its path yet."""
        return self._lost

    def subscribe(self, listener: Callable[[int], None]) -> None:
        """Call `listener(match_id)` each time the board of a match shown changes."""
        self._listeners.append(listener)

    def shown(self, match_id: int) -> View | None:
        """The match's view, if it has been loaded."""
        return self._views.get(match_id)

    async def view(self, match_id: int) -> View:
        """The match's view, loaded (on the reader, once) the first time it is asked for."""
        await self.kept()
        view = self._views.get(match_id)
        if view is not None:
            return view
        loading = self._loading.get(match_id)
        if loading is None:
            job = self._reader.submit(self._load, match_id)
            loading = self._loading[match_id] = asyncio.wrap_future(job)
        try:
            view = await asyncio.shield(loading)
        finally:
            if self._loading.get(match_id) is loading:
                del self._loading[match_id]
        return self._views.setdefault(match_id, view)

    def _load(self, match_id: int) -> View:
        """The match's view, read on the reader thread."""
        return View.load(self._reading, match_id)

    async def board(self, match_id: int) -> Snapshot:
        """The match's current board as JSON text, the same for every reader."""
        return (await self.view(match_id)).current

    async def state(self, match_id: int) -> dict[str, Any]:
        """The scoreboard state of the match, with the server's time for the break countdown."""
        return {**(await self.view(match_id)).state, "now": server_time()}

    async def events(self, match_id: int) -> tuple[RecordedEvent, ...]:
        """The match's recorded events, oldest first."""
        await self.kept()
        return await asyncio.wrap_future(self._reader.submit(self._reading.events, match_id))

    async def protocol(self, match_id: int) -> bytes:
        """The match's printable protocol (PDF)."""
        await self.kept()
        job = self._reader.submit(lambda: protocol_pdf(self._reading.load(match_id)))
        return await asyncio.wrap_future(job)

    async def match_ids(self) -> list[int]:
        """The number of every match in the record, oldest first."""
        await self.kept()
        return await asyncio.wrap_future(self._reader.submit(self._reading.match_ids))

    async def newest(self) -> dict[int, int]:
        """The newest event number of each match shown (one index lookup each)."""
        await self.kept()
        shown = list(self._views)
        job = self._reader.submit(lambda: {m: self._reading.last_seq(m) for m in shown})
        return await asyncio.wrap_future(job)

    async def beats(self) -> list[int]:
        """The matches shown whose voice loop's heartbeat changed, their views brought up to it
        (one primary-key lookup each)."""
        shown = list(self._views)
        read = self._reader.submit(lambda: {m: self._reading.heartbeat(m) for m in shown})
        changed = {
            m: beat for m, beat in (await asyncio.wrap_future(read)).items()
            if beat != self._views[m].heartbeat
        }
        if not changed:
            return []
        job = self._worker.submit(lambda: [m for m, b in changed.items() if self._views[m].beat(b)])
        return await asyncio.wrap_future(job)

    async def catch_up(self, match_id: int) -> None:
        """Bring the match's view up to its record, whichever process wrote the events."""
        view = self._views[match_id]
        if await asyncio.wrap_future(self._worker.submit(view.catch_up, self._record)):
            self._changed(match_id)

    async def command(self, match_id: int, command: Command) -> Taken:
        """Take `command` through the ledger, exactly as the voice loop does; the event it
        recorded is marked announced, since the reply carries the announcements."""
        return await self._take(match_id, lambda ledger: ledger.command(command))

    async def hear(self, match_id: int, text: str) -> Taken:
        """Take a phrase through the ledger, as if the recogniser had heard it."""
        return await self._take(match_id, lambda ledger: ledger.hear(text))

    def close(self) -> None:
        """Finish what is queued, then close the record and its threads."""
        if not self._lost:  # else closed when its file vanished
            self._disconnect()
        self._reader.shutdown()
        self._worker.shutdown()

    async def _take(self, match_id: int, act: Callable[[Ledger], list[Utterance]]) -> Taken:
        view = await self.view(match_id)

        def job() -> tuple[bool, Taken]:
            ledger = self._ledgers.get(match_id)
            if ledger is None:  # it starts where the view is: nothing is replayed again
                ledger = Ledger(self._record, match_id, at=(view.match, view.seq))
                self._ledgers[match_id] = ledger
            said = act(ledger)
            if ledger.written is not None:  # the reply shows it, as `simulate --jsonl` does
                ledger.mark_announced(ledger.written)
            return view.catch_up(self._record), (ledger.written, said)

        changed, taken = await asyncio.wrap_future(self._worker.submit(job))
        if changed:
            self._changed(match_id)
        return taken

    def _changed(self, match_id: int) -> None:
        for listener in self._listeners:
            listener(match_id)
