"""The server's hold on the match record: one worker thread owns the connection and does every
read and write for the web requests and the watcher, one at a time.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

from phrases.render import Utterance
from rules.command import Command
from voice.match_record.database import NoSuchMatch, Record, RecordedEvent, RecordError
from voice.match_record.ledger import Ledger
from voice.scoreboard.view import board

T = TypeVar("T")
Taken = tuple[int | None, list[Utterance]]  # the event recorded (if any), what is to be said



class Desk:
    """The match record for asyncio code, once opened; each read or write may raise RecordError."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def open(self) -> None:
        """Open the record on a new worker thread; RecordError, and no thread, if it cannot be."""
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="record")
        try:
            self._record = self._worker.submit(Record.open, self.path).result()
        except RecordError:
            self._worker.shutdown()
            raise

    async def state(self, match_id: int) -> dict[str, Any]:
        """The scoreboard state of the match, with the server's time for the break countdown."""
        state = await self._on(match_id, lambda: board(self._record.load(match_id)))
        return {**state, "now": datetime.now(UTC).isoformat(timespec="milliseconds")}

    async def events(self, match_id: int) -> tuple[RecordedEvent, ...]:
        """The match's recorded events, oldest first."""
        return await self._on(match_id, lambda: self._record.load(match_id).events)

    async def command(self, match_id: int, command: Command) -> Taken:
        """Take `command` through the ledger, exactly as the voice loop does; the event it
        recorded is marked announced, since the reply carries the announcements."""
        return await self._take(match_id, lambda ledger: ledger.command(command))

    async def hear(self, match_id: int, text: str) -> Taken:
        """Take a phrase through the ledger, as if the recogniser had heard it."""
        return await self._take(match_id, lambda ledger: ledger.hear(text))

    async def last_seqs(self, match_ids: list[int]) -> dict[int, int]:
        """The newest event number of each match (cheap: one index lookup each)."""
        future = self._worker.submit(lambda: {m: self._record.last_seq(m) for m in match_ids})
        return await asyncio.wrap_future(future)

    def close(self) -> None:
        """Finish what is queued, then close the record."""
        self._worker.submit(self._record.close).result()
        self._worker.shutdown()

    async def _on(self, match_id: int, job: Callable[[], T]) -> T:
        return await asyncio.wrap_future(self._worker.submit(self._checked, match_id, job))

    def _checked(self, match_id: int, job: Callable[[], T]) -> T:
        """`job()`, its RecordError made a NoSuchMatch when the match is not in the record."""
        try:
            return job()
        except RecordError:
            if all(entry.id != match_id for entry in self._record.matches()):
                raise NoSuchMatch(match_id, self._record.path) from None
            raise

    async def _take(self, match_id: int, act: Callable[[Ledger], list[Utterance]]) -> Taken:
        def job() -> Taken:
            ledger = Ledger(self._record, match_id)
            said = act(ledger)
            if ledger.written is not None:  # the reply shows it, as `simulate --jsonl` does
                ledger.mark_announced(ledger.written)
            return ledger.written, said

        return await self._on(match_id, job)
