"""Audio devices through sounddevice: listing them and finding the one the user named."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.errors import RefereeError

PORTAUDIO_HINT = "install PortAudio: apt-get install libportaudio2"


class DeviceError(RefereeError):
    """An audio device is missing or unusable; the message says which."""


class NoDevice(DeviceError):
    """The machine has no audio device of the kind asked for."""


@dataclass(frozen=True)
class Device:
    """One audio device as PortAudio reports it."""

    index: int
    name: str
    inputs: int
    outputs: int
    default_rate: float


def backend() -> Any:
    """The sounddevice module; DeviceError when PortAudio is missing."""
    try:
        import sounddevice
    except OSError as error:  # the PortAudio library itself is missing
        raise DeviceError(f"cannot load PortAudio ({error}); {PORTAUDIO_HINT}") from None
    return sounddevice


def devices() -> list[Device]:
    """Every input and output device; empty on a machine without a sound card."""
    sd = backend()
    return [
        Device(i, d["name"], d["max_input_channels"], d["max_output_channels"],
               d["default_samplerate"])
        for i, d in enumerate(sd.query_devices())
    ]


def find(spec: str, kind: str, role: str) -> Device:
    """The device `spec` (an id or part of a name) with `kind` "input" or "output".

    `role` names its use ("--mic", "--pa", "--headset") in the error when there is none.
    """
    found = devices()
    usable = [d for d in found if (d.inputs if kind == "input" else d.outputs) > 0]
    if not usable:
        raise NoDevice(
            f"{role} {spec!r}: this machine has no audio {kind} device (no sound card found)"
        )
    if spec.isdigit():
        match = [d for d in usable if d.index == int(spec)]
    else:
        match = [d for d in usable if spec.casefold() in d.name.casefold()]
    if len(match) != 1:
        listed = "; ".join(f"{d.index}: {d.name}" for d in usable)
        what = "matches no" if not match else "matches more than one"
        raise DeviceError(f"{role} {spec!r} {what} {kind} device; {kind}s are {listed}")
    return match[0]


def play(samples: Any, rate: int, device: Device) -> None:
    """Play int16 samples on `device`, waiting until they have been heard."""
    backend().play(samples, rate, device=device.index, blocking=True)


class DeviceOutput:
    """An output device as the announcer's `Output`: the PA or the headset."""

    def __init__(self, device: Device) -> None:
        self.device = device

    @property
    def rate(self) -> int:
        """The device's own sample rate: announcements are resampled to it."""
        return round(self.device.default_rate)

    def play(self, samples: Any, rate: int) -> None:
        """Play `samples`, returning once they have been played."""
        play(samples, rate, self.device)
