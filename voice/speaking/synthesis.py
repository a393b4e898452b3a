"""Text to speech: Greek text rendered by espeak-ng's Greek voice through pyttsx3."""

import contextlib
import ctypes
import functools
import io
import tempfile
import threading
import wave
from collections.abc import Callable, Iterable
from pathlib import Path

import numpy as np
import pyttsx3
from pyttsx3.voice import Voice

from rules.errors import RefereeError

INSTALL_HINT = "install espeak-ng: apt-get install espeak-ng libespeak-ng1"
GREEK_VOICE_ID = "grk/el"
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


class SpeechError(RefereeError):
    """Speech synthesis is unavailable or produced no audio."""


def _is_greek(voice: Voice) -> bool:
    """Tell whether a voice speaks Modern Greek (language el or el-*, not grc)."""
    codes = [str(language).lower() for language in voice.languages]
    return any(code == "el" or code.startswith("el-") for code in codes)


def find_greek_voice(voices: Iterable[Voice], wanted: str = GREEK_VOICE_ID) -> Voice:
    """The Greek voice `wanted` (an espeak-ng id, e.g. an mbrola voice); for grk/el, any voice
    with language el when it is missing."""
    voices = list(voices)
    for voice in voices:
        if str(voice.id).lower() == wanted.lower() and _is_greek(voice):
            return voice
    if wanted.lower() != GREEK_VOICE_ID:
        greek = ", ".join(str(v.id) for v in voices if _is_greek(v)) or "none"
        raise SpeechError(f"espeak-ng has no Greek voice {wanted!r}; its Greek voices: {greek}")
    for voice in voices:
        if _is_greek(voice):
            return voice
    raise SpeechError(
        f"espeak-ng has no Greek voice ({GREEK_VOICE_ID}) among {len(voices)} voices; "
        f"{INSTALL_HINT}"
    )


@functools.cache
def _engine() -> pyttsx3.Engine:
    """Start pyttsx3's espeak driver once per process."""
    try:
        return pyttsx3.init("espeak")
    except (ImportError, OSError, RuntimeError) as exc:
        message = f"cannot start espeak-ng through pyttsx3 ({exc}); {INSTALL_HINT}"
        raise SpeechError(message) from exc


@functools.cache
def _espeak_parameter() -> Callable[[int, int], int]:
    """espeak_GetParameter(parameter, current) as espeak-ng declares it.

    pyttsx3 declares it without `current`, so it returns the parameter's default or its value
    as a stray register happens to say: a rate of 200 could read as espeak-ng's default 175."""
    from pyttsx3.drivers import _espeak

    prototype = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_int, ctypes.c_int)
    return prototype(("espeak_GetParameter", _espeak.dll))


def _wait_until_idle() -> None:
    """Block until espeak-ng's synthesis thread has finished every queued command."""
    from pyttsx3.drivers import _espeak  # loads libespeak-ng, so only after _engine()

    _espeak.Synchronize()


def read_pcm16_wav(path: Path) -> tuple[np.ndarray, int]:
    """Read a 16-bit mono WAV file as (int16 samples, sample rate)."""
    try:
        with wave.open(str(path), "rb") as wav:
            if wav.getnchannels() != 1 or wav.getsampwidth() != 2:
                raise SpeechError(f"{path} is not 16-bit mono audio")
            frames = wav.readframes(wav.getnframes())
            rate = wav.getframerate()
    except (wave.Error, EOFError) as exc:
        raise SpeechError(f"{path} is not a valid WAV file ({exc})") from exc
    return np.frombuffer(frames, dtype="<i2").astype(np.int16), rate


class Synthesiser:
    """Speaks Greek text with espeak-ng's Greek voice at `rate` words per minute into WAV files
    or sample arrays; keeps the samples of the `cache` texts rendered last."""

    def __init__(
        self, cache: int = CACHE_SIZE, voice: str = GREEK_VOICE_ID, rate: int = RATE
    ) -> None:
        if not MIN_RATE <= rate <= MAX_RATE:
            raise SpeechError(f"a speaking rate of {rate} words per minute is not "
                              f"{MIN_RATE} to {MAX_RATE}")
        self._engine = _engine()
        self.voice = find_greek_voice(self._engine.getProperty("voices"), voice)
        self.rate = rate
        self._kept = functools.lru_cache(maxsize=cache)(self._fresh)

    @property
    def voice_id(self) -> str:
        """The espeak-ng identifier of the selected voice, e.g. grk/el."""
        return str(self.voice.id)

    def render_wav(self, text: str, path: Path) -> Path:
        """Speak `text` into the WAV file `path` (overwritten) and return the path."""
        path = Path(path)
        self._synthesise(text, path)
        return path

    def render(self, text: str) -> tuple[np.ndarray, int]:
        """Speak `text` and return (int16 mono samples, read-only, sample rate)."""
        return self._kept(text)

    def _settings(self) -> tuple[str, int]:
        """The voice and rate espeak-ng holds now."""
        from pyttsx3.drivers import _espeak

        return self._engine.getProperty("voice"), _espeak_parameter()(_espeak.RATE, 1)

    def _choose(self) -> None:
        """Give espeak-ng this voice and rate now, and wait until it has taken them."""
        # Not through pyttsx3's setProperty: that waits in its queue until the next run, and
        # now and then (about one process start in 130, under load) a whole match was said at
        # pyttsx3's own 200 words per minute; nor checked with its getProperty (see
        # _espeak_parameter), which could not tell.
        from pyttsx3.drivers.espeak import EspeakDriver

        if self._engine.getProperty("voice") != self.voice_id:
            EspeakDriver.setProperty("voice", self.voice.id)
        EspeakDriver.setProperty("rate", self.rate)
        _wait_until_idle()

    def cache_info(self) -> functools._CacheInfo:
        """How many renders came from the cache (hits) and how many were synthesised (misses)."""
        return self._kept.cache_info()

    def _fresh(self, text: str) -> tuple[np.ndarray, int]:
        with tempfile.TemporaryDirectory(prefix="speak-") as tmp:
            samples, rate = self._synthesise(text, Path(tmp) / "speech.wav")
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
        # pyttsx3 2.99 drives espeak-ng asynchronously: runAndWait cancels any synthesis
        # still in flight and, on an engine's first run, returns before the WAV is written.
        # Waiting for espeak-ng to go idle before and after makes each render whole.
        # pyttsx3 also prints "Audio saved to ..." on every save; keep that off our stdout.
        with _RENDER_LOCK, contextlib.redirect_stdout(io.StringIO()):
            _wait_until_idle()
            if self._settings() != (self.voice_id, self.rate):  # e.g. another synthesiser's
                self._choose()
            self._engine.save_to_file(text, str(path))
            self._engine.runAndWait()
            _wait_until_idle()
            active, rate = self._settings()
        # Checked again after the text, as the voice is: changed while it was said, it is said
        # again (the next pass sets them first).
        if (active, rate) != (self.voice_id, self.rate):
            raise SpeechError(
                f"espeak-ng took voice {active} at {rate} words per minute, "
                f"not {self.voice_id} at {self.rate}"
            )
        if not path.is_file():
            raise SpeechError(f"espeak-ng wrote no audio for {text!r} to {path}")
        samples, rate = read_pcm16_wav(path)
        if not samples.any():
            raise SpeechError(f"espeak-ng produced no audible speech for {text!r}")
        return samples, rate
