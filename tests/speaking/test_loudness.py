"""Loudness and true peak of announcements (pyloudnorm for BS.1770 loudness)."""

from __future__ import annotations

import numpy as np
import pyloudnorm
import pytest

from voice.speaking.loudness import PEAK_DBTP, TARGET_LUFS, loudness, normalise_loudness, true_peak

RATE = 22050


def tone(hz: float, seconds: float, amplitude: float = 0.5, phase: float = 0.0) -> np.ndarray:
    t = np.arange(int(seconds * RATE)) / RATE
    return amplitude * np.sin(2 * np.pi * hz * t + phase)


def test_a_clip_as_long_as_a_block_or_longer_is_measured_as_bs1770_says() -> None:
    clip = tone(1000, 1.5, 0.1)
    assert loudness(clip, RATE) == pytest.approx(
        pyloudnorm.Meter(RATE).integrated_loudness(clip), abs=1e-9
    )


def test_a_clip_shorter_than_a_block_is_measured_as_one_block_of_its_own_length() -> None:
    short = tone(1000, 0.3, 0.1)
    with pytest.raises(ValueError):  # the standard meter refuses it
        pyloudnorm.Meter(RATE).integrated_loudness(short)
    # A steady tone is as loud in 300 ms as in three seconds.
    assert loudness(short, RATE) == pytest.approx(loudness(tone(1000, 3.0, 0.1), RATE), abs=0.2)
    assert loudness(normalise_loudness(short, RATE), RATE) == pytest.approx(TARGET_LUFS, abs=0.01)


def test_true_peak_finds_the_peak_between_samples() -> None:
    # A quarter of the sample rate, 45° out of phase: every sample is at 0.707, the wave at 1.
    wave = tone(RATE / 4, 1.0, 1.0, np.pi / 4)
    assert 20 * np.log10(np.abs(wave).max()) == pytest.approx(-3.0, abs=0.05)
    assert true_peak(wave, RATE) == pytest.approx(0.0, abs=0.2)


def test_normalising_reaches_the_target_with_the_peaks_limited_under_the_ceiling() -> None:
    speech_like = tone(300, 1.0, 0.02) + tone(1200, 1.0, 0.01)
    levelled = normalise_loudness(speech_like, RATE)
    assert loudness(levelled, RATE) == pytest.approx(TARGET_LUFS, abs=0.01)
    # A plosive: a short burst far above the rest, as «Μπ» is; gain alone would lose 6 LU.
    burst = speech_like.copy()
    burst[5000:5200] += tone(150, 200 / RATE, 0.5)
    held = normalise_loudness(burst, RATE)
    assert true_peak(held, RATE) <= PEAK_DBTP + 0.01
    assert loudness(held, RATE) == pytest.approx(TARGET_LUFS, abs=0.1)


def test_clicks_keep_under_the_ceiling_though_they_cannot_be_made_loud() -> None:
    spiky = np.zeros(RATE)
    spiky[::2205] = 0.9  # clicks: loud peaks, little loudness
    held = normalise_loudness(spiky, RATE)
    assert true_peak(held, RATE) <= PEAK_DBTP + 0.01
    assert loudness(held, RATE) < TARGET_LUFS - 1


def test_silence_is_left_as_it_is() -> None:
    assert not normalise_loudness(np.zeros(RATE), RATE).any()
