"""voice.speaking.drivers: the driver each platform uses and the Greek voice each one offers.

Windows' SAPI5 and macOS's NSSpeechSynthesizer are faked at pyttsx3's driver boundary (a
module with buildDriver, as pyttsx3.drivers.sapi5 is): pyttsx3's own engine and queue run on
top of them. espeak-ng runs for real."""

from __future__ import annotations

import shutil
import sys
import types
import warnings
import wave
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import pyttsx3
from pyttsx3.voice import Voice

from phrases.render import render
from rules.announcement import Announcement, Code
from voice.speaking.aiff import read_aiff
from voice.speaking.drivers import (
    MBROLA_HINT,
    SpeechError,
    driver_name,
    find_greek_voice,
    is_greek,
    start,
)
from voice.speaking.synthesis import Synthesiser, read_pcm16_wav

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    import aifc

RATE = 22050
STEFANOS = Voice("HKEY_LOCAL_MACHINE\\SOFTWARE\\Microsoft\\Speech\\Voices\\Tokens\\"
                 "TTS_MS_EL-GR_STEFANOS_11.0", "Microsoft Stefanos", ["el-GR"])
ZIRA = Voice("HKEY_LOCAL_MACHINE\\SOFTWARE\\Microsoft\\Speech\\Voices\\Tokens\\"
             "TTS_MS_EN-US_ZIRA_11.0", "Microsoft Zira", ["en-US"])
MELINA = Voice("com.apple.voice.compact.el-GR.Melina", "Melina", ["el_GR"])
SAMANTHA = Voice("com.apple.voice.compact.en-US.Samantha", "Samantha", ["en_US"])


def tone(rate_wpm: int) -> np.ndarray:
    """What a fake engine 'says': a tone whose length follows the speaking rate."""
    n = RATE * 60 // rate_wpm
    return (8000 * np.sin(np.arange(n) * 2 * np.pi * 440 / RATE)).astype(np.int16)


