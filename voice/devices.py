"""Audio devices through sounddevice: listing them and finding the one the user named."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

import numpy as np

from rules.errors import RefereeError
from voice.translation import N_, Foreign, reason

CUT_SECONDS = 0.05  # how often a play looks whether it is cut short
PORTAUDIO_HINT = N_("install PortAudio: apt-get install libportaudio2")
# A device spec that names none or several of the usable devices, by kind and by how many.
UNMATCHED = {
    ("input", False): N_("{role} {spec!r} matches no input device; inputs are {listed}"),
    ("input", True): N_("{role} {spec!r} matches more than one input device; inputs are {listed}"),
    ("output", False): N_("{role} {spec!r} matches no output device; outputs are {listed}"),
    ("output", True): N_("{role} {spec!r} matches more than one output device; outputs are "
                         "{listed}"),
}
NONE_OF_KIND = {
    "input": N_("{role} {spec!r}: this machine has no audio input device (no sound card found)"),
    "output": N_("{role} {spec!r}: this machine has no audio output device (no sound card "
                 "found)"),
}


class DeviceError(RefereeError):
    """An audio device is missing or unusable; the message says which."""


class CannotOpen(DeviceError):
    """An audio device is there but cannot be opened; the message names it and the fault."""


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
        raise DeviceError(N_("cannot load PortAudio ({error}); {hint}"), error=reason(error),
                          hint=PORTAUDIO_HINT) from None
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
        raise NoDevice(NONE_OF_KIND[kind], role=role, spec=spec)
    if spec.isdigit():
        match = [d for d in usable if d.index == int(spec)]
    else:
        match = [d for d in usable if spec.casefold() in d.name.casefold()]
    if len(match) != 1:
        listed = "; ".join(f"{d.index}: {d.name}" for d in usable)
        raise DeviceError(UNMATCHED[kind, bool(match)], role=role, spec=spec, listed=listed)
    return match[0]


def play(samples: Any, rate: int, device: Device, cut: threading.Event | None = None) -> None:
    """Play float or int16 samples on `device` through a stream of its own (sounddevice's play()
    would stop whatever another output plays), returning once they have been played, or within
    CUT_SECONDS of `cut` being set: then the stream is aborted and the rest is never heard."""
    data = np.asarray(samples)
    if data.dtype == np.int16:
        data = data / 32768.0
    data = np.ascontiguousarray(data, np.float32)
    sd = backend()
    finished = threading.Event()
    fed = 0  # samples handed to the sound card so far

    def feed(out: np.ndarray, frames: int, _time: Any, _status: Any) -> None:
        nonlocal fed
        piece = data[fed : fed + frames]
        out[: len(piece), 0] = piece
        out[len(piece) :] = 0
        fed += frames
        if fed >= len(data):
            raise sd.CallbackStop  # what is buffered still plays, then `finished`

    with sd.OutputStream(samplerate=rate, device=device.index, channels=1, dtype="float32",
                         callback=feed, finished_callback=finished.set) as stream:
        while not finished.wait(CUT_SECONDS if cut is not None else None):
            if cut is not None and cut.is_set():
                stream.abort()  # what is buffered is dropped, not played out
                return


class DeviceOutput:
    """An output device as the announcer's `Output`: the PA or the headset."""

    def __init__(self, device: Device, role: str = "output") -> None:
        self.device = device
        self.role = role  # its use, named in errors: "the PA", "the headset"

    @property
    def rate(self) -> int:
        """The device's own sample rate: announcements are resampled to it."""
        return round(self.device.default_rate)

    def check(self) -> None:
        """Open the device's stream and close it, unheard; DeviceError when it cannot be."""
        sd = backend()
        try:
            with sd.OutputStream(samplerate=self.rate, device=self.device.index, channels=1,
                                 dtype="float32"):
                pass
        except sd.PortAudioError as error:
            raise CannotOpen(N_("cannot open {role} {name!r} (id {index}): {fault}"),
                             role=self.role, name=self.device.name, index=self.device.index,
                             fault=Foreign(error)) from None

    def play(self, samples: Any, rate: int, cut: threading.Event | None = None) -> None:
        """Play `samples`, returning once they have been played, or soon after `cut` is set."""
        play(samples, rate, self.device, cut)
