"""The table's outbox: a thread of its own pushes the record to the hall as it grows, so that a
slow, absent or restarting hall never holds up listening or announcing."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

from rules.errors import RefereeError
from voice.hall.pusher import HallUnreachable, Pusher
from voice.hall.target import Target
from voice.match_record.database import Record, RecordError
from voice.translation import N_, Line, _

POLL_SECONDS = 0.2  # the record is looked at this often for new events and heartbeats
RETRY_SECONDS = 1.0  # after the hall failed, the next try waits this long
CLOSE_SECONDS = 5.0  # closing waits this long for the last events to reach the hall


class Outbox:
    """Pushes the record at `path` to `target` until closed; `log` hears each fault once, and
    when the hall takes events again."""

    def __init__(self, path: Path, target: Target, log: Callable[[str], None]) -> None:
        self.path = path
        self.target = target
        self.log = log
        self.behind: int | None = None  # events the hall lacked after the last round (None:
        # not known, no round done)
        self._fault: str | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="outbox", daemon=True)

    def start(self) -> None:
        """Start pushing from the outbox's thread; returns at once."""
        self.log(Line(N_("pushing {path} to the hall's database {target}"), path=self.path,
                      target=self.target.shown()).shown())
        self._thread.start()

    def close(self, timeout: float = CLOSE_SECONDS) -> int | None:
        """Push once more (for `timeout` seconds at most) and stop; how many events the hall
        still lacks (None: not known, the last round did not end)."""
        self._stop.set()
        self._thread.join(timeout)
        return None if self._thread.is_alive() else self.behind

    def _run(self) -> None:
        record: Record | None = None
        pusher: Pusher | None = None
        try:
            while True:
                last = self._stop.is_set()  # a final round after closing was asked for
                try:
                    if pusher is None:  # a record not there yet is looked for again
                        record = Record.open(self.path, create=False)
                        pusher = Pusher(record, self.target)
                    wait = self._step(pusher)
                except RecordError as error:
                    wait = self._failed(error)
                if last:
                    return
                self._stop.wait(wait)
        finally:
            if pusher is not None:
                pusher.close()
            if record is not None:
                record.close()

    def _step(self, pusher: Pusher) -> float:
        """One round; how long to wait before the next."""
        try:
            pusher.round()
        except HallUnreachable as error:
            self.behind = self._count(pusher)
            return self._failed(error)
        self.behind = 0
        if self._fault is not None:
            self.log(_("the hall's database takes the record again"))
            self._fault = None
        return POLL_SECONDS

    def _failed(self, error: RefereeError) -> float:
        """Log `error` unless it is the one logged last; how long to wait before trying again."""
        if str(error) != self._fault:
            self.log(Line(N_("not pushed yet: {error}"), error=error).shown())
        self._fault = str(error)
        return RETRY_SECONDS

    def _count(self, pusher: Pusher) -> int | None:
        try:
            return pusher.behind()
        except RecordError:
            return None
