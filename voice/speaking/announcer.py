"""The single announcer thread: utterances are spoken in order, one at a time, on their output."""

from __future__ import annotations

import math
import queue
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Protocol

import numpy as np

from phrases.render import Utterance

PA_KEPT = 16  # how many of the latest PA utterances are kept for the echo guard


class Output(Protocol):
    """Somewhere speech can be played: the hall's PA or the referee's headset."""

    @property
    def rate(self) -> int:
        """The sample rate it plays at."""

    def play(self, samples: np.ndarray, rate: int) -> None:
        """Play the samples, returning when they have been played."""


class Voice(Protocol):
    """Utterance → samples at an output's rate, e.g. voice.speaking.voicing.Voicing."""

    def audio(self, utterance: Utterance, rate: int) -> np.ndarray:
        """The utterance's audio at `rate` samples per second."""


class Speaker(Protocol):
    """What voices utterances: the live `Announcer`, or a printer of text lines."""

    def say(self, utterances: list[Utterance], done: Callable[[], None] | None = None) -> None:
        """Voice `utterances`; `done` runs once they all have been."""

    def close(self) -> None:
        """Finish what is queued."""


@dataclass(frozen=True)
class Played:
    """One utterance on the PA, from `started` to `ended` (time.monotonic(); infinite while it
    plays): what the echo guard compares the referee's phrases with."""

    text: str
    started: float
    ended: float


@dataclass
class _Batch:
    utterances: list[Utterance]
    done: Callable[[], None] | None


class Announcer:
    """Speaks queued utterances on their channel's output, never reordering or cutting one."""

    def __init__(self, voice: Voice, outputs: Mapping[str, Output]) -> None:
        self._voice = voice
        self._outputs = outputs
        self._queue: queue.Queue[_Batch | None] = queue.Queue()
        self._thread = threading.Thread(target=self._run, name="announcer", daemon=True)
        self.failures: list[str] = []
        self.failing: set[str] = set()  # the channels whose latest utterance could not be played
        self.on_pa: deque[Played] = deque(maxlen=PA_KEPT)  # the latest PA utterances, in order
        self._thread.start()

    def say(self, utterances: list[Utterance], done: Callable[[], None] | None = None) -> None:
        """Queue utterances (never blocks); `done` runs once every one of them has been played."""
        self._queue.put(_Batch(list(utterances), done))

    def close(self) -> None:
        """Speak whatever is queued, then stop the thread."""
        self._queue.put(None)  # the end
        self._thread.join()

    def _run(self) -> None:
        while (batch := self._queue.get()) is not None:
            spoken = all([self._speak(u) for u in batch.utterances])
            if spoken and batch.done is not None:
                batch.done()

    def _speak(self, utterance: Utterance) -> bool:
        try:
            output = self._outputs[utterance.channel]
            samples = self._voice.audio(utterance, output.rate)
            if utterance.channel == "pa":
                self.on_pa.append(Played(utterance.text, time.monotonic(), math.inf))
            try:
                output.play(samples, output.rate)
            finally:
                if utterance.channel == "pa":
                    self.on_pa[-1] = replace(self.on_pa[-1], ended=time.monotonic())
        except Exception as error:  # a failed output must not stop the announcements
            self.failures.append(f"{utterance.channel}: {utterance.text}: {error}")
            self.failing.add(utterance.channel)
            sys.stderr.write(f"cannot speak {utterance.text!r} on {utterance.channel}: {error}\n")
            return False
        self.failing.discard(utterance.channel)
        return True
