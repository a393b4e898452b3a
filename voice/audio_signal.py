"""Mono audio as numbers, for hearing and speaking alike: resampling, 16-bit PCM, WAV files."""

from __future__ import annotations

import functools
import math
import wave
from pathlib import Path

import numpy as np

# Windowed-sinc resampler: zero crossings of the sinc on each side, and the Kaiser window's beta.
_HALF_WIDTH = 16
_KAISER_BETA = 8.6
_ROLLOFF = 0.95  # cutoff as a fraction of the lower Nyquist frequency, leaving a transition band
_BLOCK = 8192  # output samples computed per block, to bound memory
_TABLE_PHASES = 4096  # up to this many phases, their taps are computed once and kept


def resample(samples: np.ndarray, from_rate: int, to_rate: int) -> np.ndarray:
    """Resample mono audio with a Kaiser-windowed sinc (band-limited interpolation).

    The cutoff is just below the lower of the two Nyquist frequencies, so downsampling does not
    alias. Returns float32 of length round(len(samples) * to_rate / from_rate).
    """
    x = np.asarray(samples, dtype=np.float64)
    if x.ndim != 1:
        raise ValueError(f"resample expects mono (1-D) samples, got shape {x.shape}")
    if from_rate <= 0 or to_rate <= 0:
        raise ValueError(f"sample rates must be positive, got {from_rate} -> {to_rate}")
    if from_rate == to_rate:
        return x.astype(np.float32)
    g = math.gcd(from_rate, to_rate)
    up, down = to_rate // g, from_rate // g  # output n sits at input time n * down / up
    scale = min(1.0, to_rate / from_rate) * _ROLLOFF  # cutoff, in cycles per input sample * 2
    reach = math.ceil(_HALF_WIDTH / scale)  # input samples used on each side of an output time
    padded = np.concatenate([np.zeros(reach), x, np.zeros(reach + 1)])
    windows = np.lib.stride_tricks.sliding_window_view(padded, 2 * reach)  # no copy
    n_out = round(len(x) * to_rate / from_rate)
    out = np.empty(n_out, dtype=np.float32)
    if up <= _TABLE_PHASES:
        # Polyphase: every up-th output falls on the same phase between two inputs, down inputs
        # further on; its taps (computed once per pair of rates) meet a strided view of the input.
        table = _phase_table(up, scale, reach)
        for first in range(min(up, n_out)):
            base, phase = divmod(first * down, up)
            count = len(range(first, n_out, up))
            out[first::up] = windows[base + 1 : base + 1 + count * down : down] @ table[phase]
        return out
    for start in range(0, n_out, _BLOCK):
        pos = np.arange(start, min(start + _BLOCK, n_out), dtype=np.int64) * down
        base_of, phase_of = np.divmod(pos, up)
        phases, which = np.unique(phase_of, return_inverse=True)
        weights = _sinc_weights(phases[:, None] / up - _offsets(reach), scale, reach)[which]
        out[start : start + len(pos)] = np.einsum("ij,ij->i", windows[base_of + 1], weights)
    return out


def _offsets(reach: int) -> np.ndarray:
    """The input samples an output time uses, relative to the one at or before it."""
    return np.arange(-reach + 1, reach + 1)[None, :]


@functools.cache
def _phase_table(up: int, scale: float, reach: int) -> np.ndarray:
    """The taps for each of the `up` phases an output time can fall on between two inputs."""
    return _sinc_weights(np.arange(up)[:, None] / up - _offsets(reach), scale, reach)


def _sinc_weights(dist: np.ndarray, scale: float, reach: int) -> np.ndarray:
    """Low-pass sinc taps at distances `dist` (in input samples), Kaiser-windowed over +-reach."""
    window = np.i0(_KAISER_BETA * np.sqrt(np.clip(1.0 - (dist / reach) ** 2, 0.0, None)))
    return scale * np.sinc(scale * dist) * window / np.i0(_KAISER_BETA)


def to_pcm16(samples: np.ndarray) -> np.ndarray:
    """Float samples in [-1, 1] (clipped) or int16 samples as int16 samples."""
    x = np.asarray(samples)
    if x.dtype == np.int16:
        return x
    if not np.issubdtype(x.dtype, np.floating):
        raise ValueError(f"expected float samples in [-1, 1] or int16, got {x.dtype}")
    return np.clip(np.round(x * 32768.0), -32768, 32767).astype(np.int16)


def to_pcm16_bytes(samples: np.ndarray) -> bytes:
    """Convert float samples in [-1, 1] (clipped) or int16 samples to little-endian PCM bytes."""
    return to_pcm16(samples).astype("<i2").tobytes()


def from_pcm16_bytes(pcm16: bytes) -> np.ndarray:
    """16-bit little-endian PCM as float32 samples in [-1, 1).

    >>> from_pcm16_bytes(to_pcm16_bytes(np.array([0.5, -1.0]))).tolist()
    [0.5, -1.0]
    """
    return np.frombuffer(pcm16, "<i2").astype(np.float32) / 32768.0


def write_wav(path: Path, samples: np.ndarray, rate: int) -> Path:
    """Write mono samples (float in [-1, 1], or int16) to `path` as a 16-bit WAV file."""
    with wave.open(str(path), "wb") as wav:
        wav.setnchannels(1)
        wav.setsampwidth(2)
        wav.setframerate(rate)
        wav.writeframes(to_pcm16_bytes(samples))
    return path
