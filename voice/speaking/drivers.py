"""The speech engines pyttsx3 drives: which one this platform uses, its Greek voices, and how
each is told the voice and rate before a text is rendered to a file."""

from __future__ import annotations

import ctypes
import functools
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from rules.errors import RefereeError
from voice.speaking.respelling import for_espeak
from voice.translation import N_, Foreign, reason

GREEK_VOICE_ID = "grk/el"  # espeak-ng's own Greek voice, the default
# The driver pyttsx3 offers first on each platform; any other platform has espeak-ng.
PLATFORM_DRIVERS = {"win32": "sapi5", "darwin": "nsss"}
DEFAULT_DRIVER = "espeak"
DRIVERS = ("espeak", "sapi5", "nsss")  # those that can save speech to a file
# pyttsx3 2.99's avspeech driver has no save_to_file: it can only play, never render.
NO_FILE_DRIVERS = {
    "avspeech": N_("pyttsx3's avspeech driver cannot write speech to a file: use nsss"),
}
INSTALL_HINTS = {
    "espeak": N_("install espeak-ng: apt-get install espeak-ng libespeak-ng1"),
    "sapi5": N_("add the Greek language with its text-to-speech voice in Windows Settings > "
                "Time & language > Language & region, then sign in again"),
    "nsss": N_("download a Greek voice (Melina) in System Settings > Accessibility > "
               "Spoken Content > System voice > Manage Voices"),
}
MBROLA_HINT = N_("install MBROLA and its Greek voice: apt-get install mbrola mbrola-gr2 "
                 "(Debian's contrib and non-free components)")
# espeak-ng offers them, but they are not fit to referee with.
REFUSED_VOICES = {
    "mb/mb-gr1": N_("mb/mb-gr1 lacks many diphones and drops sounds (αντρέ loses its ρ): "
                    "use mb/mb-gr2 or grk/el"),
}
# A Greek voice's language field, as each engine spells it (lowercase, "_" as "-"): espeak-ng
# "el", sapi5 and avspeech "el-GR", nsss "el_GR"; some older voices "gr", "greek" or ISO 639-2.
GREEK_CODES = {"el", "gr", "greek", "ell", "gre"}


class SpeechError(RefereeError):
    """Speech synthesis is unavailable or produced no audio."""


def driver_name(setting: str | None = None, platform: str = sys.platform) -> str:
    """The pyttsx3 driver to use: `setting` if given, else the one `platform` has."""
    if setting in NO_FILE_DRIVERS:
        raise SpeechError(NO_FILE_DRIVERS[setting])
    if setting is not None and setting not in DRIVERS:
        raise SpeechError(N_("no speech driver {setting!r}: use {drivers}"), setting=setting,
                          drivers=", ".join(DRIVERS))
    return setting or PLATFORM_DRIVERS.get(platform, DEFAULT_DRIVER)


def is_greek(language: object) -> bool:
    """Tell whether one language field names Modern Greek (not grc): "el", "el-GR", "el_GR",
    "gr", "greek", or espeak-ng's bytes with their priority byte first (b"\\x05el")."""
    if isinstance(language, bytes):
        language = language.lstrip(bytes(range(32))).decode("utf-8", "replace")
    code = str(language).strip().lower().replace("_", "-")
    return code.split("-")[0] in GREEK_CODES


def speaks_greek(voice: Any) -> bool:
    """Tell whether a pyttsx3 Voice lists Modern Greek among its languages."""
    return any(is_greek(language) for language in voice.languages or ())


def find_greek_voice(voices: Iterable[Any], wanted: str = GREEK_VOICE_ID,
                     driver: str = DEFAULT_DRIVER) -> Any:
    """The Greek voice `wanted` (an id, e.g. an mbrola voice); for grk/el, the first Greek voice
    when it is missing (on Windows and macOS, the system's own)."""
    voices = list(voices)
    if wanted.lower() in REFUSED_VOICES:
        raise SpeechError(REFUSED_VOICES[wanted.lower()])
    for voice in voices:
        if str(voice.id).lower() == wanted.lower() and speaks_greek(voice):
            return voice
    greek = [voice for voice in voices
             if speaks_greek(voice) and str(voice.id).lower() not in REFUSED_VOICES]
    if wanted.lower() != GREEK_VOICE_ID:
        named = ", ".join(str(v.id) for v in greek) or N_("none")
        raise SpeechError(N_("{driver} has no Greek voice {wanted!r}; its Greek voices: {named}"),
                          driver=driver, wanted=wanted, named=named)
    if greek:
        return greek[0]
    raise SpeechError(N_("{driver} has no Greek voice among {count} voices; {hint}"),
                      driver=driver, count=len(voices),
                      hint=INSTALL_HINTS.get(driver, INSTALL_HINTS[DEFAULT_DRIVER]))


