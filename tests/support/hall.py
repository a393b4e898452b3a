"""A hall between the PA and the referee's microphone: the PA's sound comes late (the output's
latency and the distance), with the room's reverberation, at a level set against his voice."""

from __future__ import annotations

import numpy as np

from voice.hearing.audio import TARGET_RATE

REVERB_SECONDS = 0.6  # the hall's reverberation time (RT60): 60 dB down after this long


def speech_rms(sound: np.ndarray) -> float:
    """The RMS level of the 10 ms frames with speech in them (within 30 dB of the loudest)."""
    frames = sound[: len(sound) // 160 * 160].reshape(-1, 160)
    power = np.mean(frames.astype(np.float64) ** 2, axis=1)
    return float(np.sqrt(np.mean(power[power > power.max() * 1e-3])))


class Hall:
    """The PA's 16 kHz sound as the microphone hears it: `delay_ms` late, reverberant, and
    `level_db` against `voice_rms` (the referee's speech level at the microphone)."""

    def __init__(self, delay_ms: float, level_db: float, voice_rms: float, seed: int = 0,
                 reverb: float = REVERB_SECONDS) -> None:
        rng = np.random.default_rng(seed)
        tail = np.arange(int(reverb * TARGET_RATE))
        impulse = 0.3 * rng.normal(0, 1, len(tail)) * 10 ** (-3 * tail / len(tail))
        impulse[0] = 1.0  # the direct sound, then the room's reflections
        self.impulse = impulse
        self.delay = int(delay_ms * TARGET_RATE / 1000)
        self.level = voice_rms * 10 ** (level_db / 20)

    def __call__(self, sound: np.ndarray, played: int | None = None) -> np.ndarray:
        """`sound` as the microphone hears it; of it, the first `played` samples alone when it
        was cut short there (at the level the whole sound has)."""
        heard = self._reverberant(sound)
        scale = self.level / speech_rms(heard)
        if played is not None:
            heard = self._reverberant(sound[:played])
        return np.concatenate([np.zeros(self.delay), heard * scale]).astype(np.float32)

    def unheard(self, sound: np.ndarray, played: int) -> np.ndarray:
        """What of `sound` as the microphone hears it never reaches it when it is cut short
        after `played` samples (on the whole sound's samples)."""
        rest, heard = self(sound), self(sound, played)
        rest[: len(heard)] -= heard
        return rest

    def _reverberant(self, sound: np.ndarray) -> np.ndarray:
        size = len(sound) + len(self.impulse) - 1
        spectrum = np.fft.rfft(sound, 2 * size) * np.fft.rfft(self.impulse, 2 * size)
        heard: np.ndarray = np.fft.irfft(spectrum)[:size]
        return heard
