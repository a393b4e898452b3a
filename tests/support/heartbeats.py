"""The heartbeats a test's code writes to the record, spied on."""

from __future__ import annotations

from typing import Any

from voice.match_record.database import Record


def beats(monkeypatch: Any) -> list[str]:
    """The heartbeats written to any record from now on, each state in turn."""
    written: list[str] = []
    beat = Record.beat

    def spy(record: Record, match_id: int, state: str) -> None:
        beat(record, match_id, state)
        written.append(state)

    monkeypatch.setattr(Record, "beat", spy)
    return written
