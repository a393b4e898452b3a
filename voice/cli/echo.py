"""`referee echo`: the PA says the zone terms while the microphone listens; how loud its echo is
there is kept for `referee run` with these devices, which then starts knowing it."""

from __future__ import annotations

import argparse
import sys
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from phrases.bank import Channel
from phrases.render import render
from rules.announcement import Announcement, Code
from rules.errors import RefereeError
from rules.zone_kind import ZoneKind
from voice import devices
from voice.cli.arguments import Subcommands, add_command, find_device, settings_from
from voice.hearing.canceller import SILENT_SECONDS, EchoCanceller, PlayedSound, TappedOutput
from voice.hearing.echo_memory import Kept, keep
from voice.hearing.microphone import Microphone
from voice.hearing.recording import Faults
from voice.settings import echoes_path
from voice.speaking.announcer import DEADLINE_SLACK, OUTPUTS
from voice.translation import N_, Foreign, Line, _

if TYPE_CHECKING:
    from voice.hearing.echo_level import EchoLevel
    from voice.speaking.voicing import Voicing

# What the PA says while the echo is measured: the zone terms and the reminders one straight
# after the other (the echo's gain is measured over stretches the PA sounds through), over
# again until enough of it has been measured.
SAID = (*(Announcement(code, variant=ZoneKind.TRIANGLE)
          for code in (Code.ENTREES, Code.DEDANS, Code.RESTEES_DEDANS)),
        *map(Announcement, (Code.A_CHEVAL, Code.TOUCHENT, Code.LIBRES, Code.FOR_FIVE,
                            Code.FOR_THREE)))
ROUNDS = 3  # the terms said at most this many times over


class EchoNotMeasured(RefereeError):
    """The PA played, but too little of it was measured in the microphone."""


def register(sub: Subcommands) -> None:
    """Add `echo` to the command line."""
    parser = add_command(sub, "echo", _("measure how loud the PA's echo is in the referee's "
                                        "microphone, and keep it for `referee run`"))
    parser.add_argument("--mic", help=_("input device id or name part (default: devices.mic)"))
    parser.add_argument("--pa", help=_("the hall's output device (default: devices.pa)"))
    parser.add_argument("--config", type=Path, metavar="PATH",
                        help=_("the hall's settings file: the devices and the voice"))
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """`referee echo`: the devices and the voice checked, the terms said on the PA, the echo
    measured and kept."""
    from voice.speaking.synthesis import Synthesiser
    from voice.speaking.voicing import Voicing

    settings = settings_from(argparse.Namespace(config=args.config, profile=None),
                             mic=args.mic, pa=args.pa)[0]
    mic = find_device(settings.mic, "mic", "input")
    pa = devices.DeviceOutput(find_device(settings.pa, "pa", "output"), OUTPUTS[Channel.PA])
    voicing = Voicing(Synthesiser(voice=settings.voice, rate=settings.rate,
                                  driver=settings.driver),
                      settings.pause_ms, chime=False, target=settings.loudness)
    pa.check()
    microphone = Microphone(mic)
    microphone.check()
    sys.stderr.write(_("the PA says the zone terms while {mic} listens: keep the hall quiet")
                     .format(mic=mic.name) + "\n")
    level, heard = measure(microphone, pa, [terms(voicing, pa.rate)] * ROUNDS)
    gain = level.learned
    if gain is None:
        raise EchoNotMeasured(N_("too little of the PA was measured in {mic}; check that the PA "
                                 "{pa} plays (its volume, its cable) and run it again"),
                              mic=mic.name, pa=pa.device.name)
    kept = Kept(gain, datetime.now(UTC))
    keep(echoes_path(), mic.name, pa.device.name, kept)
    if heard:
        sys.stdout.write(Line(N_("the PA's echo in the microphone: {db:.1f} dB against what it "
                                 "plays; kept for `referee run` with {mic} and {pa}"),
                              db=kept.db, mic=mic.name, pa=pa.device.name).shown() + "\n")
    else:
        sys.stdout.write(Line(N_("the PA is not heard in the microphone ({db:.1f} dB against "
                                 "what it plays, below the microphone's own noise): there is no "
                                 "echo to take out; kept for `referee run` with {mic} and {pa}"),
                              db=kept.db, mic=mic.name, pa=pa.device.name).shown() + "\n")
    return 0


def terms(voicing: Voicing, rate: int) -> np.ndarray:
    """What the PA says while the echo is measured, at `rate`: SAID one straight after the
    other."""
    return np.concatenate([np.trim_zeros(voicing.audio(render(said), rate)) for said in SAID])


def measure(microphone: Microphone, pa: devices.DeviceOutput,
            sounds: list[np.ndarray]) -> tuple[EchoLevel, bool]:
    """Play `sounds` on the PA (until enough is measured) while the microphone is heard through
    an echo canceller fed with them; its echo level, and whether the PA was heard at all."""
    played = PlayedSound()
    canceller = EchoCanceller(played, captured=lambda: microphone.captured_at)
    output = TappedOutput(pa, played)
    stop, watch = threading.Event(), Faults()
    microphone.open()
    listening = threading.Thread(target=microphone.capture,
                                 args=(canceller.clean, lambda: None, stop, watch), daemon=True)
    listening.start()
    try:
        stop.wait(SILENT_SECONDS)  # the microphone's own noise, to tell the PA's echo from it
        for samples in sounds:
            if canceller.level.learned is not None or watch.fault is not None:
                break
            _play(output, samples, pa.rate)
        stop.wait(SILENT_SECONDS)  # its echo's last reverberation
    finally:
        stop.set()
        listening.join()
    if watch.fault is not None:
        raise EchoNotMeasured(N_("{error}; run it again"), error=watch.fault)
    return canceller.level, canceller.audibility.heard


def _play(output: TappedOutput, samples: np.ndarray, rate: int) -> None:
    """Play `samples` on the PA within their length and DEADLINE_SLACK; EchoNotMeasured if the
    PA fails or does not finish by then."""
    seconds = len(samples) / rate + DEADLINE_SLACK
    overrun = threading.Event()
    timer = threading.Timer(seconds, overrun.set)
    timer.start()
    try:
        output.play(samples, rate, overrun)
    except devices.backend().PortAudioError as error:
        raise EchoNotMeasured(N_("the PA failed while it played: {fault}; check it and run it "
                                 "again"), fault=Foreign(error)) from None
    finally:
        timer.cancel()
    if overrun.is_set():
        raise EchoNotMeasured(N_("the PA did not finish playing {seconds:.0f} s of sound in time; "
                                 "check it and run it again"), seconds=len(samples) / rate)
