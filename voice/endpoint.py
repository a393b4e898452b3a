"""Where the referee stops speaking: a voice-activity detector on the 16 kHz PCM fed to vosk."""

from __future__ import annotations

import math

import numpy as np

from voice.audio import TARGET_RATE

FRAME = TARGET_RATE // 100 * 2  # bytes of one 10 ms frame of 16-bit audio
ONSET_DB = 12.0  # a frame this much louder than the noise floor starts an utterance's speech
HOLD_DB = 6.0  # once it has started, a frame this much louder is still speech (quiet consonants)
MIN_FLOOR_DB = -60.0  # the floor never goes below this (digital silence, a very quiet mic)
RISE_DB = 0.03  # per frame (3 dB/s): how fast the floor follows louder steady noise


class Endpointer:
    """Finds the end of each utterance in 16 kHz 16-bit PCM fed in chunks of any size.

    A 10 ms frame is speech when its RMS level is ONSET_DB above a noise floor that drops at
    once to a quieter frame and otherwise rises slowly, so that steady noise becomes the floor;
    within an utterance HOLD_DB above it is enough. An utterance ends once `endpoint_ms` of
    non-speech frames (rounded down to whole 10 ms frames) follow speech.
    """

    def __init__(self, endpoint_ms: int) -> None:
        if endpoint_ms < 10:
            raise ValueError(f"endpoint_ms must be at least one 10 ms frame, got {endpoint_ms}")
        self.endpoint_frames = endpoint_ms // 10
        self.floor: float | None = None  # the noise floor in dBFS, from the first frame on
        self._rest = b""  # the start of a frame, from the end of the last chunk
        self.restart()

    def restart(self) -> None:
        """Start a new utterance: forget the speech heard so far (the noise floor stays)."""
        self._speech = False
        self._quiet = 0  # non-speech frames since the last speech frame

    def feed(self, pcm16: bytes) -> int | None:
        """Take `pcm16` up to the next endpoint: the bytes of it taken there (the caller feeds
        the rest again), or None when it holds no endpoint and was all taken."""
        data = self._rest + pcm16
        count = len(data) // FRAME
        for i, level in enumerate(_levels(data[: count * FRAME])):
            if self._frame(level):
                self._rest = b""
                self.restart()
                return (i + 1) * FRAME - (len(data) - len(pcm16))
        self._rest = data[count * FRAME :]
        return None

    def _frame(self, level: float) -> bool:
        """Take one frame's level; True when it ends the utterance."""
        if self.floor is None:
            self.floor = level
        if level > self.floor + (HOLD_DB if self._speech else ONSET_DB):
            self._speech, self._quiet = True, 0
        else:
            self._quiet += 1
        self.floor = max(MIN_FLOOR_DB, min(level, self.floor + RISE_DB))
        return self._speech and self._quiet >= self.endpoint_frames


def _levels(pcm16: bytes) -> list[float]:
    """The RMS level in dBFS of each whole 10 ms frame of `pcm16` (-120 for digital silence).

    As few numpy calls as can be: they run right after vosk's, on CPU caches full of vosk's
    data, where each costs several times what it does warm."""
    frames = np.frombuffer(pcm16, "<i2").reshape(-1, FRAME // 2).astype(np.float32)
    energy = (frames * frames).sum(axis=1).tolist()
    full = FRAME // 2 * 32768.0**2  # the energy of a full-scale frame
    return [10 * math.log10(max(e / full, 1e-12)) for e in energy]
