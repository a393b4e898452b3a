"""Each announcement at one loudness: ITU-R BS.1770 integrated loudness (pyloudnorm), true peak."""

from __future__ import annotations

import functools
import math

import numpy as np
import pyloudnorm

from voice.audio_signal import resample

TARGET_LUFS = -23.0  # EBU R 128's programme level
PEAK_DBTP = -1.0  # the highest true peak allowed
BLOCK_S = 0.4  # BS.1770's gating block
OVERSAMPLE = 4  # BS.1770's true-peak meter looks at the signal at four times its rate


@functools.cache
def _meter(rate: int, block: float) -> pyloudnorm.Meter:
    return pyloudnorm.Meter(rate, block_size=block)


def loudness(samples: np.ndarray, rate: int) -> float:
    """Integrated loudness in LUFS (-inf for silence).

    BS.1770 gates 400 ms blocks; a clip shorter than one block is measured as a single block
    of its own length, so only the absolute gate (-70 LUFS) applies to it."""
    block = min(BLOCK_S, len(samples) / rate)
    if block <= 0:
        return -math.inf
    return float(_meter(rate, block).integrated_loudness(np.asarray(samples, dtype=np.float64)))


def true_peak(samples: np.ndarray, rate: int) -> float:
    """The true peak in dBTP: the highest sample of the signal at four times its rate."""
    peak = float(np.abs(resample(samples, rate, rate * OVERSAMPLE)).max(initial=0.0))
    return 20 * math.log10(peak) if peak > 0 else -math.inf


def normalise_loudness(
    samples: np.ndarray, rate: int, target: float = TARGET_LUFS, ceiling: float = PEAK_DBTP
) -> np.ndarray:
    """`samples` (floats, full scale 1) brought to `target` LUFS, then lowered if their true peak
    would pass `ceiling` dBTP; silence is returned as it is."""
    x = np.asarray(samples, dtype=np.float64)
    measured = loudness(x, rate)
    if not math.isfinite(measured):
        return x.astype(np.float32)
    x = x * 10 ** ((target - measured) / 20)
    over = true_peak(x, rate) - ceiling
    if over > 0:
        x = x * 10 ** (-over / 20)
    return x.astype(np.float32)
