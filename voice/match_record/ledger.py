"""A live match backed by the match record: each accepted command is on disk before it is voiced.

Several processes may drive one match (the voice loop, a control panel): each command is taken
inside one write transaction that first catches up with what the others recorded.
"""

from __future__ import annotations

from phrases.render import Utterance
from rules.command import Command
from rules.state import new_match
from voice.match_record.database import Record, RecordedEvent
from voice.session import Session


class Ledger(Session):
    """A `Session` whose accepted commands are committed to a `Record` before they are rendered."""

    def __init__(self, record: Record, match_id: int) -> None:
        loaded = record.load(match_id)
        super().__init__(loaded.match, on_accept=self._append)
        self.record = record
        self.match_id = match_id
        self.seq = loaded.last_seq  # the newest event applied to `match`
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
            return super().command(command)

    def refresh(self) -> tuple[RecordedEvent, ...]:
        """Apply the events other processes recorded since this ledger's newest; returns them."""
        if self.record.last_seq(self.match_id) == self.seq:
            return ()
        loaded = self.record.load(self.match_id)
        newer = loaded.events[self.seq :]
        self.match, self.seq = loaded.match, loaded.last_seq
        return newer

    def mark_announced(self, seq: int) -> None:
        """Note that event `seq` has been voiced, so that resuming does not voice it again."""
        self.record.mark_announced(self.match_id, seq)

    def unannounced(self) -> list[tuple[int, list[Utterance]]]:
        """The events recorded but never marked announced, each with what it had to say."""
        loaded = self.record.load(self.match_id)
        session = Session(new_match(loaded.setup))
        pending = []
        for event in loaded.events:
            said = session.command(event.command)
            if not event.announced:
                pending.append((event.seq, said))
        return pending

    def _append(self, command: Command) -> None:
        seq = self.seq + 1
        self.record.append(self.match_id, seq, command)
        self.seq = self.written = seq
