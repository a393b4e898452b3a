"""Echo cancellation: what the PA was given, at the time it was played, taken out of the
microphone's audio before the endpointer (WebRTC's AEC3, through pywebrtc-audio), once the
PA is heard in the microphone at all."""

from __future__ import annotations

import math
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any, Protocol

import numpy as np
from pywebrtc_audio import EchoCanceller as Aec3

from voice.audio_signal import from_pcm16_bytes, resample, to_pcm16, to_pcm16_bytes
from voice.hearing.audio import TARGET_RATE
from voice.hearing.echo_level import FRAME, EchoLevel, frame_energies

KEPT_SECONDS = 10.0  # the PA's sound kept to be matched with the microphone's (an echo is later)
DRIFT_SECONDS = 0.05  # a chunk stamped this far off the microphone's own clock re-anchors it
HEARD_DB = 6.0  # the PA is heard when the microphone while it plays is this much louder ...
QUIET_SHARE = 0.2  # ... than its quiet moments (this share of 10 ms frames, the quietest) while
# the PA is silent: its noise
PLAYING_SHARE = 0.5  # while it plays: its median frame (the echo's start and the PA's pauses
# are quiet; the referee's voice over less than half of what the PA says does not count)
LATE_SECONDS = 0.25  # the PA's echo reaches the microphone within this (latency, distance)
SILENT_SECONDS = 1.0  # this long after the PA stopped, its echo has died away
KEPT_FRAMES = 3000  # the frames (30 s) each side of the comparison is made of
LEAST_FRAMES = 30  # frames each side needs before the comparison is made (until then: heard)
VOICE_FRAMES = 5  # frames (50 ms) of a chunk with his voice over the echo: he speaks over the PA
SPEECH_DB = 12.0  # ... each this much over the microphone's noise (the endpointer's ONSET_DB)


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

    def stop(self, at: float) -> None:
        """Note that what was playing at `at` stopped there (cut short): the rest was never
        heard."""
        with self._lock:
            self._pieces = deque(
                (start, piece[: round((at - start) * TARGET_RATE)] if start <= at else piece)
                for start, piece in self._pieces)

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
        """Note the samples as played from now, then play them (until `cut` is set: then
        noted as stopped where they were cut)."""
        self.played.add(samples, rate, self.clock())
        self.output.play(samples, rate, cut)
        if cut is not None and cut.is_set():
            self.played.stop(self.clock())


class Audibility:
    """Whether the PA is heard in the microphone: its median frame while the PA plays is
    HEARD_DB louder than its quiet moments while the PA is silent (its own noise). Not before
    the PA first plays; from then on, until both are known, heard. Once judged not heard, its
    quiet moments while it plays must be as loud too: the referee talking over most of an
    announcement raises the median, the echo of a PA turned up every frame."""

    def __init__(self) -> None:
        self._playing: deque[float] = deque(maxlen=KEPT_FRAMES)  # microphone frame energies
        self._silent: deque[float] = deque(maxlen=KEPT_FRAMES)
        self._since = np.inf  # seconds since the reference last had sound
        self.heard = False  # True when the PA's echo is (or may be) in the microphone
        self.noise: float | None = None  # the microphone's frame energy while the PA is silent

    def note(self, near: np.ndarray, far: np.ndarray) -> None:
        """Note a chunk of microphone samples and what the PA played meanwhile."""
        sounding = [energy > 0 for energy in frame_energies(far)]
        for energy, sound in zip(frame_energies(near), sounding, strict=True):
            self._since = 0.0 if sound else self._since + FRAME / TARGET_RATE
            if self._since <= LATE_SECONDS:
                self._playing.append(energy)
            elif self._since >= SILENT_SECONDS:
                self._silent.append(energy)
        if len(self._silent) >= LEAST_FRAMES:
            self.noise = float(np.quantile(list(self._silent), QUIET_SHARE))
        if self.noise is None or len(self._playing) < LEAST_FRAMES:
            self.heard = bool(self._playing)
            return
        shares = [PLAYING_SHARE] if self.heard else [PLAYING_SHARE, QUIET_SHARE]
        self.heard = bool(np.all(np.quantile(list(self._playing), shares)
                                 > self.noise * 10 ** (HEARD_DB / 10)))


class Engine(Protocol):
    """An echo canceller's core: float32 microphone and reference samples (full scale 1, the
    reference maybe beyond) → the microphone's without the echo (pywebrtc_audio's AEC3)."""

    def process(self, near: np.ndarray, far: np.ndarray) -> np.ndarray:
        """The near-end samples without the far end's echo."""


