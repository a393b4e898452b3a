"""The live loop's heartbeat: its Liveness, handed to the record's writer."""

from __future__ import annotations

from voice.match_record.ledger import LiveLedger
from voice.match_record.liveness import Liveness


class Pulse:
    """What the loop's heartbeat says of it: listening, a lost microphone, PA or headset,
    stopped."""

    def __init__(self, ledger: LiveLedger) -> None:
        self.ledger = ledger
        self.mic_lost = False
        self.outputs_lost: set[str] = set()  # the channels whose output is lost
        self.stopped = False

    def liveness(self) -> Liveness:
        """The loop's state as its heartbeat gives it: the microphone first, then the PA."""
        if self.stopped:
            return Liveness.STOPPED
        if self.mic_lost:
            return Liveness.MIC_LOST
        if "pa" in self.outputs_lost:
            return Liveness.PA_LOST
        return Liveness.HEADSET_LOST if "headset" in self.outputs_lost else Liveness.LISTENING

    def beat(self) -> None:
        """Hand the writer the state; it writes it on change and every few seconds."""
        self.ledger.beat(self.liveness())
