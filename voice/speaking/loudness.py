"""Each announcement at one loudness: ITU-R BS.1770 integrated loudness (pyloudnorm), its true
peaks held under the ceiling by a lookahead limiter."""

from __future__ import annotations

import functools
import math

import numpy as np
import pyloudnorm
from numpy.lib.stride_tricks import sliding_window_view

from voice.audio_signal import resample

TARGET_LUFS = -23.0  # EBU R 128's programme level
PEAK_DBTP = -1.0  # the highest true peak allowed
BLOCK_S = 0.4  # BS.1770's gating block
OVERSAMPLE = 4  # BS.1770's true-peak meter looks at the signal at four times its rate
LOOKAHEAD_S = 0.005  # the limiter lowers the gain over this long before a peak, and holds it
RELEASE_S = 0.005  # as long after it
MARGIN_DB = 0.05  # the limiter aims this far under the ceiling: gain moves between samples
ROUNDS = 6  # gains tried through the limiter before settling for the closest
TOLERANCE_LU = 0.02  # close enough to the target


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


def limit(samples: np.ndarray, rate: int, ceiling: float = PEAK_DBTP) -> np.ndarray:
    """`samples` with every true peak over `ceiling` dBTP brought down to it by a gain that
    falls smoothly over LOOKAHEAD_S before the peak and rises again over RELEASE_S after it."""
    x = np.asarray(samples, dtype=np.float64)
    fine = np.abs(resample(x, rate, rate * OVERSAMPLE)).astype(np.float64)
    fine = np.pad(fine, (0, len(x) * OVERSAMPLE - len(fine)))
    # Each sample's peak: the highest of the oversampled signal around it.
    peaks = np.maximum(np.abs(x), fine.reshape(len(x), OVERSAMPLE).max(axis=1))
    peaks = np.maximum(peaks, np.roll(peaks, 1))  # and between it and the one before
    allowed = 10 ** ((ceiling - MARGIN_DB) / 20)
    gain = np.minimum(1.0, allowed / np.maximum(peaks, 1e-12))
    ahead, after = max(1, round(LOOKAHEAD_S * rate)), max(1, round(RELEASE_S * rate))
    # Held at each peak's gain from `ahead` before to `after` past it, then averaged over
    # `ahead` samples: the ramp is done by the peak, as the held gain is there throughout.
    held = sliding_window_view(np.pad(gain, (after, ahead), constant_values=1.0),
                               ahead + after + 1).min(axis=1)
    total = np.concatenate(([0.0], np.cumsum(np.pad(held, (ahead // 2, ahead - ahead // 2),
                                                    constant_values=1.0))))
    smooth = (total[ahead + 1:] - total[:-ahead - 1])[: len(x)] / (ahead + 1)
    limited: np.ndarray = x * np.minimum(smooth, held)
    return limited


def normalise_loudness(
    samples: np.ndarray, rate: int, target: float = TARGET_LUFS, ceiling: float = PEAK_DBTP
) -> np.ndarray:
    """`samples` (floats, full scale 1) brought to `target` LUFS with their true peaks limited to
    `ceiling` dBTP: the gain that reaches it through the limiter, found by the secant method;
    silence is returned as it is."""
    x = np.asarray(samples, dtype=np.float64)
    measured = loudness(x, rate)
    if not math.isfinite(measured):
        return x.astype(np.float32)
    gain, tried = target - measured, []
    for _ in range(ROUNDS):
        y = x * 10 ** (gain / 20)
        if true_peak(y, rate) > ceiling:
            y = limit(y, rate, ceiling)
        miss = loudness(y, rate) - target
        tried.append((gain, miss))
        if abs(miss) <= TOLERANCE_LU or len(tried) == ROUNDS:
            break
        slope = 1.0  # LU per dB of gain: 1 unlimited, less as the limiter takes more
        if len(tried) > 1 and tried[-2][0] != gain:
            slope = (miss - tried[-2][1]) / (gain - tried[-2][0])
        gain -= miss / (slope if slope > 0.05 else 1.0)
    over = true_peak(y, rate) - ceiling  # what the limiter's gain steps left: a trace
    return (y * 10 ** (-max(over, 0.0) / 20)).astype(np.float32)