class EchoCanceller:
    """Takes the PA's echo out of 16 kHz PCM chunks: each chunk is matched with what the PA
    played while it was captured (it ends at `captured()`, time.monotonic()); AEC3 estimates
    the delay from there (the output's latency, the hall's distance) and the echo's path.

    Chunks follow one another on the microphone's own sample clock; a stamp further than
    DRIFT_SECONDS from it (a reopened stream, a sound card's drift) re-anchors that clock.
    While the PA is not heard in the microphone, the chunk passes untouched: AEC3, knowing no
    echo path, would take the referee's voice for the PA's (it still learns meanwhile). For
    the same reason AEC3 is given the PA's sound at its echo's level in the microphone: until
    it has learnt the echo's path (in a reverberant hall, maybe never) it takes the echo to be
    as loud as what it is given, and cuts his voice over an announcement down to that.
    """

    def __init__(self, played: PlayedSound, captured: Callable[[], float] = time.monotonic,
                 engine: Engine | None = None, known_gain: float | None = None) -> None:
        self.played = played
        self.captured = captured
        self._aec = engine or Aec3(sample_rate=TARGET_RATE)
        self._end: float | None = None  # where the last chunk ended, on the microphone's clock
        self.audibility = Audibility()
        self.level = EchoLevel(known_gain)  # how loud the PA's echo in the microphone is
        self._raw = bytearray()  # the microphone's latest KEPT_SECONDS, as it came

    def clean(self, pcm16: bytes) -> bytes:
        """The chunk without the PA's echo."""
        near = np.frombuffer(pcm16, "<i2")
        start = self._start(len(near) / TARGET_RATE)
        far = self.played.between(start, len(near))
        reference = to_pcm16(far)
        cleaned: np.ndarray = self._aec.process(
            from_pcm16_bytes(pcm16), (far * self.reference_scale).astype(np.float32))
        self.audibility.note(near, reference)
        self.level.note(near, reference)
        self._raw += pcm16
        del self._raw[: max(0, len(self._raw) - round(KEPT_SECONDS * TARGET_RATE) * 2)]
        return to_pcm16_bytes(cleaned) if self.audibility.heard else pcm16

    @property
    def reference_scale(self) -> float:
        """What the PA's sound is scaled by for AEC3: to the level of its echo in the
        microphone, as measured (above the sound as played when the echo is louder than it);
        1 until measured."""
        gain = self.level.gain
        return 1.0 if gain is None else math.sqrt(gain)

    def uncancelled(self, seconds: float, skip: float = 0.0) -> bytes | None:
        """The microphone's audio as it came, the `seconds` of it that ended `skip` seconds
        ago, when the canceller took the PA's echo out of it (the PA heard in the microphone
        and sounding in it or its echo's reach before it); otherwise None."""
        if not self.audibility.heard or not self.level.sounded(seconds, skip):
            return None
        end = len(self._raw) - round(skip * TARGET_RATE) * 2
        start = max(0, end - round(seconds * TARGET_RATE) * 2)
        return bytes(self._raw[start:end]) if end > start else None

    def louder(self, seconds: float) -> bool:
        """Whether the phrase in the last `seconds` was louder than the PA's echo there, as its
        sound predicts it (or the echo's level is not known yet)."""
        return not self.level.masks(seconds)

    def voice_over(self, seconds: float) -> bool:
        """Whether the referee speaks over the PA in the last `seconds`: the PA heard in the
        microphone and sounding there, VOICE_FRAMES of its frames his voice over the echo
        (EchoLevel.voiced: not while the echo's gain is not known) and SPEECH_DB over the
        microphone's noise (not before that is known)."""
        level, noise = self.level, self.audibility.noise
        return (self.audibility.heard and noise is not None and level.sounded(seconds)
                and level.voiced(seconds, 0.0, noise * 10 ** (SPEECH_DB / 10)) >= VOICE_FRAMES)

    def masks(self, seconds: float) -> bool:
        """Whether the phrase in the last `seconds` may be the PA's echo alone: the PA is heard
        in the microphone, and the phrase is no louder than the echo its sound predicts."""
        return self.audibility.heard and self.level.masks(seconds)

    def _start(self, seconds: float) -> float:
        """When the chunk of `seconds` that ends now began, on the microphone's clock."""
        stamp = self.captured()
        if self._end is None or abs(self._end + seconds - stamp) > DRIFT_SECONDS:
            self._end = stamp - seconds
        start, self._end = self._end, self._end + seconds
        return start
