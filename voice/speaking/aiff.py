"""AIFF speech files, as macOS's NSSpeechSynthesizer writes them (pyttsx3's nsss driver)."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np

from voice.speaking.drivers import SpeechError
from voice.translation import N_, Foreign

with warnings.catch_warnings():  # deprecated in 3.11, gone in 3.13 (then: standard-aifc)
    warnings.simplefilter("ignore", DeprecationWarning)
    import aifc


def read_aiff(path: Path) -> tuple[np.ndarray, int]:
    """Read a 16-bit mono AIFF or AIFF-C file (uncompressed, either byte order) as (int16
    samples, sample rate)."""
    try:
        with aifc.open(str(path), "rb") as aiff:
            if aiff.getnchannels() != 1 or aiff.getsampwidth() != 2:
                raise SpeechError(N_("{path} is not 16-bit mono audio"), path=path)
            if aiff.getcomptype() not in (b"NONE", b"twos", b"sowt"):
                raise SpeechError(N_("{path} is compressed ({compression}), not plain 16-bit "
                                     "audio"), path=path,
                                  compression=Foreign(aiff.getcompname().decode()))
            frames = aiff.readframes(aiff.getnframes())  # big-endian, sowt swapped already
            rate = aiff.getframerate()
    except (aifc.Error, EOFError) as exc:
        raise SpeechError(N_("{path} is not a valid AIFF file ({error})"), path=path,
                          error=Foreign(exc)) from exc
    return np.frombuffer(frames, dtype=">i2").astype(np.int16), rate
