"""`referee echo`: the PA's echo in the microphone measured before a match, kept for `run`."""

import json
import os
import re
from pathlib import Path

import numpy as np
import pytest

from tests.support.hall import Hall
from tests.support.sound import PortAudioError, Take
from voice.hearing.audio import TARGET_RATE

QUIET = np.random.default_rng(0).normal(0, 0.0005, 40 * TARGET_RATE)  # the microphone's noise


def kept_file() -> Path:
    return Path(os.environ["XDG_STATE_HOME"]) / "carom-referee" / "echoes.json"


def kept() -> dict:
    return json.loads(kept_file().read_text(encoding="utf-8"))["echoes"]


def measured(referee, sound_devices, level_db):
    """The dB `referee echo` prints for a hall whose PA reaches the microphone at `level_db`
    against a voice of RMS 0.1."""
    sound_devices.takes = [Take((QUIET * 32767).astype("<i2").tobytes())]  # a stream each time
    sound_devices.realtime, sound_devices.hall = True, Hall(60, level_db, 0.1)
    done = referee("echo", "--mic", "mic", "--pa", "PA")
    assert done.code == 0, done.err
    assert "keep the hall quiet" in done.err
    found = re.search(r"the PA's echo in the microphone: (-?\d+\.\d) dB against what it plays; "
                      r"kept for `referee run` with USB headset mic and Hall PA", done.out)
    assert found, done.out
    return float(found.group(1))


def test_the_echo_measured_follows_the_halls_level_and_is_kept(referee, sound_devices):
    low = measured(referee, sound_devices, -13)
    assert kept()["USB headset mic → Hall PA"]["echo_db"] == pytest.approx(low, abs=0.06)
    high = measured(referee, sound_devices, -3)  # the PA turned 10 dB up: measured again
    assert high - low == pytest.approx(10, abs=1.5)
    assert kept()["USB headset mic → Hall PA"]["echo_db"] == pytest.approx(high, abs=0.06)


def test_a_pa_the_microphone_does_not_hear_is_said_so(referee, sound_devices):
    sound_devices.pcm = (QUIET * 32767).astype("<i2").tobytes()
    sound_devices.realtime = True  # no hall: nothing of the PA reaches the microphone
    done = referee("echo", "--mic", "mic", "--pa", "PA")
    assert done.code == 0, done.err
    assert "the PA is not heard in the microphone" in done.out
    assert "there is no echo to take out" in done.out


def test_a_pa_that_cannot_be_opened_is_named_before_anything_is_played(referee, sound_devices):
    sound_devices.failing.add(1)
    done = referee("echo", "--mic", "mic", "--pa", "PA")
    assert done.code != 0 and "cannot open the PA 'Hall PA'" in done.err
    assert "Traceback" not in done.err and not sound_devices.started


def test_a_pa_that_hangs_or_fails_while_it_plays_is_named(referee, sound_devices, monkeypatch):
    sound_devices.takes = [Take((QUIET * 32767).astype("<i2").tobytes())]
    sound_devices.realtime = True
    sound_devices.hanging.add(1)
    done = referee("echo", "--mic", "mic", "--pa", "PA")
    sound_devices.released.set()
    assert done.code != 0 and "Traceback" not in done.err
    assert re.search(r"the PA did not finish playing \d+ s of sound in time; check it", done.err)
    assert not kept_file().exists()

    opened = sound_devices.OutputStream

    def failing_when_played(*args, callback=None, **kwargs):
        if callback is not None:  # opened to play, not to check
            raise PortAudioError("Error opening OutputStream: Device unavailable")
        return opened(*args, callback=callback, **kwargs)

    monkeypatch.setattr(sound_devices, "OutputStream", failing_when_played)
    sound_devices.takes = [Take((QUIET * 32767).astype("<i2").tobytes())]
    done = referee("echo", "--mic", "mic", "--pa", "PA")
    assert done.code != 0 and "Traceback" not in done.err
    assert "the PA failed while it played: Error opening OutputStream: Device unavailable" \
        in done.err


def test_a_microphone_lost_while_the_pa_plays_is_named_and_nothing_kept(referee, sound_devices):
    quiet = (QUIET[: 3 * TARGET_RATE] * 32767).astype("<i2").tobytes()  # 3 s, then no audio
    sound_devices.takes = [Take(quiet, end="stall")]
    sound_devices.realtime, sound_devices.hall = True, Hall(60, -13, 0.1)
    done = referee("echo", "--mic", "mic", "--pa", "PA")
    assert done.code == 2 and "Traceback" not in done.err
    assert "the microphone was lost (no audio for 2 s); run it again" in done.err
    assert not kept_file().exists()
