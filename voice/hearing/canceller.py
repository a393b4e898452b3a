"""Echo cancellation: what the PA was given, at the time it was played, taken out of the
microphone's audio before the endpointer (WebRTC's AEC3, through pywebrtc-audio)."""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any, Protocol

import numpy as np
from pywebrtc_audio import EchoCanceller as Aec3

from voice.audio_signal import resample
from voice.hearing.audio import TARGET_RATE

KEPT_SECONDS = 10.0  # the PA's sound kept to be matched with the microphone's (an echo is later)
DRIFT_SECONDS = 0.05  # a chunk stamped this far off the microphone's own clock re-anchors it


class PlayedSound:
    """What the PA has played, at 16 kHz, each piece with the time.monotonic() it started at;
    written by the announcer's thread, read by the loop's."""

    def __init__(self, kept_seconds: float = KEPT_SECONDS) -> None:
        self.kept = kept_seconds
        self._pieces: deque[tuple[float, np.ndarray]] = deque()
        self._lock = threading.Lock()

    def add(self, samples: np.ndarray, rate: int, at: float) -> None:
        """Note that `samples` (float in [-1, 1], as voiced) started playing at `at`."""
        piece = resample(np.asarray(samples, np.float32), rate, TARGET_RATE)
        with self._lock:
            self._pieces.append((at, piece))
            while self._pieces and self._ends(self._pieces[0]) < at - self.kept:
                self._pieces.popleft()

    def between(self, start: float, count: int) -> np.ndarray:
        """The `count` samples the PA played from `start` on (silence where it played nothing)."""
        out = np.zeros(count, np.float32)
        with self._lock:
            pieces = list(self._pieces)
        for at, piece in pieces:
            first = round((at - start) * TARGET_RATE)  # where the piece starts in `out`
            if first >= count or first + len(piece) <= 0:
                continue
            lo, hi = max(0, first), min(count, first + len(piece))
            out[lo:hi] += piece[lo - first : hi - first]
        return out

    @staticmethod
    def _ends(piece: tuple[float, np.ndarray]) -> float:
        return piece[0] + len(piece[1]) / TARGET_RATE


class TappedOutput:
    """An output (the PA) whose every play is noted in `played`, with the time it starts."""

    def __init__(self, output: Any, played: PlayedSound,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.output = output
        self.played = played
        self.clock = clock

    @property
    def rate(self) -> int:
        """The output's own sample rate."""
        rate: int = self.output.rate
        return rate

    def play(self, samples: np.ndarray, rate: int, cut: threading.Event | None = None) -> None:
        """Note the samples as played from now, then play them (until `cut` is set)."""
        self.played.add(samples, rate, self.clock())
        self.output.play(samples, rate, cut)


class Engine(Protocol):
    """An echo canceller's core: int16 microphone and reference samples → the microphone's
    without the echo (pywebrtc_audio.EchoCanceller, AEC3)."""

    def process(self, near: np.ndarray, far: np.ndarray) -> np.ndarray:
        """The near-end samples without the far end's echo."""


class EchoCanceller:
    """Takes the PA's echo out of 16 kHz PCM chunks: each chunk is matched with what the PA
    played while it was captured (it ends at `captured()`, time.monotonic()); AEC3 estimates
    the delay from there (the output's latency, the hall's distance) and the echo's path.

    Chunks follow one another on the microphone's own sample clock; a stamp further than
    DRIFT_SECONDS from it (a reopened stream, a sound card's drift) re-anchors that clock.
    """

    def __init__(self, played: PlayedSound, captured: Callable[[], float] = time.monotonic,
                 engine: Engine | None = None) -> None:
        self.played = played
        self.captured = captured
        self._aec = engine or Aec3(sample_rate=TARGET_RATE)
        self._end: float | None = None  # where the last chunk ended, on the microphone's clock

    def clean(self, pcm16: bytes) -> bytes:
        """The chunk without the PA's echo."""
        near = np.frombuffer(pcm16, "<i2")
        start = self._start(len(near) / TARGET_RATE)
        far = self.played.between(start, len(near))
        reference = np.clip(np.round(far * 32768.0), -32768, 32767).astype(np.int16)
        cleaned: np.ndarray = self._aec.process(near.astype(np.int16), reference)
        return cleaned.astype("<i2").tobytes()

    def _start(self, seconds: float) -> float:
        """When the chunk of `seconds` that ends now began, on the microphone's clock."""
        stamp = self.captured()
        if self._end is None or abs(self._end + seconds - stamp) > DRIFT_SECONDS:
            self._end = stamp - seconds
        start, self._end = self._end, self._end + seconds
        return start
