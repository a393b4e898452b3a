"""Resampling on synthesised signals."""

from __future__ import annotations

import numpy as np
import pytest

from voice.audio_signal import resample


def sine(freq: float, rate: int, seconds: float = 2.0, amplitude: float = 0.5) -> np.ndarray:
    return amplitude * np.sin(2 * np.pi * freq * np.arange(int(rate * seconds)) / rate)


def peak_frequency(samples: np.ndarray, rate: int) -> float:
    spectrum = np.abs(np.fft.rfft(samples * np.hanning(len(samples))))
    return float(np.fft.rfftfreq(len(samples), 1 / rate)[np.argmax(spectrum)])


@pytest.mark.parametrize(
    ("from_rate", "to_rate"), [(22050, 16000), (44100, 16000), (8000, 16000), (16000, 48000)]
)
def test_resample_keeps_frequency_and_length(from_rate: int, to_rate: int) -> None:
    x = sine(1234.0, from_rate)
    y = resample(x, from_rate, to_rate)
    assert y.dtype == np.float32
    assert len(y) == round(len(x) * to_rate / from_rate)
    assert peak_frequency(y, to_rate) == pytest.approx(1234.0, abs=1.0)
    middle = slice(len(y) // 4, 3 * len(y) // 4)  # away from the zero-padded edges
    assert np.abs(y[middle] - sine(1234.0, to_rate, len(y) / to_rate)[middle]).max() < 1e-3


def test_resample_filters_out_tones_above_the_new_nyquist() -> None:
    y = resample(sine(10000.0, 44100), 44100, 16000)  # 10 kHz would alias to 6 kHz
    assert np.sqrt(np.mean(y**2)) < 1e-3


def test_resample_to_the_same_rate_is_a_copy() -> None:
    x = sine(440.0, 16000, 0.1)
    np.testing.assert_array_equal(resample(x, 16000, 16000), x.astype(np.float32))


def test_resample_rejects_stereo_and_bad_rates() -> None:
    with pytest.raises(ValueError, match="mono"):
        resample(np.zeros((10, 2)), 44100, 16000)
    with pytest.raises(ValueError, match="positive"):
        resample(np.zeros(10), 0, 16000)
