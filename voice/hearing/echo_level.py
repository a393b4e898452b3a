"""How loud the PA's echo is in the microphone, predicted from what the PA played: a phrase no
louder than that could be the echo's residue, not the referee (a double-talk check)."""

from __future__ import annotations

from collections import deque
from itertools import islice

import numpy as np

from voice.hearing.audio import TARGET_RATE

FRAME = TARGET_RATE // 100  # samples in 10 ms
KEPT_FRAMES = 3000  # 30 s of frames: longer than any phrase and the echo before it
BLOCK_FRAMES = 50  # the echo's gain is measured over 0.5 s blocks the PA sounds through
SOUNDING_SHARE = 0.8  # of a block's frames in which the PA plays, for its gain to be measured
KEPT_GAINS = 100  # the latest blocks' gains, whose median is the echo's gain ...
FEW_GAINS = 8  # ... once there are this many; before, their least (the referee's voice only adds)
LATE_FRAMES = 25  # the echo reaches the microphone within 250 ms (latency, distance) ...
TAIL_FRAMES = 50  # ... and dies away over the next 500 ms of reverberation
SPREAD_FRAMES = 3  # once its delay is measured, the echo is looked for this many frames about it
DECAY_DB = 0.6  # per frame (60 dB a second): how fast the predicted tail falls
MARGIN_DB = 3.0  # a phrase this much louder than the predicted echo is the referee's
CLEAR_DB = 6.0  # ... and this much louder, the microphone's own audio is mostly his voice
LOUD_SHARE = 0.9  # a phrase's level and the echo's: this quantile of their frames' energies
KEPT_VOICES = 20  # the referee's latest phrases' levels, whose median is his voice's
QUIET_DB = 15.0  # a phrase this much under his voice is not his (he speaks on a headset)


