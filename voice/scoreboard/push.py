"""The watcher: it pushes each new board of a match to the match's watchers, as one text made
once per event, and polls the record for events other processes wrote.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from voice.match_record.database import RecordError
from voice.scoreboard.record_worker import Desk
from voice.scoreboard.view import server_time

POLL_SECONDS = 0.05  # how often the newest event number of each match shown is read
GONE = ""  # what a watcher's queue gets instead of a board once the record's file vanished
log = logging.getLogger("referee.serve")

State = dict[str, Any]


class Watcher:
    """Each watcher of a match has a one-slot queue holding the newest board it has not taken."""

    def __init__(self, desk: Desk, interval: float = POLL_SECONDS) -> None:
        self.desk = desk
        self.interval = interval
        self._watchers: dict[int, dict[asyncio.Queue[str], int]] = {}
        self._failed: dict[int, int] = {}  # a match that could not be read, at its newest event
        desk.subscribe(self.publish)

    @contextmanager
    def watch(self, match_id: int, seq: int) -> Iterator[asyncio.Queue[str]]:
        """A queue of the match's boards newer than event `seq`, for as long as the block runs."""
        queue: asyncio.Queue[str] = asyncio.Queue(maxsize=1)
        watchers = self._watchers.setdefault(match_id, {})
        watchers[queue] = seq
        try:
            yield queue
        finally:
            del watchers[queue]
            if not watchers:
                del self._watchers[match_id]

    def publish(self, match_id: int, every: bool = False) -> None:
        """Give the match's current board, made into text once, to each watcher behind it (or
        to `every` watcher: its heartbeat changed, not its events)."""
        watchers = self._watchers.get(match_id)
        view = self.desk.shown(match_id)
        if not watchers or view is None:
            return
        current = view.current
        text = current.text(server_time())
        for queue, seen in watchers.items():
            if seen < current.seq or every:
                _replace(queue, text)
                watchers[queue] = current.seq

    async def run(self) -> None:
        """Poll until cancelled; a record that cannot be read is logged once, and polled again."""
        fault = None
        while True:
            await asyncio.sleep(self.interval)
            try:
                await self.poll()
                fault = None
            except RecordError as error:
                if str(error) != fault:  # logged once while it lasts, not every poll
                    log.warning("cannot read the match record: %s", error)
                fault = str(error)
                if self.desk.lost:
                    self.drop_all()

    def drop_all(self) -> None:
        """Tell every watcher that its board cannot be followed (the record's file vanished)."""
        for watchers in self._watchers.values():
            for queue in watchers:
                _replace(queue, GONE)

    async def poll(self) -> None:
        """Bring each match shown up to the record; one that cannot be read is logged once."""
        for match_id, seq in (await self.desk.newest()).items():
            view = self.desk.shown(match_id)
            if view is None or view.seq == seq or self._failed.get(match_id) == seq:
                continue
            try:
                await self.desk.catch_up(match_id)
            except RecordError as error:
                log.warning("match %s cannot be shown: %s", match_id, error)
                self._failed[match_id] = seq  # reported once, not every poll
        for match_id in await self.desk.beats():
            self.publish(match_id, every=True)


def _replace(queue: asyncio.Queue[str], text: str) -> None:
    """Put `text` in the one-slot queue, dropping an older board not yet taken."""
    if queue.full():
        queue.get_nowait()
    queue.put_nowait(text)
