"""The live match's one writer: its events, marks and heartbeats reach the record from a thread of
their own, in order, so that a locked, failing or vanished record never holds up the voice loop.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from rules.command import Command
from rules.match import apply
from voice.match_record.database import Record, RecordError
from voice.match_record.liveness import Liveness
from voice.translation import N_, Line, _

ATTEMPT_MS = 250  # one write waits this long for another process's lock, then is tried again
RETRY_SECONDS = 0.25  # the pause between two tries of a write that failed
HEARTBEAT_SECONDS = 5.0  # the heartbeat is written again this often while its state holds
LATE_SECONDS = 3.0  # an event unwritten this long is late: the referee is told once
CLOSE_SECONDS = 10.0  # how long closing waits for the last writes


@dataclass
class Unwritten:
    """An accepted event not yet in the record: its number in the loop, and its command."""

    seq: int
    command: Command
    since: float = field(default_factory=time.monotonic)  # when it was accepted


class RecordWriter:
    """Writes one match's events in the order they were accepted, each exactly once.

    Should another process have recorded events of the match meanwhile, the events not yet
    written go after theirs, each still checked by the rules (`refused` lists those the rules
    now refuse, `renumbered` is set); a record whose file vanished is written back first.
    """

    def __init__(self, path: Path, match_id: int, log: Callable[[str], None]) -> None:
        self.path = path
        self.match_id = match_id
        self.log = log
        self.refused: deque[Unwritten] = deque()  # dropped: the loop tells the referee
        self.renumbered = False  # some events were recorded under other numbers
        self.rewrites = 0  # how often the vanished file has been written back
        self._fault: RecordError | None = None  # the record's latest fault, while it lasts
        self._queue: deque[Unwritten] = deque()
        self._marks: list[int] = []
        self._numbers: dict[int, int | None] = {}  # an event the record numbers otherwise than
        # the loop: its number there (None: refused)
        self._beat: Liveness | None = None  # the heartbeat state to write
        self._changes: list[Liveness] = []  # states changed to since the last round, in order
        self._beaten = -HEARTBEAT_SECONDS  # when the heartbeat was last tried
        self._released = threading.Event()  # the loop closed its own hold on a vanished file
        self._vanished = False
        self._stop_at: float | None = None  # when closing stops waiting for the record
        self._wake = threading.Condition()
        self._thread = threading.Thread(target=self._run, name="record-writer", daemon=True)
        self._record: Record | None = None
        self._opened = threading.Event()
        self._rounds = 0  # rounds of writing done

    def start(self) -> None:
        """Open the record on the writer's thread and start writing; RecordError if it cannot."""
        self._thread.start()
        self._opened.wait()
        if self._record is None:
            assert self._fault is not None
            raise RecordError(self._fault.message, self.path, **self._fault.fields)

    def append(self, seq: int, command: Command) -> None:
        """Queue event `seq`, accepted now; returns at once."""
        with self._wake:
            self._queue.append(Unwritten(seq, command))
            self._wake.notify()

    def mark(self, seq: int) -> None:
        """Queue the note that event `seq` (as the loop numbered it) has been voiced."""
        with self._wake:
            self._marks.append(seq)
            self._wake.notify()

    def beat(self, state: Liveness) -> None:
        """Write the heartbeat `state` now if it changed (each change, however brief), else
        every HEARTBEAT_SECONDS."""
        with self._wake:
            if state != self._beat:
                self._beaten = -HEARTBEAT_SECONDS
                self._changes.append(state)
            self._beat = state
            self._wake.notify()

    def late(self) -> float:
        """How long the oldest unwritten event has waited, in seconds (0 when none waits)."""
        with self._wake:
            return time.monotonic() - self._queue[0].since if self._queue else 0.0

    def idle(self) -> bool:
        """Whether every event accepted so far is in the record."""
        with self._wake:
            return not self._queue

    @property
    def vanished(self) -> bool:
        """Whether the record's file vanished and the loop must let go of its own hold on it."""
        return self._vanished and not self._released.is_set()

    def released(self) -> None:
        """The loop has closed its connection to the vanished file: it may be written back."""
        self._released.set()
        with self._wake:
            self._wake.notify()

    def flush(self, timeout: float = CLOSE_SECONDS) -> None:
        """Wait (`timeout` seconds at most) until what was queued before has been tried once."""
        with self._wake:
            target = self._rounds + 2  # the round under way may have started before the call
            self._wake.notify()
            self._wake.wait_for(lambda: self._rounds >= target, timeout)

    def adopted(self) -> None:
        """The loop has taken the match as the record has it: numbers agree again."""
        self.renumbered = False

    def close(self, timeout: float = CLOSE_SECONDS) -> list[Unwritten]:
        """Write what is queued (for `timeout` seconds at most), then close; the events that
        could not be written."""
        with self._wake:
            self._stop_at = time.monotonic() + timeout
            self._wake.notify()
        self._thread.join(timeout + CLOSE_SECONDS)
        with self._wake:
            return list(self._queue)

    def _run(self) -> None:
        try:
            self._record = Record.open(self.path, create=False)
        except RecordError as error:
            self._fault = error
        self._opened.set()
        if self._record is None:
            return
        try:
            while self._step(self._record):
                pass
        finally:
            self._record.close()

    def _step(self, record: Record) -> bool:
        """One round of writing; False once closing and nothing is left to write."""
        with self._wake:
            if not self._queue and not self._marks and not self._due() and self._stop_at is None:
                self._wake.wait(RETRY_SECONDS)
            queued = len(self._queue)  # each mark taken now is of an event queued by now
            marks, self._marks = self._marks, []
            due, changes = self._due(), []  # the states to write: a later one waits its round
            if due:
                assert self._beat is not None
                self._beaten = time.monotonic()
                changes, self._changes = self._changes or [self._beat], []
        try:
            if not self._file_kept(record, due):
                raise RecordError(N_("the match record {path} has vanished"), self.path,
                                  path=self.path)
            for state in changes:  # a state left before its round still shows
                record.beat(self.match_id, state)
            for _ in range(queued):
                self._write(record, self._queue[0])
            for seq in marks:
                number = self._numbers.get(seq, seq)
                if number is not None:  # not an event the rules refused
                    record.mark_announced(self.match_id, number)
            self._mend()
        except RecordError as error:
            with self._wake:
                self._marks[:0] = marks
                self._changes[:0] = changes
            self._failed(record, error)
            time.sleep(RETRY_SECONDS)
        with self._wake:
            self._rounds += 1
            self._wake.notify_all()
            if self._stop_at is None:
                return True
            left = bool(self._queue or self._marks) or self._due()
            return left and time.monotonic() < self._stop_at

    def _due(self) -> bool:
        return self._beat is not None and time.monotonic() >= self._beaten + HEARTBEAT_SECONDS

    def _file_kept(self, record: Record, due: bool) -> bool:
        """Whether the record's file is still the one written to, checked with each heartbeat
        (`due`): a file that vanished is written back, once the loop has let go of it (False
        till then)."""
        if not self._vanished and not (due and record.vanished()):
            return True
        self._vanished = True
        if not self._released.is_set():
            return False
        moved = record.write_back()
        self.log((Line(N_("the match record {path} had vanished: written back with every event"),
                       path=self.path) if moved is None else
                  Line(N_("the match record {path} had vanished: written back with every event; "
                          "the file found there is kept as {moved}"), path=self.path, moved=moved)
                  ).shown())
        self._vanished = False
        self._released.clear()
        self.rewrites += 1
        return True

    def _write(self, record: Record, unwritten: Unwritten) -> None:
        """Record `unwritten` after the events the record holds, if the rules still take it."""
        with record.locked(ATTEMPT_MS):
            seq = record.last_seq(self.match_id) + 1
            if self.renumbered or seq != unwritten.seq:  # another program recorded meanwhile
                match = record.load(self.match_id).match
                if apply(match, unwritten.command)[0] is match:
                    self._drop(unwritten)
                    return
                self.renumbered = True
            record.append(self.match_id, seq, unwritten.command)
        if seq != unwritten.seq:
            self._numbers[unwritten.seq] = seq
        with self._wake:
            self._queue.popleft()

    def _drop(self, unwritten: Unwritten) -> None:
        self._numbers[unwritten.seq] = None
        with self._wake:
            self._queue.popleft()
            self.refused.append(unwritten)
        self.renumbered = True
        self.log(Line(N_("not recorded: event {seq} ({kind}) is refused after what another "
                         "program recorded meanwhile"), seq=unwritten.seq,
                      kind=unwritten.command.kind).shown())

    def _failed(self, record: Record, error: RecordError) -> None:
        if str(error) != str(self._fault):
            self.log(Line(N_("not recorded yet: {error}"), error=error).shown())
        self._fault = error
        self._vanished = self._vanished or record.vanished()

    def _mend(self) -> None:
        if self._fault is not None:
            self.log(_("the match record is writable again"))
        self._fault = None
