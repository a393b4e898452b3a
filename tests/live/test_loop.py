"""The live loop with sounddevice replaced only at the device boundary: real vosk, rules, TTS."""

import time

from rules.command import Command, Kind
from rules.state import Setup
from rules.vocabulary import Vocabulary
from tests.support.korean import spoken_pcm
from tests.support.match import PLAYERS
from voice import devices
from voice.hearing.listener import Listener
from voice.hearing.microphone import capture
from voice.hearing.phrase_table import PhraseTable
from voice.live.loop import LiveLoop
from voice.match_record.database import Record
from voice.match_record.ledger import Ledger
from voice.speaking.announcer import Announcer
from voice.speaking.synthesis import Synthesiser

# Korean words the Korean test model hears from espeak-ng, standing for Greek phrases.
TABLE = PhraseTable({"엄마": "πόντος", "라디오": "άστοχο"})


def make_loop(tmp_path, korean_model, discipline="three-cushion", clock=time.monotonic):
    record = Record.open(tmp_path / "matches.sqlite3")
    setup = Setup(discipline, 5, PLAYERS)
    ledger = Ledger(record, record.create_match(setup))
    listener = Listener(korean_model, Vocabulary(PLAYERS, setup.rules), table=TABLE)
    outputs = {"pa": devices.DeviceOutput(devices.find("PA", "output", "--pa")),
               "headset": devices.DeviceOutput(devices.find("phones", "output", "--headset"))}
    return LiveLoop(listener, ledger, Announcer(Synthesiser(), outputs), clock), record


def test_spoken_phrases_become_recorded_commands_and_announcements(
    tmp_path, korean_model, sound_devices
):
    sound_devices.pcm = spoken_pcm(tmp_path, ["엄마", "엄마", "라디오"])
    loop, record = make_loop(tmp_path, korean_model)
    capture(devices.find("mic", "input", "--mic"), loop.on_audio, loop.idle)
    loop.close()
    loaded = record.load(loop.ledger.match_id)
    assert [e.command.kind for e in loaded.events] == [Kind.POINT, Kind.POINT, Kind.MISS]
    assert all(e.announced for e in loaded.events)
    assert loaded.match.players[0].points == 2 and loaded.match.at_table == 1
    # Scores on the PA (device 1), the turn prompt on the headset (device 2), in order.
    assert [device for device, _ in sound_devices.played] == [1, 1, 1, 2]  # … «για τρεις» too


def test_the_audio_callback_never_blocks(tmp_path, korean_model, sound_devices):
    sound_devices.pcm = spoken_pcm(tmp_path, ["엄마", "라디오"], gap=0.5)
    loop, _ = make_loop(tmp_path, korean_model)
    sound_devices.realtime = True
    streams = []
    real = sound_devices.RawInputStream
    sound_devices.RawInputStream = lambda *a, **k: streams.append(real(*a, **k)) or streams[-1]
    capture(devices.find("mic", "input", "--mic"), loop.on_audio, loop.idle)
    loop.close()
    assert max(streams[0].callback_seconds) < 0.005  # it only queues bytes
    assert [e.command.kind for e in loop.ledger.record.load(1).events] == [Kind.POINT, Kind.MISS]


def test_the_break_clock_gives_the_warning_and_the_end(tmp_path, korean_model, sound_devices):
    now = [0.0]
    loop, record = make_loop(tmp_path, korean_model, clock=lambda: now[0])
    loop.ledger.command(Command(Kind.BREAK))
    for second in range(0, 302):
        now[0] = float(second)
        loop.idle()
    loop.close()
    kinds = [(e.command.kind, e.command.seconds) for e in record.load(1).events]
    assert kinds == [(Kind.BREAK, None), (Kind.TICK, 240.0), (Kind.TICK, 300.0)]
    assert loop.ledger.match.pause is None


def heard(command, early=False, replaces=None):
    from voice.hearing.listener import Heard

    return Heard("", "", command, 100.0, early=early, replaces=replaces)


def test_a_contradicted_early_commit_is_undone_before_the_final_command(
    tmp_path, korean_model, sound_devices
):
    loop, record = make_loop(tmp_path, korean_model)
    point, miss = Command(Kind.POINT), Command(Kind.MISS)
    loop.act(heard(miss, early=True))
    loop.act(heard(point, replaces=miss))
    loop.close()
    assert [e.command.kind for e in record.load(1).events] == [Kind.MISS, Kind.UNDO, Kind.POINT]
    assert loop.ledger.match.players[0].points == 1 and loop.ledger.match.at_table == 0


def test_a_refused_early_commit_is_not_undone(tmp_path, korean_model, sound_devices):
    loop, record = make_loop(tmp_path, korean_model)
    loop.act(heard(Command(Kind.POINT)))
    loop.act(heard(Command(Kind.RESPOT), early=True))  # refused: no TOUCHENT
    loop.act(heard(Command(Kind.MISS), replaces=Command(Kind.RESPOT)))
    loop.close()
    # The accepted point stays: only the refused early command was wrong.
    assert [e.command.kind for e in record.load(1).events] == [Kind.POINT, Kind.MISS]


def test_a_break_recorded_by_another_process_is_timed_by_the_loop(
    tmp_path, korean_model, sound_devices
):
    now = [0.0]
    loop, record = make_loop(tmp_path, korean_model, clock=lambda: now[0])
    panel = Ledger(Record.open(record.path), loop.ledger.match_id)  # e.g. the control panel
    panel.command(Command(Kind.BREAK))
    for second in range(0, 302):
        now[0] = float(second)
        loop.idle()
    loop.close()
    kinds = [e.command.kind for e in record.load(1).events]
    assert kinds == [Kind.BREAK, Kind.TICK, Kind.TICK] and loop.ledger.match.pause is None

