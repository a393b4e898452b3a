"""Where the referee starts and stops speaking: a voice-activity detector on the 16 kHz PCM fed
to vosk, and the gate that lets vosk decode only the utterances it finds."""

from __future__ import annotations

import math

import numpy as np

from voice.hearing.audio import pcm_bytes

DEFAULT_ENDPOINT_MS = 150  # non-speech that ends an utterance (bench/latency.py, models/README.md)
MIN_ENDPOINT_MS, MAX_ENDPOINT_MS = 50, 2000  # the endpoints a hall or a profile may set
FRAME = pcm_bytes(10)  # bytes of one 10 ms frame
ONSET_DB = 12.0  # a frame this much louder than the noise floor starts an utterance's speech
HOLD_DB = 6.0  # once it has started, a frame this much louder is still speech (quiet consonants)
MIN_FLOOR_DB = -60.0  # the floor never goes below this (digital silence, a very quiet mic)
RISE_DB = 0.03  # per frame (3 dB/s): how fast the floor follows louder steady noise
FIRST_MS = 1000  # the noise floor starts at the first frame, which may be speech: see Gate

_FULL = FRAME // 2 * 32768.0**2  # the energy of a full-scale frame: 0 dBFS
_ONSET, _HOLD, _RISE = (10 ** (db / 10) for db in (ONSET_DB, HOLD_DB, RISE_DB))  # factors
_MIN_FLOOR = 10 ** (MIN_FLOOR_DB / 10) * _FULL
_SILENCE = 10 ** (-120 / 10) * _FULL  # the floor that digital silence gives the first frame


class Endpointer:
    """Finds where each utterance's speech starts and ends in 16 kHz 16-bit PCM fed in chunks of
    any size.

    A 10 ms frame is speech when its RMS level is ONSET_DB above a noise floor that drops at
    once to a quieter frame and otherwise rises slowly, so that steady noise becomes the floor;
    within an utterance HOLD_DB above it is enough. An utterance ends once `endpoint_ms` of
    non-speech frames (rounded down to whole 10 ms frames) follow speech. Levels are compared
    as frame energies (no logarithm per frame): the same decisions, for less CPU.
    """

    def __init__(self, endpoint_ms: int) -> None:
        if endpoint_ms < 10:
            raise ValueError(f"endpoint_ms must be at least one 10 ms frame, got {endpoint_ms}")
        self.endpoint_frames = endpoint_ms // 10
        self.endpoint_ms = self.endpoint_frames * 10  # as it acts: in whole frames
        self._floor: float | None = None  # the noise floor's frame energy, from the first frame
        self._rest = b""  # the start of a frame, from the end of the last chunk
        self.restart()

    @property
    def floor(self) -> float | None:
        """The noise floor in dBFS (None before the first whole frame)."""
        return None if self._floor is None else 10 * math.log10(self._floor / _FULL)

    @property
    def speaking(self) -> bool:
        """True once the utterance in progress has had speech (until its end, or a restart)."""
        return self._speech

    def restart(self) -> None:
        """Start a new utterance: forget the speech heard so far (the noise floor stays)."""
        self._speech = False
        self._quiet = 0  # non-speech frames since the last speech frame

    def feed(self, pcm16: bytes) -> int | None:
        """Take `pcm16` up to the next endpoint: the bytes of it taken there (the caller feeds
        the rest again), or None when it holds no endpoint and was all taken."""
        data = self._rest + pcm16
        count = len(data) // FRAME
        self._rest = data[count * FRAME :]
        energies = _energies(data[: count * FRAME])
        if not energies:
            return None
        if self._floor is None:
            self._floor = max(energies[0], _SILENCE)
        floor, speech, quiet = self._floor, self._speech, self._quiet
        for i, energy in enumerate(energies):
            if energy > floor * (_HOLD if speech else _ONSET):
                speech, quiet = True, 0
            else:
                quiet += 1
            floor = max(_MIN_FLOOR, min(energy, floor * _RISE))
            if speech and quiet >= self.endpoint_frames:
                self._floor, self._rest = floor, b""
                self.restart()
                return (i + 1) * FRAME - (len(data) - len(pcm16))
        self._floor, self._speech, self._quiet = floor, speech, quiet
        return None


def _energies(pcm16: bytes) -> list[float]:
    """The energy (sum of squared samples) of each whole 10 ms frame of `pcm16`.

    Two numpy calls: they run right after vosk's, on CPU caches full of vosk's data, where each
    costs several times what it does warm."""
    frames = np.frombuffer(pcm16, "<i2").astype(np.float32).reshape(-1, FRAME // 2)
    energies: list[float] = np.einsum("ij,ij->i", frames, frames).tolist()
    return energies


class Gate:
    """Which audio vosk must decode: each utterance from `preroll_ms` before its speech starts
    to its endpoint. The quiet between utterances is held back and never decoded (with
    `preroll_ms` None, nothing is held back: vosk decodes all the audio).

    Audio that starts with speech sets the floor to speech, so speech is found only once the
    floor has dropped to a quieter frame, maybe late in the word: in the first FIRST_MS of audio
    everything is kept until speech is found, and vosk decodes it from the start.
    """

    def __init__(self, endpoint_ms: int, preroll_ms: int | None) -> None:
        self.endpointer = Endpointer(endpoint_ms)
        self.preroll = None if preroll_ms is None else pcm_bytes(preroll_ms)
        self._held = b""  # the latest quiet, up to the pre-roll: the next utterance's start
        self._carry = b""  # audio after an endpoint: the next feed starts with it
        self._first = pcm_bytes(FIRST_MS)  # bytes of the first audio still to come
        self._going = False  # an utterance has begun and not yet ended
        self.lead_in = 0  # bytes of quiet held before the chunk the utterance in progress began
        # in: the pre-roll, or less where the last utterance ended less than that before it

    def feed(self, pcm16: bytes) -> tuple[bytes, bool]:
        """Take a chunk: the audio to decode now, and whether an utterance ends after it.

        At an endpoint, the rest of the chunk waits for the next feed, so each feed ends one
        utterance at most (chunks are to be shorter than the endpoint, as a sound card's are).
        """
        data, self._carry = self._carry + pcm16, b""
        self._first = max(0, self._first - len(pcm16))
        end = self.endpointer.feed(data)
        if end is not None:
            data, self._carry = data[:end], data[end:]
        elif self.preroll is not None and not self.endpointer.speaking:
            self._held += data
            if not self._first:
                self._held = self._held[max(0, len(self._held) - self.preroll) :]
            return b"", False
        if not self._going:
            self.lead_in, self._going = len(self._held), True
        audio, self._held = self._held + data, b""
        self._going = end is None
        return audio, end is not None

    @property
    def waiting(self) -> int:
        """Bytes fed after the last endpoint, waiting to start the next feed's audio."""
        return len(self._carry)

    def finish(self) -> bytes:
        """End the utterance in progress: the audio of it not yet decoded ("" if none began)."""
        audio, _ = self.feed(b"")
        self.drop()
        return audio

    def restart(self) -> None:
        """The utterance has ended otherwise (vosk's own endpoint): start looking for the next."""
        self.endpointer.restart()
        self._going = False

    def drop(self) -> None:
        """Forget the audio held back and the utterance in progress."""
        self._held = self._carry = b""
        self.restart()
