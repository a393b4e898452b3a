"""The echo guard with the PA's own synthesised audio reaching the microphone (Korean stand-in).

The fake sound card mixes what the PA plays into the microphone at -10 dB, as a hall's
loudspeaker reaches a headset microphone; the recogniser is the real Korean vosk model.
"""

import subprocess
import time

import numpy as np

from rules.command import Kind
from rules.state import Setup
from rules.vocabulary import Vocabulary
from tests.support.korean import spoken_pcm
from tests.support.match import PLAYERS
from voice import devices
from voice.audio_signal import resample
from voice.hearing.audio import read_wav
from voice.hearing.listener import Listener
from voice.hearing.microphone import Microphone
from voice.hearing.phrase_table import PhraseTable
from voice.live.echo import EchoGuard
from voice.live.loop import LiveLoop
from voice.match_record.database import Record
from voice.match_record.ledger import LiveLedger
from voice.speaking.announcer import Announcer

TABLE = PhraseTable({"엄마": "πόντος", "버스": "τους"})
ECHO = 0.3  # the PA at the referee's microphone, against his own voice: about -10 dB


class KoreanPA:
    """The PA's voice in the Korean stand-in: a text the referee also says is spoken in Korean
    (so that its echo is heard as that phrase); any other is 1.5 s of the PA talking softly."""

    def __init__(self, folder):
        self.folder = folder

    def audio(self, utterance, rate):
        word = {"τους": "버스"}.get(utterance.text)
        if word is None:
            return np.full(int(1.5 * rate), 0.002, np.float32)
        path = self.folder / "pa.wav"
        subprocess.run(["espeak-ng", "-v", "ko", "-w", str(path), word], check=True)
        samples, source = read_wav(path)
        return resample(samples, source, rate).astype(np.float32)


def play_match(tmp_path, korean_model, sound_devices, guarded):
    """The referee says «τους» (TOUCHENT, in libre), then «πόντος» while the PA still talks."""
    sound_devices.pcm = (spoken_pcm(tmp_path, ["버스"], gap=1.0)
                         + spoken_pcm(tmp_path, ["엄마"], gap=2.5))
    sound_devices.realtime, sound_devices.echo = True, ECHO
    record = Record.open(tmp_path / f"{guarded}.sqlite3")
    setup = Setup("libre", 50, PLAYERS)
    lines, heard = [], []
    ledger = LiveLedger(record, record.create_match(setup), lines.append)
    listener = Listener(korean_model, Vocabulary(PLAYERS, setup.rules), table=TABLE)
    outputs = {"pa": devices.DeviceOutput(devices.find("PA", "output", "--pa")),
               "headset": devices.DeviceOutput(devices.find("phones", "output", "--headset"))}
    announcer = Announcer(KoreanPA(tmp_path), outputs)
    echo = EchoGuard(lambda: announcer.on_pa, listener.vocabulary.parse, lag_ms=150)
    loop = LiveLoop(listener, ledger, announcer, echo=echo if guarded else None,
                    log=lines.append)
    act = loop.act
    loop.act = lambda h: heard.append((h.command.kind, time.monotonic())) or act(h)
    microphone = Microphone(devices.find("mic", "input", "--mic"))
    microphone.open()
    microphone.capture(loop.on_audio, loop.idle, sound_devices.finished, loop)
    loop.close()
    return [e.command.kind for e in record.load(1).events], lines, heard, announcer.on_pa


def test_the_pas_echo_is_not_taken_and_the_referee_speaking_over_the_pa_is(
    tmp_path, korean_model, sound_devices
):
    kinds, lines, heard, on_pa = play_match(tmp_path, korean_model, sound_devices, True)
    assert kinds == [Kind.TOUCHENT, Kind.POINT]
    assert [kind for kind, _ in heard][:2] == [Kind.TOUCHENT] * 2  # the echo was heard …
    assert "not taken: «τους» is the PA's echo of «τους»" in lines  # … and not taken
    said_at = dict((k, at) for k, at in heard)[Kind.POINT] - 0.15
    assert any(p.started <= said_at <= p.ended for p in on_pa)  # «πόντος» while the PA talked


def test_without_the_guard_the_echo_is_taken_again_and_again(
    tmp_path, korean_model, sound_devices
):
    kinds, _, _, _ = play_match(tmp_path, korean_model, sound_devices, False)
    # The «τους» the PA says is heard as a new TOUCHENT, which the PA says again, and so on.
    assert kinds[:2] == [Kind.TOUCHENT] * 2 and Kind.POINT in kinds
