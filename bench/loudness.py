"""How even the PA is: a whole match's announcements, as espeak-ng says them and as the PA plays
them (voice.speaking.voicing), measured at the device's rate with pyloudnorm (ITU-R BS.1770).

Three cadre 47/2 matches to 12 between players with varied names, «Μπλόμνταλ» among them
(spoken forms given): zone terms, LIBRES, TOUCHENT, a break, «για πέντε», the score, the
equalising inning, a tie, the extension and the winner; PA and headset announcements alike.
Also times what levelling adds to a fresh announcement (the speech already synthesised):
pieces, pause, loudness, true peak, limiting, resampling.

    .venv/bin/python bench/loudness.py [--rate 48000]
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import numpy as np
import pyloudnorm

from rules.state import Setup, new_match
from voice.audio_signal import resample
from voice.live.transcript import transcript_phrases
from voice.session import Session
from voice.speaking.loudness import true_peak
from voice.speaking.synthesis import Synthesiser
from voice.speaking.voicing import Voicing

# Varied names: short and long, and «Μπλόμνταλ», whose plosive peaks meet the ceiling first.
SETUPS = [
    Setup("cadre-47-2", 12, ("ΠΑΠΑΔΟΠΟΥΛΟΣ", "Jaspers"), spoken=("Παπαδόπουλος", "Γιάσπερς")),
    Setup("cadre-47-2", 12, ("Μπλόμνταλ", "Ζα"), spoken=("Μπλόμνταλ", "Ζα")),
    Setup("cadre-47-2", 12, ("Χατζηγεωργίου", "Σάγιεκ"), spoken=("Χατζηγεωργίου", "Σάγιεκ")),
]
SCRIPT = list(transcript_phrases(
    (Path(__file__).parents[1] / "tests" / "data" / "cadre_match.txt")
    .read_text(encoding="utf-8").splitlines()
))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rate", type=int, default=48000, help="the output device's rate")
    rate = parser.parse_args().rate
    said = [u for setup in SETUPS for session in [Session(new_match(setup))]
            for text in SCRIPT for u in session.hear(text)]
    speech, meter = Synthesiser(), pyloudnorm.Meter(rate)
    raw, levelled, peaks, clipped, costs = [], [], [], 0, []
    for utterance in said:
        samples, speech_rate = speech.render(utterance.text)
        for piece in utterance.spoken_pieces():
            speech.render(piece)
        plain = resample(samples / 32768.0, speech_rate, rate).astype(np.float64)
        raw.append(meter.integrated_loudness(plain))
        clipped += bool(np.abs(plain).max() >= 1.0)
        started = time.perf_counter()
        audio = Voicing(speech, cache=0).audio(utterance, rate)
        costs.append(time.perf_counter() - started)
        levelled.append(meter.integrated_loudness(audio.astype(np.float64)))
        peaks.append(true_peak(audio, rate))
    print(f"{len(said)} announcements at {rate} Hz")
    print(f"espeak-ng as it is: {min(raw):.2f} to {max(raw):.2f} LUFS, "
          f"spread {max(raw) - min(raw):.2f} LU; {clipped} reach full scale")
    print(f"as the PA plays them: {min(levelled):.2f} to {max(levelled):.2f} LUFS, "
          f"spread {max(levelled) - min(levelled):.2f} LU; highest true peak "
          f"{max(peaks):.2f} dBTP")
    costs.sort()
    print(f"levelling a fresh announcement: median {statistics.median(costs) * 1000:.1f} ms, "
          f"p95 {costs[int(0.95 * (len(costs) - 1))] * 1000:.1f} ms")


if __name__ == "__main__":
    main()
