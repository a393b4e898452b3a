"""Korean speech standing in for Greek: a phrase table, espeak-ng's Korean voice, listeners."""

from __future__ import annotations

import subprocess
import wave
from pathlib import Path

import numpy as np

from rules.discipline import discipline
from rules.vocabulary import Vocabulary
from voice.audio_signal import resample, to_pcm16_bytes
from voice.hearing.audio import TARGET_RATE, read_wav
from voice.hearing.listener import Listener
from voice.hearing.phrase_table import PhraseTable
from voice.hearing.recognise import LoadedModel

TABLE = {"엄마": "πόντος", "버스": "έξω", "라디오": "άστοχο", "할아버지": "σκορ",
         "어제": "διόρθωση"}
PLAYERS = ("Παπαδόπουλος", "Κωνσταντίνου")
# Said one after another with pauses: «πόντος» (not complete in libre, «πόντος έξω» may follow),
# then three phrases no longer phrase starts with, which are committed on a partial result.
SCRIPT = ["엄마", "라디오", "엄마 버스", "어제"]
HEARD = [("엄마", "point", False), ("라디오", "miss", True), ("엄마 버스", "point_out", True),
         ("어제", "undo", True)]


def speech(text: str, folder: Path) -> np.ndarray:
    """espeak-ng's Korean voice saying `text`, as float samples at 22050 Hz."""
    path = folder / "say.wav"
    subprocess.run(["espeak-ng", "-v", "ko", "-w", str(path), text], check=True)
    samples, rate = read_wav(path)
    assert rate == 22050
    return samples


def write_wav(path: Path, samples: np.ndarray, rate: int = 22050) -> Path:
    """16-bit mono WAV, with a microphone's faint noise floor (vosk misreads digital silence)."""
    noisy = samples + np.random.default_rng(0).normal(0, 0.0005, len(samples))
    with wave.open(str(path), "wb") as wav:
        wav.setnchannels(1)
        wav.setsampwidth(2)
        wav.setframerate(rate)
        wav.writeframes((np.clip(noisy, -1, 1) * 32767).astype("<i2").tobytes())
    return path


def make_listener(model: LoadedModel, name: str = "libre", **options) -> Listener:
    return Listener(model, Vocabulary(PLAYERS, discipline(name)), table=PhraseTable(TABLE),
                    **options)


def early_listener(model: LoadedModel, **options) -> Listener:
    """Committing complete partials early, and ending utterances on vosk's own endpoint."""
    return make_listener(model, early=True, endpoint_ms=None, **options)


def spoken_pcm(folder: Path, words: list[str], gap: float = 1.0) -> bytes:
    """The Korean words spoken one after another, each followed by `gap` s of silence, as PCM."""
    silence = np.zeros(int(gap * TARGET_RATE), dtype=np.float32)
    parts = []
    for word in words:
        path = folder / f"{word}.wav"
        subprocess.run(["espeak-ng", "-v", "ko", "-w", str(path), word], check=True)
        samples, rate = read_wav(path)
        parts += [resample(samples, rate, TARGET_RATE), silence]
    return to_pcm16_bytes(np.concatenate(parts))


def script_recording(folder: Path) -> Path:
    """SCRIPT spoken at 22050 Hz, each phrase after 0.8 s of quiet, then 1 s of quiet."""
    pause = np.zeros(int(22050 * 0.8), dtype=np.float32)
    parts = [part for text in SCRIPT for part in (pause, speech(text, folder))]
    return write_wav(folder / "script.wav", np.concatenate([*parts, pause, pause[:4410]]))
