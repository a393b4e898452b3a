"""Takes of the referee's phrases for calibration tests: espeak-ng's Korean voice (standing in
for Greek through the phrase table) in several voice variants and speeds, some with a pause
between the words, with hall noise mixed in at a given signal-to-noise ratio."""

from __future__ import annotations

import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tests.support.korean import write_wav
from voice.audio_signal import resample
from voice.hearing.audio import TARGET_RATE, read_wav

VARIANTS = ("m3", "f2", "klatt", "m7")  # espeak-ng voice variants: different speakers
SPEEDS = (140, 175, 210)  # words per minute


@dataclass(frozen=True)
class Voice:
    """How one take is said: an espeak-ng variant, a speed, a pause between words, the hall."""

    variant: str
    speed: int
    pause_ms: int = 0  # silence put between the words (0: espeak-ng's own joining)
    snr_db: float | None = None  # hall noise mixed in at this SNR (None: a quiet room)


def said(words: str, voice: Voice, seed: int) -> np.ndarray:
    """`words` said in `voice`, at 16 kHz, between 0.5 s of quiet before and 1 s after."""
    parts = [_espeak(w, voice) for w in (words.split() if voice.pause_ms else [words])]
    gap = np.zeros(TARGET_RATE * voice.pause_ms // 1000, dtype=np.float32)
    speech = np.concatenate([x for part in parts for x in (part, gap)][:-1])
    audio = np.concatenate([np.zeros(TARGET_RATE // 2), speech, np.zeros(TARGET_RATE)])
    if voice.snr_db is not None:
        audio = audio + hall_noise(len(audio), seed) * _scale(speech, voice.snr_db)
    return audio.astype(np.float32)


def hall_noise(n: int, seed: int) -> np.ndarray:
    """A sports hall: pink noise (crowd, ventilation) with a slow swell and a 100 Hz hum, at
    unit RMS."""
    rng = np.random.default_rng(seed)
    spectrum = np.fft.rfft(rng.normal(size=n))
    spectrum /= np.sqrt(np.maximum(np.arange(len(spectrum)), 1))
    pink = np.fft.irfft(spectrum, n)
    t = np.arange(n) / TARGET_RATE
    noise = pink / pink.std() * (1 + 0.3 * np.sin(2 * np.pi * 0.7 * t)) \
        + 0.3 * np.sin(2 * np.pi * 100 * t)
    return noise / noise.std()


def _scale(speech: np.ndarray, snr_db: float) -> float:
    """The noise level (RMS) that puts the speech `snr_db` above it."""
    loud = speech[np.abs(speech) > 0.01]
    return float(np.sqrt(np.mean(loud**2)) / 10 ** (snr_db / 20))


def _espeak(text: str, voice: Voice) -> np.ndarray:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "say.wav"
        subprocess.run(["espeak-ng", "-v", f"ko+{voice.variant}", "-s", str(voice.speed),
                        "-w", str(path), text], check=True)
        samples, rate = read_wav(path)
    loud = np.flatnonzero(np.abs(samples) > 0.01)  # without espeak-ng's own quiet around it
    return resample(samples[loud[0] : loud[-1] + 1], rate, TARGET_RATE)


def write_takes(folder: Path, takes: dict[str, list[tuple[str, Voice]]]) -> Path:
    """`<folder>/<phrase>/<n>.wav` for each phrase's (spoken words, voice) takes."""
    for phrase, said_as in takes.items():
        (folder / phrase).mkdir(parents=True, exist_ok=True)
        for number, (words, voice) in enumerate(said_as, 1):
            write_wav(folder / phrase / f"{number}.wav", said(words, voice, seed=number),
                      TARGET_RATE)
    return folder


# A referee as the Korean stand-in hears him: he pauses 250 ms inside «πόντος έξω», and says
# «σκορ» in a way the model hears as two words (Korean «할아버지 버스», «σκορ έξω»).
REFEREE = {"πόντος": ("엄마", 0), "πόντος έξω": ("엄마 버스", 250), "άστοχο": ("라디오", 0),
           "σκορ": ("할아버지 버스", 0)}
HALL_SNR_DB = (20, 10, 5)  # take n of each phrase has the hall noise at the n-th


def referee_takes(folder: Path) -> Path:
    """Three takes of each of REFEREE's phrases, each in another voice variant and speed, the
    hall noise at 20, 10 and 5 dB SNR."""
    return write_takes(folder, {
        phrase: [(words, Voice(VARIANTS[(k + n) % len(VARIANTS)], SPEEDS[(k + n) % len(SPEEDS)],
                               pause, snr))
                 for n, snr in enumerate(HALL_SNR_DB)]
        for k, (phrase, (words, pause)) in enumerate(REFEREE.items())
    })
