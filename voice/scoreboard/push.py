"""The watcher: it polls the record of every watched match and pushes each newer scoreboard state
to the match's watchers, whichever process recorded the event.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from voice.match_record.database import RecordError
from voice.scoreboard.record_worker import Desk

POLL_SECONDS = 0.05  # how often the newest event number of each watched match is read
log = logging.getLogger("referee.serve")

State = dict[str, Any]


class Watcher:
    """Each watcher of a match has a one-slot queue holding the newest state it has not taken."""

    def __init__(self, desk: Desk, interval: float = POLL_SECONDS) -> None:
        self.desk = desk
        self.interval = interval
        self._watchers: dict[int, dict[asyncio.Queue[State], int]] = {}

    @contextmanager
    def watch(self, match_id: int, seq: int) -> Iterator[asyncio.Queue[State]]:
        """A queue of the match's states newer than event `seq`, for as long as the block runs."""
        queue: asyncio.Queue[State] = asyncio.Queue(maxsize=1)
        watchers = self._watchers.setdefault(match_id, {})
        watchers[queue] = seq
        try:
            yield queue
        finally:
            del watchers[queue]
            if not watchers:
                del self._watchers[match_id]

    async def run(self) -> None:
        """Poll until cancelled; a record that cannot be read is logged, and polled again."""
        while True:
            await asyncio.sleep(self.interval)
            try:
                await self.poll()
            except RecordError as error:
                log.warning("cannot read the match record: %s", error)

    async def poll(self) -> None:
        """Push the current state to each watcher that has not seen the newest event; a match
        whose record cannot be read is logged once and skipped."""
        if not self._watchers:
            return
        newest = await self.desk.last_seqs(list(self._watchers))
        for match_id, seq in newest.items():
            watchers = self._watchers.get(match_id, {})
            if all(seen == seq for seen in watchers.values()):
                continue
            try:
                state = await self.desk.state(match_id)
            except RecordError as error:
                log.warning("match %s cannot be shown: %s", match_id, error)
                watchers.update(dict.fromkeys(watchers, seq))  # reported once, not every poll
                continue
            for queue, seen in watchers.items():
                if seen != state["seq"]:
                    _replace(queue, state)
                    watchers[queue] = state["seq"]


def _replace(queue: asyncio.Queue[State], state: State) -> None:
    """Put `state` in the one-slot queue, dropping an older state not yet taken."""
    if queue.full():
        queue.get_nowait()
    queue.put_nowait(state)
