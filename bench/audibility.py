"""Whether the canceller hears the PA in the microphone, moment by moment, in the halls of
`bench/echo.py`: where the PA is heard, how often and how late in a session it was judged not
heard (the microphone then passes untouched: the PA's echo can be taken for a command); where
it is not (−60 dB), how long the canceller acted before it judged so.

    .venv/bin/python bench/audibility.py --draws 0 1 2 3

No recogniser: the PA's sound and the microphone's go to `Audibility` in 100 ms chunks, as the
canceller gives them, over each hall's first `--seconds`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests.support, run from anywhere
sys.path.insert(0, str(Path(__file__).resolve().parent))  # the halls of bench/echo.py

from echo import DELAYS_MS, LEVELS_DB, START, build, sounds

from tests.support.hall import Hall, speech_rms
from voice.audio_signal import to_pcm16
from voice.hearing.audio import CHUNK_MS, TARGET_RATE
from voice.hearing.canceller import Audibility, PlayedSound

ROUNDS = 14  # announcements per hall: enough for its first `--seconds`


def judged(mic: np.ndarray, far: np.ndarray) -> list[bool]:
    """Whether the PA is heard, after each 100 ms chunk of `mic` (`far` played meanwhile)."""
    audibility, step = Audibility(), TARGET_RATE * CHUNK_MS // 1000
    heard = []
    for start in range(0, len(mic) - step + 1, step):
        audibility.note(to_pcm16(mic[start : start + step]), to_pcm16(far[start : start + step]))
        heard.append(audibility.heard)
    return heard


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--draws", type=int, nargs="+", default=[0], help="bench/echo.py's draws")
    parser.add_argument("--seconds", type=float, default=40.0, help="of each hall, from its start")
    args = parser.parse_args()
    referee, pa_sounds = sounds()
    voice_rms = speech_rms(np.concatenate([s for _, s in referee]))
    second = 1000 / CHUNK_MS  # chunks
    print("| PA against the referee | halls | judged not heard after the PA first played: "
          "halls, latest | a PA not heard (−60 dB): judged so, after its first announcement "
          "began (median, latest); judged heard again (halls) |")
    print("| --- | --- | --- | --- |")
    for level in LEVELS_DB:
        lapses, latest, decided, again = 0, 0.0, [], 0
        halls = [number for draw in args.draws
                 for number in range(draw * len(DELAYS_MS), (draw + 1) * len(DELAYS_MS))]
        for number in halls:
            hall = Hall(DELAYS_MS[number % len(DELAYS_MS)], level, voice_rms, seed=number)
            stream = build(hall, ROUNDS, pa_sounds, referee, seed=number)
            length = min(len(stream.mic), round(args.seconds * TARGET_RATE))
            played = PlayedSound(kept_seconds=1e9)
            for at, sound in stream.pa:
                played.add(sound, TARGET_RATE, at)
            heard = judged(stream.mic[:length], played.between(START, length))
            first = round((stream.played[0].started - START) * second)
            lapsed = [at for at in range(first, len(heard)) if not heard[at]]
            lapses += bool(lapsed)
            latest = max(latest, (lapsed[-1] + 1) / second if lapsed else 0.0)
            decided.append((lapsed[0] + 1 - first) / second if lapsed else np.inf)
            again += bool(lapsed) and any(heard[lapsed[0] :])
        quiet = (f"{np.median(decided):.1f} s, {max(decided):.1f} s; {again}"
                 if level == min(LEVELS_DB) else "—")
        print(f"| {level:+d} dB | {len(halls)} | {lapses}, {latest:.1f} s | {quiet} |",
              flush=True)

if __name__ == "__main__":
    main()
