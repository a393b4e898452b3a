"""Text to speech: Greek text rendered by a Greek voice of the platform's engine through pyttsx3
(espeak-ng, SAPI5 or NSSpeechSynthesizer; voice.speaking.drivers)."""

import contextlib
import functools
import io
import tempfile
import threading
import wave
from pathlib import Path

import numpy as np

from voice.speaking.aiff import read_aiff
from voice.speaking.drivers import (
    GREEK_VOICE_ID,
    SpeechError,
    driver_name,
    find_greek_voice,
    start,
)
from voice.translation import N_, Foreign

# pyttsx3 2.99 sometimes hands espeak-ng's audio to no file (seen about once in five live-loop
# runs while vosk decodes on the other core); a fresh pass then succeeds.
ATTEMPTS = 3
RATE = 175  # words per minute: espeak-ng's own default (pyttsx3 alone would use 200)
MIN_RATE, MAX_RATE = 80, 450  # what espeak-ng accepts
# Texts whose speech is kept: a match repeats few (the low runs, the names, «για πέντε»); about
# 60 kB each, so some 15 MB.
CACHE_SIZE = 256

# espeak-ng is one global synthesiser per process, so renders must not interleave.
_RENDER_LOCK = threading.Lock()


def read_pcm16_wav(path: Path) -> tuple[np.ndarray, int]:
    """Read a 16-bit mono WAV file as (int16 samples, sample rate)."""
    try:
        with wave.open(str(path), "rb") as wav:
            if wav.getnchannels() != 1 or wav.getsampwidth() != 2:
                raise SpeechError(N_("{path} is not 16-bit mono audio"), path=path)
            frames = wav.readframes(wav.getnframes())
            rate = wav.getframerate()
    except (wave.Error, EOFError) as exc:
        raise SpeechError(N_("{path} is not a valid WAV file ({error})"), path=path,
                          error=Foreign(exc)) from exc
    return np.frombuffer(frames, dtype="<i2").astype(np.int16), rate


class Synthesiser:
    """Speaks Greek text with a Greek voice of `driver` (None: the platform's) at `rate` words per
    minute into WAV files or sample arrays; keeps the samples of the `cache` texts rendered last."""

    def __init__(
        self, cache: int = CACHE_SIZE, voice: str = GREEK_VOICE_ID, rate: int = RATE,
        driver: str | None = None,
    ) -> None:
        if not MIN_RATE <= rate <= MAX_RATE:
            raise SpeechError(N_("a speaking rate of {rate} words per minute is not {low} to "
                                 "{high}"), rate=rate, low=MIN_RATE, high=MAX_RATE)
        self.driver = start(driver_name(driver))
        self.voice = find_greek_voice(self.driver.voices(), voice, self.driver.name)
        self.driver.check(self.voice_id)
        self.rate = rate
        self._kept = functools.lru_cache(maxsize=cache)(self._fresh)

    @property
    def voice_id(self) -> str:
        """The engine's identifier of the selected voice, e.g. grk/el."""
        return str(self.voice.id)

    def render_wav(self, text: str, path: Path) -> Path:
        """Speak `text` into the file `path` (overwritten; AIFF where the engine writes only
        that, e.g. nsss) and return the path."""
        path = Path(path)
        self._synthesise(text, path)
        return path

    def render(self, text: str) -> tuple[np.ndarray, int]:
        """Speak `text` and return (int16 mono samples, read-only, sample rate)."""
        return self._kept(text)

    def cache_info(self) -> functools._CacheInfo:
        """How many renders came from the cache (hits) and how many were synthesised (misses)."""
        return self._kept.cache_info()

    def _fresh(self, text: str) -> tuple[np.ndarray, int]:
        with tempfile.TemporaryDirectory(prefix="speak-") as tmp:
            samples, rate = self._synthesise(text, Path(tmp) / f"speech{self.driver.suffix}")
        samples.flags.writeable = False  # shared by every later render of the same text
        return samples, rate

    def _synthesise(self, text: str, path: Path) -> tuple[np.ndarray, int]:
        """Render `text` to `path`, retrying when pyttsx3 loses the audio (SpeechError at last)."""
        if not text.strip():
            raise ValueError("text to speak is empty")
        if not path.parent.is_dir():
            raise FileNotFoundError(f"directory for {path} does not exist")
        for _ in range(ATTEMPTS - 1):
            with contextlib.suppress(SpeechError):
                return self._attempt(text, path)
        return self._attempt(text, path)

    def _attempt(self, text: str, path: Path) -> tuple[np.ndarray, int]:
        """Run one pyttsx3 save_to_file pass and check that real speech came out."""
        path.unlink(missing_ok=True)  # a stale file must not pass for fresh output
        # pyttsx3 also prints "Audio saved to ..." on every save; keep that off our stdout.
        with _RENDER_LOCK, contextlib.redirect_stdout(io.StringIO()):
            self.driver.before(self.voice_id, self.rate)
            self.driver.save(text, path)
            self.driver.after(self.voice_id, self.rate)
        name = self.driver.name
        if not path.is_file():
            raise SpeechError(N_("{name} wrote no audio for {text!r} to {path}"), name=name,
                              text=text, path=path)
        samples, rate = read_aiff(path) if path.suffix == ".aiff" else read_pcm16_wav(path)
        if not samples.any():
            raise SpeechError(N_("{name} produced no audible speech for {text!r}"), name=name,
                              text=text)
        return samples, rate
