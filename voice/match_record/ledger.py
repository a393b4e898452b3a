"""A live match backed by the match record: each accepted command is on disk before it is voiced.

Several processes may drive one match (the voice loop, a control panel): each command is taken
inside one write transaction that first catches up with what the others recorded.
"""

from __future__ import annotations

from collections.abc import Callable

from phrases.render import Utterance
from rules.command import Command, Kind
from rules.state import Match, new_match
from voice.match_record.database import Record, RecordedEvent
from voice.match_record.liveness import Liveness
from voice.match_record.writer import RecordWriter
from voice.session import Session


class Ledger(Session):
    """A `Session` whose accepted commands are committed to a `Record` before they are rendered.

    `at` is the match and its newest event number, when the caller has them already.
    """

    def __init__(self, record: Record, match_id: int, at: tuple[Match, int] | None = None) -> None:
        self.record = record
        self.match_id = match_id
        self._unsaid: dict[int, list[Utterance]] = {}  # events not marked announced: their words
        super().__init__(new_match(record.setup(match_id)[1]) if at is None else at[0],
                         on_accept=self._append)
        self.seq = self._load() if at is None else at[1]  # the newest event in `match`
        self.written: int | None = None  # the event the last command recorded, if it did

    def hear(self, text: str) -> list[Utterance]:
        """The utterances for one phrase; `written` says which event it recorded, if any."""
        self.written = None
        return super().hear(text)

    def command(self, command: Command) -> list[Utterance]:
        """Catch up with other writers, apply `command`, commit it if accepted; then render."""
        self.written = None
        with self.record.locked():
            self.refresh()
            said = super().command(command)
        return self._kept(said)

    def _kept(self, said: list[Utterance]) -> list[Utterance]:
        """`said`, kept until the event the command recorded, if any, is marked announced."""
        if self.written is not None:
            self._unsaid[self.written] = said
        return said

    def refresh(self) -> tuple[RecordedEvent, ...]:
        """Apply the events other processes recorded since this ledger's newest; returns them."""
        if self.record.last_seq(self.match_id) == self.seq:
            return ()
        newer = self.record.events(self.match_id, after=self.seq)
        for match, _ in self.record.replayed(self.match_id, self.match, newer):
            self.match, self.seq = match, self.seq + 1
        return newer

    def break_started(self) -> float | None:
        """When the break in progress began, in POSIX seconds, as the record has it.

        A break is on only after a BREAK event, and stays on only while it is in force, so its
        start is the newest BREAK recorded.
        """
        if self.match.pause is None and self.match.warm_up is None:
            return None
        kind = Kind.WARM_UP if self.match.warm_up is not None else Kind.BREAK  # timed alike
        started = self.record.break_started(self.match_id, kind)
        return None if started is None else started.timestamp()

    def mark_announced(self, seq: int) -> None:
        """Note that event `seq` has been voiced, so that resuming does not voice it again."""
        self.record.mark_announced(self.match_id, seq)
        self._unsaid.pop(seq, None)

    def beat(self, state: Liveness) -> None:
        """Write the voice loop's heartbeat for this match: its `state`, now."""
        self.record.beat(self.match_id, state)

    def unannounced(self) -> list[tuple[int, list[Utterance]]]:
        """The events never marked announced, each with what it had to say: those recorded
        before this ledger was opened and those it recorded itself."""
        return sorted(self._unsaid.items())

    def _load(self) -> int:
        """Replay the record once onto the new match, keeping what unannounced events said; the
        newest event's number."""
        events = self.record.events(self.match_id)
        steps = self.record.replayed(self.match_id, self.match, events)
        for event, (self.match, said) in zip(events, steps, strict=True):
            if not event.announced:
                self._unsaid[event.seq] = self.utterances(said)
        return events[-1].seq if events else 0

    def _append(self, command: Command) -> None:
        seq = self.seq + 1
        self.record.append(self.match_id, seq, command)
        self.seq = self.written = seq


class LiveLedger(Ledger):
    """The voice loop's `Ledger`: a command is applied and voiced at once, and recorded by a
    `RecordWriter` on its own thread, so that a locked record never holds up the match.

    The loop's own connection only reads (in WAL mode reads never wait for a writer), and only
    while every accepted command is recorded; it lets go of a vanished file when asked.
    """

    def __init__(self, record: Record, match_id: int, log: Callable[[str], None]) -> None:
        super().__init__(record, match_id)
        self._given = record  # the caller's to close
        self.writer = RecordWriter(record.path, match_id, log)
        self.writer.start()
        self._held = True  # the loop's connection is open on the record's file
        self._rewrites = 0  # the writer's write-backs this ledger has reopened after

    def command(self, command: Command) -> list[Utterance]:
        """Apply `command` and queue it for the writer if accepted; then render."""
        self.written = None
        return self._kept(Session.command(self, command))

    def refresh(self) -> tuple[RecordedEvent, ...]:
        """Follow the record once the writer has caught up: events others recorded, the match
        as the record has it after a renumbering, the file written back after it vanished."""
        if self.writer.vanished and self._held:
            self.record.close()
            self._held = False
            self.writer.released()
        if not self._held:
            if self.writer.rewrites == self._rewrites:
                return ()  # not written back yet
            self.record = Record.open(self.record.path, create=False)  # tried again if it fails
            self._rewrites = self.writer.rewrites
            self._held = True
        if not self.writer.idle():
            return ()
        if self.writer.renumbered:
            self.match = new_match(self.match.setup)
            self.seq = self._load()
            self.writer.adopted()
            return ()
        return super().refresh()

    def break_started(self) -> float | None:
        """When the break in progress began, as the record has it (None while it is let go)."""
        return super().break_started() if self._held else None

    def mark_announced(self, seq: int) -> None:
        """Queue the note that event `seq` has been voiced."""
        self.writer.mark(seq)
        self._unsaid.pop(seq, None)

    def beat(self, state: Liveness) -> None:
        """Queue the voice loop's heartbeat `state`."""
        self.writer.beat(state)

    def close(self) -> list[Command]:
        """Let the writer finish, then close the connection this ledger opened, if it did; the
        commands that could not be recorded, in order."""
        unwritten = self.writer.close()
        if self._held and self.record is not self._given:
            self.record.close()
        return [u.command for u in unwritten]

    def _append(self, command: Command) -> None:
        self.seq = self.written = self.seq + 1
        self.writer.append(self.seq, command)
