"""`referee devices`: the audio devices and their ids, or a clear line when there are none."""

from __future__ import annotations

import pytest

from voice.cli import devices as devices_command
from voice.devices import Device, DeviceError, devices


@pytest.mark.skipif(bool(devices()), reason="this machine has a sound card")
def test_without_a_sound_card_it_says_so(referee) -> None:
    assert referee("devices") == (
        0, "no audio devices: this machine has no sound card (PortAudio found none); "
        "`referee listen --wav FILE` works without one\n", "")


def test_each_device_is_listed_with_its_id(referee, monkeypatch: pytest.MonkeyPatch) -> None:
    found = [Device(0, "USB headset", 1, 2, 48000.0), Device(3, "HDMI", 0, 8, 44100.0)]
    monkeypatch.setattr(devices_command, "devices", lambda: found)
    code, out, _ = referee("devices")
    assert code == 0
    assert out.splitlines() == ["  0  1 in, 2 out     USB headset  (48000 Hz)",
                                "  3  8 out           HDMI  (44100 Hz)"]


def test_missing_portaudio_is_exit_2(referee, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken() -> list[Device]:
        raise DeviceError("cannot load PortAudio (x); install PortAudio")

    monkeypatch.setattr(devices_command, "devices", broken)
    assert referee("devices") == (
        2, "", "referee devices: error: cannot load PortAudio (x); install PortAudio\n")
