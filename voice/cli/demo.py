"""`referee demo`: a short match in the Greek voice; into a WAV file without a sound card."""

from __future__ import annotations

import argparse
import sys
from importlib.resources import files
from pathlib import Path
from typing import TextIO

from rules.state import Setup, new_match
from voice import devices
from voice.cli.arguments import Subcommands, add_command, writable_folder
from voice.live.transcript import transcript_phrases
from voice.session import Session
from voice.speaking.printer import WAV_RATE, display_line
from voice.translation import _, ngettext

PLAYERS = ("Παπαδόπουλος", "Κωνσταντίνου")
GAP_SECONDS = 0.4


def register(sub: Subcommands) -> None:
    """Add `demo` to the command line."""
    demo = add_command(sub, "demo", _("play a short demo match through the Greek voice"))
    demo.add_argument(
        "--wav", type=Path, default=Path("demo-wav"),
        help=_("where demo.wav goes when there is no sound card (default: demo-wav; made if "
        "missing; an earlier demo.wav is replaced)"),
    )
    demo.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """`referee demo`."""
    script = files("voice.cli").joinpath("demo.txt").read_text(encoding="utf-8").splitlines()
    speaker = _speaker()
    if speaker is None:
        writable_folder(args.wav, "--wav")  # before a word is said
    demo(script, args.wav, sys.stdout, speaker)
    return 0


def _speaker() -> devices.Device | None:
    try:
        outputs = [d for d in devices.devices() if d.outputs > 0]
    except devices.DeviceError:
        return None
    return outputs[0] if outputs else None


def demo(
    script: list[str], wav_dir: Path, out: TextIO, speaker: devices.Device | None
) -> Path | None:
    """Voice the demo match on `speaker`, or without one into `wav_dir` (returns demo.wav)."""
    import numpy as np  # loaded here, not on every `referee` command

    from voice.audio_signal import write_wav
    from voice.speaking.synthesis import Synthesiser
    from voice.speaking.voicing import Voicing

    session = Session(new_match(Setup("libre", 8, PLAYERS)))
    voice = Voicing(Synthesiser())
    spoken: list[np.ndarray] = []
    rate = round(speaker.default_rate) if speaker is not None else WAV_RATE
    for text in transcript_phrases(script):
        out.write(_("referee: {text}").format(text=text) + "\n")
        for utterance in session.hear(text):
            out.write(f"  {display_line(utterance)}\n")
            if utterance.channel != "pa":
                continue
            samples = voice.audio(utterance, rate)
            if speaker is not None:
                devices.play(samples, rate, speaker)
            spoken.append(samples)
    if speaker is not None:
        out.write(_("spoken on {device}").format(device=speaker.name) + "\n")
        return None
    wav_dir.mkdir(parents=True, exist_ok=True)
    path = wav_dir / "demo.wav"
    gap = np.zeros(int(rate * GAP_SECONDS), dtype=np.float32)
    audio = np.concatenate([part for s in spoken for part in (s, gap)])
    write_wav(path, audio, rate)
    out.write(ngettext("no sound card: {count} announcement, {seconds:.1f} s, in {path}",
                       "no sound card: {count} announcements, {seconds:.1f} s, in {path}",
                       len(spoken)).format(count=len(spoken), seconds=len(audio) / rate,
                                           path=path) + "\n")
    return path