class Driver:
    """One pyttsx3 engine: its voices, and a text rendered to a file with a voice and rate."""

    suffix = ".wav"  # what the engine writes

    def __init__(self, name: str, engine: Any) -> None:
        self.name = name
        self.engine = engine

    def voices(self) -> list[Any]:
        """The voices the engine lists."""
        return list(self.engine.getProperty("voices"))

    def check(self, voice: str) -> None:
        """Raise SpeechError now if the engine cannot speak with `voice` (nothing to check)."""

    def before(self, voice: str, rate: int) -> None:
        """Queue the voice and rate ahead of the next text (pyttsx3 applies them in order)."""
        self.engine.setProperty("voice", voice)
        self.engine.setProperty("rate", rate)

    def save(self, text: str, path: Path) -> None:
        """Render `text` into `path` and wait until it is written."""
        self.engine.save_to_file(text, str(path))
        self.engine.runAndWait()

    def after(self, voice: str, rate: int) -> None:
        """Raise SpeechError if the text was not said with `voice` at `rate` (not checkable)."""


class Nsss(Driver):
    """macOS's NSSpeechSynthesizer, which writes AIFF."""

    suffix = ".aiff"


class Espeak(Driver):
    """espeak-ng: one global synthesiser per process, whose settings pyttsx3 applies late."""

    def voices(self) -> list[Any]:
        """pyttsx3's voices and the Greek ones only espeak-ng's language-filtered list holds
        (pyttsx3 lists with no language, which leaves out the mbrola voices)."""
        from pyttsx3.drivers import _espeak
        from pyttsx3.voice import Voice

        listed = super().voices()
        known = {str(voice.id).lower() for voice in listed}
        spec = _espeak.VOICE()
        spec.languages = b"el"
        for found in _espeak.ListVoices(spec):
            voice_id = found.identifier.decode("utf-8").lower()
            if voice_id not in known:
                listed.append(Voice(voice_id, found.name.decode("utf-8"), [found.languages]))
        return listed

    def check(self, voice: str) -> None:
        """Load `voice` now: an mbrola voice listed but not installed fails here."""
        from pyttsx3.drivers.espeak import EspeakDriver

        try:
            EspeakDriver.setProperty("voice", voice)
        except ValueError as error:
            hint = MBROLA_HINT if voice.startswith("mb/") else INSTALL_HINTS[self.name]
            raise SpeechError(N_("espeak-ng cannot load the voice {voice} ({error}); {hint}"),
                              voice=voice, error=Foreign(error), hint=hint) from None
        finally:
            self._wait_until_idle()

    def before(self, voice: str, rate: int) -> None:
        """Give espeak-ng this voice and rate now, unless it holds them, and wait until taken."""
        # Not through pyttsx3's setProperty: that waits in its queue until the next run, and
        # now and then (about one process start in 130, under load) a whole match was said at
        # pyttsx3's own 200 words per minute; nor checked with its getProperty (see
        # _espeak_parameter), which could not tell.
        from pyttsx3.drivers.espeak import EspeakDriver

        self._wait_until_idle()
        if self.settings() == (voice, rate):
            return
        if self.engine.getProperty("voice") != voice:
            EspeakDriver.setProperty("voice", voice)
        EspeakDriver.setProperty("rate", rate)
        self._wait_until_idle()

    def save(self, text: str, path: Path) -> None:
        """Render as pyttsx3 does, respelt where espeak-ng misreads (respelling.py), waiting for
        espeak-ng to go idle after."""
        # pyttsx3 2.99 drives espeak-ng asynchronously: runAndWait cancels any synthesis
        # still in flight and, on an engine's first run, returns before the WAV is written.
        super().save(for_espeak(text), path)
        self._wait_until_idle()

    def after(self, voice: str, rate: int) -> None:
        """Checked again after the text: changed while it was said, it is said again."""
        active, active_rate = self.settings()
        if (active, active_rate) != (voice, rate):
            raise SpeechError(N_("espeak-ng took voice {active} at {active_rate} words per "
                                 "minute, not {voice} at {rate}"), active=active,
                              active_rate=active_rate, voice=voice, rate=rate)

    def settings(self) -> tuple[str, int]:
        """The voice and rate espeak-ng holds now."""
        from pyttsx3.drivers import _espeak

        return self.engine.getProperty("voice"), _espeak_parameter()(_espeak.RATE, 1)

    @staticmethod
    def _wait_until_idle() -> None:
        """Block until espeak-ng's synthesis thread has finished every queued command."""
        from pyttsx3.drivers import _espeak  # loads libespeak-ng, so only after the engine

        _espeak.Synchronize()


@functools.cache
def _espeak_parameter() -> Callable[[int, int], int]:
    """espeak_GetParameter(parameter, current) as espeak-ng declares it.

    pyttsx3 declares it without `current`, so it returns the parameter's default or its value
    as a stray register happens to say: a rate of 200 could read as espeak-ng's default 175."""
    from pyttsx3.drivers import _espeak

    prototype = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_int, ctypes.c_int)
    return prototype(("espeak_GetParameter", _espeak.dll))


KINDS: dict[str, type[Driver]] = {"espeak": Espeak, "nsss": Nsss}


@functools.cache
def start(name: str) -> Driver:
    """Start pyttsx3's driver `name` once per process."""
    import pyttsx3

    try:
        engine = pyttsx3.init(name)
    except (ImportError, OSError, RuntimeError) as error:
        raise SpeechError(N_("cannot start {name} through pyttsx3 ({error}); {hint}"), name=name,
                          error=reason(error), hint=INSTALL_HINTS.get(name, "")) from error
    return KINDS.get(name, Driver)(name, engine)
