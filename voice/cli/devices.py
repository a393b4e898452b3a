"""`referee devices`: the audio devices, with the ids that --mic, --pa and --headset take."""

from __future__ import annotations

import argparse
import sys

from voice.cli.arguments import Subcommands, add_command
from voice.devices import Device, devices
from voice.translation import _


def register(sub: Subcommands) -> None:
    """Add `devices` to the command line."""
    parser = add_command(sub, "devices", _("list the audio input and output devices"))
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """`referee devices`."""
    found = devices()
    if not found:
        sys.stdout.write(_("no audio devices: this machine has no sound card (PortAudio found "
                           "none); `referee listen --wav FILE` works without one") + "\n")
    sys.stdout.writelines(line(d) + "\n" for d in found)
    return 0


def line(device: Device) -> str:
    """One device: its id, what it does, its name and default rate."""
    roles = [what.format(count=n) for n, what in ((device.inputs, _("{count} in")),
                                                   (device.outputs, _("{count} out"))) if n]
    return f"{device.index:3d}  {', '.join(roles):<14}  {device.name}  ({device.default_rate:g} Hz)"
