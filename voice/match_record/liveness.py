"""The voice loop's heartbeat in the record: its states, and the latest one written."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Liveness(StrEnum):
    """The voice loop's state as its heartbeat gives it (the panel and the board show it)."""

    LISTENING = "listening"
    MIC_LOST = "mic_lost"
    PA_LOST = "pa_lost"
    HEADSET_LOST = "headset_lost"
    STOPPED = "stopped"


@dataclass(frozen=True)
class Heartbeat:
    """The voice loop's latest heartbeat for a match: its state and when it was written."""

    state: Liveness
    at: str  # ISO 8601, UTC
