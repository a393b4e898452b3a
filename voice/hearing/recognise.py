"""Speech recognition with vosk at 16 kHz, optionally restricted to a grammar of phrases."""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import vosk

from voice.audio_signal import resample, to_pcm16_bytes
from voice.hearing.audio import TARGET_RATE, chunked
from voice.hearing.model import ModelError, ModelInfo, check_model
from voice.hearing.understanding import UNKNOWN
from voice.translation import N_, Foreign

_UNKNOWN_SPELLINGS = ("[unk]", "<unk>", "<UNK>")  # vosk models use one of these
READINGS = 3  # the likeliest readings of an utterance vosk gives (its n-best list)
CLOSE_NATS = 3.0  # another reading this close to the best (e^-3: 1/20 as likely) is a rival
# An unknown word shorter than this (vosk's shortest, one 30 ms frame, and the next) is no
# speech: a click, or the echo's residue just before the referee's phrase (bench/echo.py).
MIN_UNKNOWN_SECONDS = 0.06


@dataclass(frozen=True)
class Word:
    """A word of a reading and when it was said: seconds into the audio it was decoded from."""

    text: str
    start: float
    end: float


@dataclass(frozen=True)
class Recognised:
    """A recognition result: a partial hypothesis, or the final text of an utterance, the
    other readings of it nearly as likely (within the recogniser's close_nats of its
    log-likelihood) and the text's words with their times."""

    text: str
    final: bool
    rivals: tuple[str, ...] = ()
    words: tuple[Word, ...] = ()  # the final text's, timed in the recogniser's stream


@dataclass(frozen=True)
class LoadedModel:
    """A checked model directory and the vosk model loaded from it."""

    info: ModelInfo
    vosk: vosk.Model


def load_model(path: str | Path) -> LoadedModel:
    """Check the model at `path`, then load it (~2-3 s); ModelError if either fails."""
    info = check_model(path)
    vosk.SetLogLevel(-1)
    try:
        model = vosk.Model(str(info.path))
    except Exception as error:  # vosk raises a bare Exception after logging Kaldi's reason
        raise ModelError(N_("vosk could not load the model at {path}: {error}"), path=path,
                         error=Foreign(error)) from error
    return LoadedModel(info, model)


