"""An utterance as an output plays it: the speech with its pauses, a chime when it is
non-routine, at one loudness, at the output's sample rate."""

from __future__ import annotations

import functools
from typing import Protocol

import numpy as np

from phrases.bank import bank
from phrases.render import Utterance
from rules.errors import RefereeError
from voice.audio_signal import resample
from voice.speaking.chime import bell
from voice.speaking.loudness import PEAK_DBTP, TARGET_LUFS, normalise_loudness
from voice.translation import N_

PAUSE_MS = 250  # the silence between surname and number (a {pause} in the phrase bank)
MAX_PAUSE_MS = 2000
MIN_TARGET, MAX_TARGET = -40.0, -10.0  # LUFS: from a quiet room to a loud hall


def kept_size() -> int:
    """How many voiced utterances are kept: one per entry of the bank, the texts that repeat
    (about 120, from a few kB to half a megabyte each at 48 kHz)."""
    phrases = bank()
    return len(phrases.templates) + len(phrases.prompts)


class Speech(Protocol):
    """Text → (int16 samples, rate), e.g. voice.speaking.synthesis.Synthesiser."""

    def render(self, text: str) -> tuple[np.ndarray, int]:
        """The speech for `text`."""


class VoicingError(RefereeError, ValueError):
    """A pause, loudness target or peak ceiling the PA cannot use; names which."""


class Voicing:
    """Utterances as audio: pieces `pause_ms` apart, the chime first when asked for, at `target`
    LUFS with the true peak at most `ceiling` dBTP, at the output's rate."""

    def __init__(
        self, speech: Speech, pause_ms: int = PAUSE_MS, chime: bool = True,
        target: float = TARGET_LUFS, ceiling: float = PEAK_DBTP, cache: int | None = None,
    ) -> None:
        if not 0 <= pause_ms <= MAX_PAUSE_MS:
            raise VoicingError(N_("the pause must be 0 to {most} ms, not {pause_ms}"),
                               most=MAX_PAUSE_MS, pause_ms=pause_ms)
        if not MIN_TARGET <= target <= MAX_TARGET:
            raise VoicingError(N_("the loudness target must be {low:g} to {high:g} LUFS, not "
                                  "{target}"), low=MIN_TARGET, high=MAX_TARGET, target=target)
        if not target < ceiling <= 0:
            raise VoicingError(N_("the true-peak ceiling must be above the target and at most 0 "
                                  "dBTP, not {ceiling}"), ceiling=ceiling)
        self.speech = speech
        self.pause_ms = pause_ms
        self.chime = chime
        self.target = target
        self.ceiling = ceiling
        self._kept = functools.lru_cache(maxsize=kept_size() if cache is None else cache)(
            self._fresh)

    def audio(self, utterance: Utterance, rate: int) -> np.ndarray:
        """The utterance at `rate` samples per second: float32, read-only (it may be kept).

        One that says points (a score) is not kept: its text hardly ever comes again, while its
        pieces, the names and the numbers, stay in the synthesiser's cache."""
        voiced = self._kept if utterance.points is None else self._fresh
        tone = not utterance.text  # a chime with no words is played whatever `chime` says
        return voiced(utterance.spoken_pieces(), utterance.chime and (self.chime or tone), rate)

    def cache_info(self) -> functools._CacheInfo:
        """How many utterances are kept (currsize, at most maxsize), and how often one was."""
        return self._kept.cache_info()

    def _fresh(self, pieces: tuple[str, ...], chimed: bool, rate: int) -> np.ndarray:
        if not any(pieces):  # a tone: the chime alone, levelled as speech is
            out = np.asarray(normalise_loudness(bell(rate), rate, self.target, self.ceiling),
                             dtype=np.float32)
            out.flags.writeable = False
            return out
        said = [self.speech.render(piece) for piece in pieces]
        speech_rate = said[0][1]
        pause = np.zeros(speech_rate * self.pause_ms // 1000)
        parts: list[np.ndarray] = []
        for index, (samples, _) in enumerate(said):
            if index:
                parts.append(pause)
            # espeak-ng ends each text with 300 ms of silence (exact zeros); within an
            # utterance only the pause should separate the pieces.
            last = index == len(said) - 1
            end = len(samples) if last else int(np.flatnonzero(samples).max(initial=0)) + 1
            parts.append(samples[:end] / 32768.0)
        # Measured and levelled at the speech's own rate, which costs half as much as at 48 kHz:
        # resampling keeps the band-limited signal, its loudness and its true peak.
        level = (speech_rate, self.target, self.ceiling)
        sections = [normalise_loudness(np.concatenate(parts), *level)]
        if chimed:
            sections.insert(0, normalise_loudness(bell(speech_rate), *level))
        out = resample(np.concatenate(sections), speech_rate, rate)
        out.flags.writeable = False
        return out
