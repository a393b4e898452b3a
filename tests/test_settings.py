"""voice/settings.py: the hall's settings, checked, layered, and where each value came from."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from voice import settings as hall
from voice.settings import Settings, SettingsError, Source, commented_file, load


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_without_a_file_the_defaults_are_in_force() -> None:
    settings = load(None)
    assert settings == Settings()
    assert {settings.source(name) for name in hall.KEYS} == {Source.DEFAULT}
    assert (settings.threshold, settings.endpoint_ms, settings.mic) == (80.0, 150, None)


def test_the_commented_file_holds_every_key_at_its_default(tmp_path: Path) -> None:
    path = write(tmp_path / "s.toml", commented_file())
    text = path.read_text(encoding="utf-8")
    assert all(f"\n{key.name} = " in text or f"\n# {key.name} = " in text
               for key in hall.KEYS.values())
    loaded = load(path)
    assert loaded == Settings()
    assert loaded.source("threshold") == Source.HALL and loaded.source("mic") == Source.DEFAULT


def test_layers_override_in_order_and_remember_where_each_value_came_from(tmp_path: Path) -> None:
    path = write(tmp_path / "s.toml", '[hearing]\nthreshold = 70\nendpoint_ms = 200\n'
                 '[devices]\nmic = "USB"\n')
    settings = (load(path)
                .over({"threshold": 60.0, "endpoint_ms": None}, Source.PROFILE, "p.toml")
                .over({"endpoint_ms": 300, "mic": None}, Source.COMMAND_LINE, "the command line"))
    assert (settings.threshold, settings.endpoint_ms, settings.mic) == (60.0, 300, "USB")
    assert [settings.source(n) for n in ("threshold", "endpoint_ms", "mic", "rate")] == [
        Source.PROFILE, Source.COMMAND_LINE, Source.HALL, Source.DEFAULT]
    assert isinstance(load(path).threshold, float)


@pytest.mark.parametrize(("text", "message"), [
    ("[hearing]\nthreshold = 120\n",
     "hearing.threshold = 120: allowed: a confidence from 0 to 100"),
    ('[speech]\nrate = "fast"\n',
     'speech.rate = "fast": allowed: a whole number of words per minute from 80 to 450'),
    ("[speech]\nchime = 1\n", "speech.chime = 1: allowed: true or false"),
    ("[hearing]\nendpoint_ms = 20\n",
     "hearing.endpoint_ms = 20: allowed: milliseconds from 50 to 2000"),
    ('[devices]\nmic = " "\n',
     'devices.mic = " ": allowed: a device id (2 or "2") or part of its name'),
    ("[speech]\nvolume = 3\n",
     "unknown key speech.volume; [speech] holds voice, driver, rate, loudness"),
    ("[hearing]\nrate = 175\n", "unknown key hearing.rate; [hearing] holds echo_guard_ms"),
    ("threshold = 70\n", "unknown section or key 'threshold'; the sections are devices, "
     "hall, headset, hearing, match, messages, speech"),
    ("[hearing\n", "is not TOML: "),
])
def test_a_bad_value_names_the_file_the_key_and_what_is_allowed(
    tmp_path: Path, text: str, message: str
) -> None:
    path = write(tmp_path / "s.toml", text)
    with pytest.raises(SettingsError) as raised:
        load(path)
    assert message in str(raised.value) and str(path) in str(raised.value)
    assert "\n" not in str(raised.value)


def test_a_named_file_that_is_missing_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(SettingsError, match="cannot read the settings file .*nope.toml"):
        load(tmp_path / "nope.toml")


def test_mbrola_gr2_is_allowed_once_installed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write(tmp_path / "s.toml", '[speech]\nvoice = "mb/mb-gr2"\n')
    monkeypatch.setattr(hall, "MBROLA_DATA", tmp_path / "mbrola")
    with pytest.raises(SettingsError) as raised:
        load(path)
    assert ('speech.voice = "mb/mb-gr2": allowed: grk/el (mb/mb-gr2: install MBROLA and its '
            "Greek voice: apt-get install mbrola mbrola-gr2 (Debian's contrib and non-free "
            "components))") in str(raised.value)
    (tmp_path / "mbrola" / "gr2").mkdir(parents=True)
    monkeypatch.setattr(hall.shutil, "which", lambda name: f"/usr/bin/{name}")
    assert hall.greek_voices() == ["grk/el", "mb/mb-gr2"]
    assert load(path).voice == "mb/mb-gr2"
    assert "allowed: grk/el, mb/mb-gr2\n" in commented_file()


def test_mbrola_gr1_is_refused_with_the_reason_even_when_installed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write(tmp_path / "s.toml", '[speech]\nvoice = "mb/mb-gr1"\n')
    monkeypatch.setattr(hall, "MBROLA_DATA", tmp_path / "mbrola")
    (tmp_path / "mbrola" / "gr1").mkdir(parents=True)
    monkeypatch.setattr(hall.shutil, "which", lambda name: f"/usr/bin/{name}")
    with pytest.raises(SettingsError, match='speech.voice = "mb/mb-gr1": mb/mb-gr1 lacks many '
                       "diphones and drops sounds"):
        load(path)


def test_the_speech_driver_is_one_pyttsx3_can_render_with(tmp_path: Path) -> None:
    assert load(write(tmp_path / "s.toml", '[speech]\ndriver = "sapi5"\n')).driver == "sapi5"
    assert Settings().driver is None  # the platform's
    with pytest.raises(SettingsError, match='speech.driver = "avspeech": allowed: one of '
                       '"espeak", "sapi5", "nsss"'):
        load(write(tmp_path / "s.toml", '[speech]\ndriver = "avspeech"\n'))


def test_the_defaults_agree_with_the_modules_that_use_them() -> None:
    from voice.speaking.loudness import TARGET_LUFS
    from voice.speaking.synthesis import GREEK_VOICE_ID, RATE
    from voice.speaking.voicing import PAUSE_MS

    defaults = Settings()
    assert (defaults.voice, defaults.rate, defaults.loudness, defaults.pause_ms) == (
        GREEK_VOICE_ID, RATE, TARGET_LUFS, PAUSE_MS)
    assert tomllib.loads(commented_file())["hearing"]["endpoint_ms"] == 150


@pytest.mark.parametrize("given,hall,expected", [
    ((), {}, (None, None)),
    ((), {"shot_clock": 30, "time_outs": 3}, (30, 3)),
    (("--shot-clock", "40"), {"shot_clock": 30, "time_outs": 3}, (40, 3)),
    (("--shot-clock", "40", "--time-outs", "4"), {"shot_clock": 30, "time_outs": 3}, (40, 4)),
    ((), {"time_outs": 3}, (None, None)),  # the hall's time-outs need a shot clock
])
def test_a_new_match_takes_the_hall_s_shot_clock_and_time_outs_unless_given(
    given: tuple[str, ...], hall: dict[str, int], expected: tuple[int | None, int | None]
) -> None:
    from voice.cli.arguments import setup_from
    from voice.cli.main import parser

    args = parser().parse_args(["run", "--discipline", "libre", "--distance", "25", "--players",
                                "Α,Β", "--model", "m", *given])
    setup = setup_from(args, Settings().over(hall, Source.HALL, "settings.toml"))
    assert (setup.shot_clock, setup.time_outs) == expected


@pytest.mark.parametrize("given,expected", [((), "Academy"), (("--hall", "Ακαδημία"), "Ακαδημία")])
def test_a_new_match_is_played_in_the_hall_the_settings_name_unless_hall_is_given(
    given: tuple[str, ...], expected: str
) -> None:
    from voice.cli.arguments import setup_from
    from voice.cli.main import parser

    args = parser().parse_args(["run", "--discipline", "libre", "--distance", "25", "--players",
                                "Α,Β", "--model", "m", *given])
    hall = Settings().over({"name": "Academy", "table": "3"}, Source.HALL, "settings.toml")
    assert setup_from(args, hall).hall == expected
    assert setup_from(args, hall).table == "3"  # the hall's settings name the table too
    assert setup_from(args).hall == (expected if given else None)  # without the hall's settings