class EchoLevel:
    """Frame energies of the microphone and of what the PA played, on the microphone's clock;
    the echo's gain (microphone over PA energy) learned from blocks the PA sounds through, as
    the median of the latest (the referee's voice over a few of them does not move it); of the
    first few, the least: his voice over an announcement raises only the blocks it is in. A gain
    `known` from an earlier session counts as one of them, so that first announcement is not
    judged by blocks that all hold his voice. Also how loud the referee's phrases are, to tell
    the echo's residue, far quieter, from him."""

    def __init__(self, known: float | None = None) -> None:
        self._mic: deque[float] = deque(maxlen=KEPT_FRAMES)
        self._far: deque[float] = deque(maxlen=KEPT_FRAMES)
        self._gains: deque[float] = deque(maxlen=KEPT_GAINS)
        if known is not None:
            self._gains.append(known)
        self.measured = 0  # blocks measured in this session
        self._voice: deque[float] = deque(maxlen=KEPT_VOICES)  # his phrases' levels
        self._block: list[tuple[float, float]] = []  # (microphone, PA) energies of this block

    def note(self, near: np.ndarray, far: np.ndarray) -> None:
        """Note a chunk of microphone samples and what the PA played meanwhile (int16, the
        same length)."""
        mic, played = frame_energies(near), frame_energies(far)
        self._mic.extend(mic)
        self._far.extend(played)
        for pair in zip(mic, played, strict=True):
            self._block.append(pair)
            if len(self._block) == BLOCK_FRAMES:
                self._measure()

    @property
    def gain(self) -> float | None:
        """The echo's energy over the PA's, once a block has been measured."""
        if not self._gains:
            return None
        share = 0.5 if len(self._gains) >= FEW_GAINS else 0.0
        return float(np.quantile(list(self._gains), share))

    @property
    def learned(self) -> float | None:
        """The gain, once this session has measured enough blocks for it to be kept for the
        next (a median of its own blocks, not a known gain's and a few of his voice's)."""
        return self.gain if self.measured >= FEW_GAINS else None

    def masks(self, seconds: float) -> bool:
        """Whether the phrase in the last `seconds` of the microphone's audio is no louder (by
        MARGIN_DB) than the echo the PA's sound predicts there: then it may be the echo alone."""
        loud = self._echo(seconds)
        return loud is not None and loud > 0 and self._level(seconds) < loud * 10 ** (
            MARGIN_DB / 10)

    def clear_of_echo_before(self, seconds: float, before: float) -> bool:
        """Whether the phrase in the last `seconds` is CLEAR_DB louder than the echo the PA's
        sound predicts over the `before` seconds before it: his voice at its level would have
        been clear of the echo there (True while the echo's gain is not known)."""
        loud = self._echo(before, seconds)
        return loud is None or self._level(seconds) >= loud * 10 ** (CLEAR_DB / 10)

    def clear_of_echo(self, seconds: float) -> bool:
        """Whether the phrase in the last `seconds` is CLEAR_DB louder than the echo the PA's
        sound predicts there (False while the echo's gain is not known)."""
        loud = self._echo(seconds)
        return loud is not None and self._level(seconds) >= loud * 10 ** (CLEAR_DB / 10)

    def voiced(self, seconds: float, skip: float, floor: float = 0.0) -> int:
        """How many frames of the microphone's `seconds` that ended `skip` seconds ago (a word)
        are each CLEAR_DB louder than the echo the PA's sound predicts in them, and at least
        `floor` (a frame energy): voice over the echo (0 while the echo's gain is not known)."""
        echo = self._echoes(seconds, skip)
        if echo is None:
            return 0
        first, end = self._span(seconds, skip)
        heard = np.array(self._mic)[first:end]
        return int(np.sum((heard >= echo * 10 ** (CLEAR_DB / 10)) & (heard >= floor)))

    def _echo(self, seconds: float, skip: float = 0.0) -> float | None:
        """The echo the PA's sound predicts in the microphone's `seconds` that ended `skip`
        seconds ago: the LOUD_SHARE quantile of its frame energies; None while its gain is not
        known."""
        echo = self._echoes(seconds, skip)
        return None if echo is None else float(np.quantile(echo, LOUD_SHARE))

    def _echoes(self, seconds: float, skip: float) -> np.ndarray | None:
        """The echo's energy the PA's sound predicts in each frame of the microphone's
        `seconds` that ended `skip` seconds ago; None while its gain is not known."""
        first, end = self._span(seconds, skip)
        gain = self.gain
        if gain is None or end <= first:
            return None
        far = np.array(self._far)[max(0, first - LATE_FRAMES - TAIL_FRAMES) : end]
        return gain * _predicted(far, self.delay)[first - end :]

    def note_referee(self, seconds: float) -> None:
        """Note the phrase in the last `seconds` as the referee's: how loud his voice is."""
        if self._mic:
            self._voice.append(self._level(seconds))

    def under_voice(self, seconds: float) -> bool:
        """Whether the phrase in the last `seconds` is QUIET_DB under the referee's phrases
        noted so far (their median): not his voice (False before any is noted)."""
        if not self._voice or not self._mic:
            return False
        return self._level(seconds) < float(np.median(self._voice)) * 10 ** (-QUIET_DB / 10)

    def _level(self, seconds: float) -> float:
        """The phrase in the last `seconds` of the microphone's audio: its LOUD_SHARE quantile
        of frame energies."""
        first, end = self._span(seconds, 0.0)
        return float(np.quantile(np.array(self._mic)[first:end], LOUD_SHARE))

    def _span(self, seconds: float, skip: float) -> tuple[int, int]:
        """The frames (first, end) of the microphone's `seconds` that ended `skip` seconds ago:
        at least one, if any were noted that long ago."""
        end = max(0, len(self._mic) - round(skip * 100))
        return max(0, end - max(1, round(seconds * 100))), end

    @property
    def delay(self) -> int | None:
        """The frames the echo comes after the PA's sound: the lag (up to LATE_FRAMES) at which
        the microphone's loudness follows the PA's best; None until this session has measured
        FEW_GAINS blocks."""
        if self.measured < FEW_GAINS:
            return None
        mic, far = (np.log10(np.array(side) + 1.0) for side in (self._mic, self._far))
        count = len(mic) - LATE_FRAMES
        played = far[:count] - far[:count].mean()
        if count < BLOCK_FRAMES or not played.any():
            return None
        scores = []
        for lag in range(LATE_FRAMES + 1):
            heard = mic[lag : lag + count] - mic[lag : lag + count].mean()
            scores.append(float(played @ heard) / (float(np.linalg.norm(heard)) or 1.0))
        return int(np.argmax(scores))

    def sounded(self, seconds: float, skip: float = 0.0) -> bool:
        """Whether the PA played in the `seconds` of audio that ended `skip` seconds ago, or
        within the echo's reach (its latency and reverberation) before them."""
        end = len(self._far) - round(skip * 100)
        start = max(0, end - round(seconds * 100) - LATE_FRAMES - TAIL_FRAMES)
        return any(energy > 0 for energy in islice(self._far, start, max(start, end)))

    def _measure(self) -> None:
        mic, far = (np.array(side) for side in zip(*self._block, strict=True))
        self._block = []
        if np.mean(far > 0) >= SOUNDING_SHARE:
            self._gains.append(float(mic.sum() / far.sum()))
            self.measured += 1


def frame_energies(samples: np.ndarray) -> list[float]:
    """The mean square of each whole 10 ms frame of int16 `samples`."""
    count = len(samples) // FRAME * FRAME
    frames = samples[:count].astype(np.float64).reshape(-1, FRAME)
    energies: list[float] = np.mean(frames**2, axis=1).tolist()
    return energies


def _predicted(far: np.ndarray, delay: int | None = None) -> np.ndarray:
    """The echo's energy in each frame, for a PA energy of 1 at the microphone: the loudest
    the PA played `delay` ± SPREAD_FRAMES frames before (unknown: in the last LATE_FRAMES),
    then falling by DECAY_DB a frame over TAIL_FRAMES.

    >>> [round(float(x), 2) for x in _predicted(np.array([1.0] + [0.0] * 27))][-3:]
    [1.0, 0.87, 0.76]
    >>> [round(float(x), 2) for x in _predicted(np.array([1.0] + [0.0] * 9), delay=5)]
    [0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.87]
    """
    first, last = (0, LATE_FRAMES) if delay is None else (
        max(0, delay - SPREAD_FRAMES), delay + SPREAD_FRAMES)
    out = np.zeros(len(far))
    for lag in range(first, min(last + TAIL_FRAMES + 1, len(far))):
        weight = 10 ** (-DECAY_DB * max(0, lag - last) / 10)
        out[lag:] = np.maximum(out[lag:], far[: len(far) - lag] * weight)
    return out
