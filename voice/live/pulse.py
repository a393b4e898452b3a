"""The live loop's heartbeat: its Liveness, handed to the record's writer."""

from __future__ import annotations

from collections.abc import Callable

from voice.match_record.ledger import LiveLedger
from voice.match_record.liveness import Liveness


class Pulse:
    """What the loop's heartbeat says of it: listening, a lost microphone or headset, stopped."""

    def __init__(self, ledger: LiveLedger, headset_lost: Callable[[], bool]) -> None:
        self.ledger = ledger
        self.headset_lost = headset_lost  # whether the headset's latest utterance failed
        self.mic_lost = False
        self.stopped = False

    def liveness(self) -> Liveness:
        """The loop's state as its heartbeat gives it; a lost microphone comes first."""
        if self.stopped:
            return Liveness.STOPPED
        if self.mic_lost:
            return Liveness.MIC_LOST
        return Liveness.HEADSET_LOST if self.headset_lost() else Liveness.LISTENING

    def beat(self) -> None:
        """Hand the writer the state; it writes it on change and every few seconds."""
        self.ledger.beat(self.liveness())