def write_wav(path: str, samples: np.ndarray) -> None:
    with wave.open(path, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(samples.astype("<i2").tobytes())


def write_aiff(path: str, samples: np.ndarray, compression: bytes = b"NONE") -> None:
    with aifc.open(path, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.setcomptype(compression, b"little-endian" if compression == b"sowt" else b"none")
        out.writeframes(samples.astype(">i2").tobytes())  # aifc takes big-endian frames


class FakeEngine:
    """A pyttsx3 driver as its interface documents it (pyttsx3.drivers.dummy): it keeps the
    voice and rate it is given and 'says' into a file what they make."""

    def __init__(self, proxy: Any, voices: list[Voice], write: Any) -> None:
        self._proxy, self._voices, self._write = proxy, voices, write
        self.properties: dict[str, Any] = {"voice": voices[0].id, "rate": 200}
        self.saved: list[tuple[str, str, int]] = []

    def destroy(self) -> None:
        """Nothing to release."""

    def startLoop(self) -> None:
        self._proxy.setBusy(False)  # runs the queue: properties, texts, then endLoop

    def endLoop(self) -> None:
        """The queue ran whole in startLoop."""

    def stop(self) -> None:
        """Nothing in flight."""

    def getProperty(self, name: str) -> Any:
        return self._voices if name == "voices" else self.properties[name]

    def setProperty(self, name: str, value: Any) -> None:
        self.properties[name] = value

    def save_to_file(self, text: str, filename: str) -> None:
        self._proxy.setBusy(True)
        self.saved.append((text, self.properties["voice"], self.properties["rate"]))
        self._write(filename, tone(self.properties["rate"]))
        self._proxy.setBusy(False)


def fake_driver(name: str, voices: list[Voice], write: Any,
                built: dict[str, FakeEngine]) -> types.ModuleType:
    """A stand-in for the module pyttsx3.drivers.`name`; the engine it builds goes in `built`."""
    fake = types.ModuleType(f"pyttsx3.drivers.{name}")

    def build(proxy: Any) -> FakeEngine:
        built[name] = FakeEngine(proxy, voices, write)
        return built[name]

    fake.buildDriver = build  # type: ignore[attr-defined]
    return fake


@pytest.fixture
def engines(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, FakeEngine]]:
    """Fake sapi5 and nsss modules where pyttsx3 imports its drivers from; the engines built."""
    built: dict[str, FakeEngine] = {}
    monkeypatch.setattr(pyttsx3, "_activeEngines", weakref.WeakValueDictionary())  # its cache
    monkeypatch.setitem(sys.modules, "pyttsx3.drivers.sapi5",
                        fake_driver("sapi5", [ZIRA, STEFANOS], write_wav, built))
    monkeypatch.setitem(sys.modules, "pyttsx3.drivers.nsss",
                        fake_driver("nsss", [SAMANTHA, MELINA], write_aiff, built))
    start.cache_clear()
    yield built
    start.cache_clear()


@pytest.mark.parametrize(("platform", "name"), [
    ("linux", "espeak"), ("win32", "sapi5"), ("darwin", "nsss"), ("freebsd13", "espeak"),
])
def test_each_platform_gets_the_driver_pyttsx3_offers_first(platform: str, name: str) -> None:
    assert driver_name(None, platform) == name


def test_a_setting_chooses_the_driver_over_the_platform() -> None:
    assert driver_name("espeak", "win32") == "espeak"
    with pytest.raises(SpeechError, match="no speech driver 'festival': use espeak, sapi5, nsss"):
        driver_name("festival")
    with pytest.raises(SpeechError, match="avspeech driver cannot write speech to a file"):
        driver_name("avspeech", "darwin")


@pytest.mark.parametrize("language", [
    "el", "el-GR", "el_GR", "EL-gr", "gr", "greek", "Greek", b"\x05el", b"\x02el-gr", "ell",
])
def test_greek_is_known_in_every_spelling(language: object) -> None:
    assert is_greek(language)


@pytest.mark.parametrize("language", [
    "grc", "en-US", "en_GB", b"\x05en", "de", "Unknown Locale: 0", "",
])
def test_other_languages_are_not_greek(language: object) -> None:
    assert not is_greek(language)


def test_sapi5_speaks_with_its_greek_voice_at_the_rate_set_before_the_text(
    engines: dict[str, FakeEngine],
) -> None:
    synth = Synthesiser(cache=0, rate=120, driver="sapi5")
    samples, rate = synth.render("αντρέ")
    assert synth.voice is STEFANOS
    assert engines["sapi5"].saved == [("αντρέ", STEFANOS.id, 120)]
    assert rate == RATE and np.array_equal(samples, tone(120))


@pytest.mark.parametrize("compression", [b"NONE", b"sowt"])
def test_nsss_aiff_is_read_in_either_byte_order(
    engines: dict[str, FakeEngine], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    compression: bytes,
) -> None:
    synth = Synthesiser(cache=0, driver="nsss")
    monkeypatch.setattr(engines["nsss"], "_write",
                        lambda path, samples: write_aiff(path, samples, compression))
    samples, rate = synth.render("ντεντάν")
    path = synth.render_wav("ντεντάν", tmp_path / "said.aiff")
    assert synth.voice is MELINA and engines["nsss"].saved[0][1] == MELINA.id
    assert rate == RATE and np.array_equal(samples, tone(175))
    assert np.array_equal(read_aiff(path)[0], tone(175))


def test_an_aiff_that_is_not_audio_is_named(tmp_path: Path) -> None:
    bogus = tmp_path / "speech.aiff"
    bogus.write_bytes(b"FORM\x00\x00\x00\x04WAVE")
    with pytest.raises(SpeechError, match="speech.aiff is not a valid AIFF file"):
        read_aiff(bogus)


def test_no_greek_voice_names_the_systems_way_to_install_one(
    engines: dict[str, FakeEngine], monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "pyttsx3.drivers.sapi5",
                        fake_driver("sapi5", [ZIRA], write_wav, engines))
    with pytest.raises(SpeechError) as refused:
        Synthesiser(driver="sapi5")
    message = str(refused.value)
    assert "\n" not in message
    assert message.startswith("sapi5 has no Greek voice among 1 voices; add the Greek language")


def test_the_greek_voice_is_found_by_its_language_whatever_the_default_id() -> None:
    voices = [Voice("x", "Other", [b"\x05en"]), Voice("y", "Melina", ["el_GR"])]
    assert find_greek_voice(voices, driver="nsss").name == "Melina"


def test_espeak_lists_the_mbrola_greek_voices_pyttsx3_leaves_out() -> None:
    ids = {voice.id for voice in start("espeak").voices()}
    assert "mb/mb-gr2" not in {voice.id for voice in pyttsx3.init("espeak").getProperty("voices")}
    assert {"grk/el", "mb/mb-gr2"} <= ids


def test_mbrola_gr1_is_refused_with_the_reason() -> None:
    with pytest.raises(SpeechError, match="mb-gr1 lacks many diphones and drops sounds"):
        Synthesiser(voice="mb/mb-gr1")


MBROLA = shutil.which("mbrola") is not None and Path("/usr/share/mbrola/gr2").exists()


@pytest.mark.skipif(MBROLA, reason="mbrola and mbrola-gr2 are installed")
def test_mbrola_gr2_not_installed_says_how_to_install_it() -> None:
    with pytest.raises(SpeechError, match="cannot load the voice mb/mb-gr2") as refused:
        Synthesiser(voice="mb/mb-gr2")
    assert str(refused.value).endswith(MBROLA_HINT)
    assert Synthesiser(cache=0).render("αντρέ")[0].any()  # espeak-ng's own voice still speaks


@pytest.mark.skipif(not MBROLA, reason="mbrola and mbrola-gr2 are not installed (scripts/setup.sh "
                    "installs them where Debian's contrib and non-free can be enabled)")
def test_mbrola_gr2_found_in_espeaks_greek_list_says_an_announcement(tmp_path: Path) -> None:
    synth = Synthesiser(cache=0, voice="mb/mb-gr2")
    assert synth.voice.id not in {v.id for v in pyttsx3.init("espeak").getProperty("voices")}
    said = render(Announcement(Code.SCORE, player="Παπαδόπουλος", points=195)).text
    samples, rate = read_pcm16_wav(synth.render_wav(said, tmp_path / "score.wav"))
    assert synth.driver.settings()[0] == "mb/mb-gr2"  # what espeak-ng held while it spoke
    loud = np.abs(samples.astype(np.int32)) > 1000
    assert loud.sum() > rate // 4  # a quarter of a second of speech, at least
    own, _ = Synthesiser(cache=0).render(said)
    assert not np.array_equal(own, samples)  # not espeak-ng's own voice