class Recogniser:
    """A vosk recogniser fed 16 kHz 16-bit mono PCM, restricted to `phrases` when the model allows.

    Phrases with a word outside the model's vocabulary are left out of the grammar (vosk would
    otherwise drop just that word and recognise a shorter phrase); missing_words() lists them.
    """

    def __init__(self, model: str | Path | LoadedModel, phrases: Iterable[str] | None = None):
        self.model = model if isinstance(model, LoadedModel) else load_model(model)
        cleaned = list(dict.fromkeys(" ".join(p.split()) for p in phrases or ()))
        words = dict.fromkeys(w for p in cleaned for w in p.split())
        self._missing = [w for w in words if self._find(w) < 0]
        usable = [p for p in cleaned if not set(p.split()) & set(self._missing)]
        if cleaned and not usable:
            raise ValueError(f"no phrase can be recognised: words missing {self._missing}")
        self._unknown = next((u for u in _UNKNOWN_SPELLINGS if self._find(u) >= 0), None)
        restrict = bool(usable) and self.model.info.runtime_grammars
        self.grammar: tuple[str, ...] | None = tuple(usable) if restrict else None
        self.close_nats = CLOSE_NATS  # how near the best log-likelihood a rival reading is
        self._recogniser = self._new_kaldi()
        self._partial = ""
        self._fed = 0  # bytes of audio fed: vosk's word times count from the first

    @property
    def fed_seconds(self) -> float:
        """The audio fed so far, in seconds: where the stream's word times end."""
        return self._fed / 2 / TARGET_RATE

    def missing_words(self) -> list[str]:
        """Words of the phrases that the model's vocabulary lacks, in first-seen order."""
        return list(self._missing)

    def feed(self, pcm16: bytes, *, partials: bool = True) -> Recognised | None:
        """Feed a chunk of audio; return a final result at an endpoint, a new partial result
        (asked of vosk only with `partials`: each costs a best-path search), or None."""
        self._fed += len(pcm16)
        if self._recogniser.AcceptWaveform(pcm16):
            self._partial = ""
            final = self._final(self._recogniser.Result())
            return final if final.text else None
        if not partials:
            return None
        text = self._clean(json.loads(self._recogniser.PartialResult())["partial"])
        if not text or text == self._partial:
            return None
        self._partial = text
        return Recognised(text, final=False)

    def reset(self) -> None:
        """Forget the utterance in progress: what was fed so far yields no result.

        vosk's Reset() keeps the audio its decoder has not caught up with yet, which would then
        be heard; FinalResult() flushes it, and its text is dropped.
        """
        self._recogniser.FinalResult()
        self._partial = ""

    def finish(self) -> Recognised:
        """End the current utterance: its final result (text "" if nothing was heard)."""
        self._partial = ""
        return self._final(self._recogniser.FinalResult())

    def reading(self, pcm16: bytes) -> Recognised:
        """The final result of `pcm16` heard alone, as one utterance, its words' times in
        seconds into `pcm16`."""
        self.reset()
        origin = self.fed_seconds
        ended = self.feed(pcm16, partials=False)  # vosk's endpoint, found after all of it
        result = self.finish() if ended is None else ended
        words = tuple(Word(w.text, w.start - origin, w.end - origin) for w in result.words)
        return dataclasses.replace(result, words=words)

    def transcribe(self, samples: np.ndarray, rate: int, chunk_ms: int = 100) -> list[str]:
        """Recognise a whole recording at any rate; return the final text of each utterance."""
        self.reset()
        texts = []
        for chunk in chunked(to_pcm16_bytes(resample(samples, rate, TARGET_RATE)), chunk_ms):
            event = self.feed(chunk)
            if event is not None and event.final:
                texts.append(event.text)
        last = self.finish().text
        return [*texts, last] if last else texts

    def time_decode(self, seconds: float = 1.0) -> float:
        """Warm this recogniser up on synthetic babble, then time `seconds` of different babble;
        return the real-time factor (decode time / audio time; above ~1 the live loop lags)."""
        self._decode(_babble(seconds, pitch=110.0))  # vosk composes its graph lazily: warm it
        start = time.perf_counter()
        self._decode(_babble(seconds, pitch=170.0))
        return (time.perf_counter() - start) / seconds

    def _decode(self, samples: np.ndarray) -> None:
        for chunk in chunked(to_pcm16_bytes(samples), 100):
            self.feed(chunk, partials=False)
        self.finish()

    def _new_kaldi(self) -> vosk.KaldiRecognizer:
        if self.grammar is None:
            kaldi = vosk.KaldiRecognizer(self.model.vosk, float(TARGET_RATE))
        else:
            grammar = [*self.grammar, *([self._unknown] if self._unknown else [])]
            kaldi = vosk.KaldiRecognizer(
                self.model.vosk, float(TARGET_RATE), json.dumps(grammar, ensure_ascii=False)
            )
        kaldi.SetMaxAlternatives(READINGS)
        kaldi.SetWords(True)  # each reading's words with their times
        return kaldi

    def _final(self, result: str) -> Recognised:
        """A final result from vosk's n-best JSON: the likeliest text and its rivals."""
        readings = json.loads(result)["alternatives"]
        best = readings[0]["confidence"]  # vosk's "confidence" here: the log-likelihood
        rivals = (self._text(r) for r in readings[1:] if best - r["confidence"] <= self.close_nats)
        return Recognised(self._text(readings[0]), final=True, rivals=tuple(rivals),
                          words=self._words(readings[0]))

    def _text(self, reading: dict[str, Any]) -> str:
        """A reading's words, but for unknown ones too short to be speech."""
        return " ".join(word.text for word in self._words(reading))

    def _words(self, reading: dict[str, Any]) -> tuple[Word, ...]:
        """A reading's words and their times, but for unknown ones too short to be speech."""
        return tuple(Word(self._clean(w["word"]), w["start"], w["end"])
                     for w in reading.get("result", ())
                     if w["word"] != self._unknown or w["end"] - w["start"] >= MIN_UNKNOWN_SECONDS)

    def _find(self, word: str) -> int:
        return int(self.model.vosk.vosk_model_find_word(word))

    def _clean(self, text: str) -> str:
        if self._unknown is None or self._unknown == UNKNOWN:
            return text
        return " ".join(UNKNOWN if w == self._unknown else w for w in text.split())


def _babble(seconds: float, pitch: float) -> np.ndarray:
    """Speech-like audio at 16 kHz: a buzz gliding around `pitch` Hz, in 4 Hz syllables."""
    t = np.arange(int(seconds * TARGET_RATE)) / TARGET_RATE
    f0 = pitch * (1 + 0.25 * np.sin(2 * np.pi * 3 * t))
    phase = 2 * np.pi * np.cumsum(f0) / TARGET_RATE
    buzz = sum(np.sin(k * phase) / k for k in range(1, 30))
    return 0.05 * buzz * (1 + np.sin(2 * np.pi * 4 * t))
