"""The live loop with sounddevice replaced only at the device boundary: real vosk, rules, TTS."""

import subprocess
import sys
import threading
import time

import numpy as np
import pytest
from match_helpers import PLAYERS

from rules.command import Command, Kind
from rules.state import Setup
from rules.vocabulary import Vocabulary
from voice import devices, live
from voice.announcer import Announcer
from voice.audio import TARGET_RATE, read_wav, resample, to_pcm16_bytes
from voice.ledger import Ledger
from voice.loop import LiveLoop
from voice.phrase_table import PhraseTable
from voice.pipeline import Listener
from voice.record import Record
from voice.speak import Synthesiser

# Korean words the Korean test model hears from espeak-ng, standing for Greek phrases.
TABLE = PhraseTable({"엄마": "πόντος", "라디오": "άστοχο"})


def korean(tmp_path, word):
    path = tmp_path / f"{word}.wav"
    subprocess.run(["espeak-ng", "-v", "ko", "-w", str(path), word], check=True)
    samples, rate = read_wav(path)
    return resample(samples, rate, TARGET_RATE)


def recording(tmp_path, words, gap=1.0):
    """The words spoken one after another, each followed by `gap` seconds of silence."""
    silence = np.zeros(int(gap * TARGET_RATE), dtype=np.float32)
    return to_pcm16_bytes(np.concatenate([p for w in words for p in (korean(tmp_path, w),
                                                                      silence)]))


class FakeSoundDevice:
    """Stands in for the sounddevice module: three devices, a mic stream fed from bytes."""

    def __init__(self, pcm=b"", realtime=False):
        self.pcm, self.realtime = pcm, realtime
        self.played: list[tuple[int, int]] = []  # (device index, samples)

    def query_devices(self):
        return [
            {"name": "USB headset mic", "max_input_channels": 1, "max_output_channels": 0,
             "default_samplerate": 48000.0},
            {"name": "Hall PA", "max_input_channels": 0, "max_output_channels": 2,
             "default_samplerate": 48000.0},
            {"name": "USB headset phones", "max_input_channels": 0, "max_output_channels": 2,
             "default_samplerate": 48000.0},
        ]

    def play(self, samples, rate, device, blocking):
        assert blocking and rate > 0 and len(samples) > 1000
        self.played.append((device, len(samples)))

    def RawInputStream(self, samplerate, blocksize, channels, dtype, device, callback):  # noqa: N802
        assert (samplerate, channels, dtype, device) == (TARGET_RATE, 1, "int16", 0)
        return FakeStream(self.pcm, blocksize * 2, callback, self.realtime)


class FakeStream:
    def __init__(self, pcm, step, callback, realtime):
        self.pcm, self.step, self.callback, self.realtime = pcm, step, callback, realtime
        self.active = False
        self.callback_seconds = []

    def __enter__(self):
        self.active = True
        self.thread = threading.Thread(target=self._feed)
        self.thread.start()
        return self

    def _feed(self):
        for start in range(0, len(self.pcm), self.step):
            began = time.perf_counter()
            self.callback(memoryview(self.pcm[start : start + self.step]), self.step // 2, None,
                          None)
            self.callback_seconds.append(time.perf_counter() - began)
            if self.realtime:
                time.sleep(self.step / 2 / TARGET_RATE)
        self.active = False

    def __exit__(self, *exc):
        self.thread.join()


@pytest.fixture
def fake(monkeypatch):
    sd = FakeSoundDevice()
    monkeypatch.setattr(devices, "backend", lambda: sd)
    return sd


def make_loop(tmp_path, korean_model, discipline="three-cushion", clock=time.monotonic):
    record = Record.open(tmp_path / "matches.sqlite3")
    setup = Setup(discipline, 5, PLAYERS)
    ledger = Ledger(record, record.create_match(setup))
    listener = Listener(korean_model, Vocabulary(PLAYERS, setup.rules), table=TABLE)
    outputs = {"pa": devices.DeviceOutput(devices.find("PA", "output", "--pa")),
               "headset": devices.DeviceOutput(devices.find("phones", "output", "--headset"))}
    return LiveLoop(listener, ledger, Announcer(Synthesiser(), outputs), clock), record


def test_spoken_phrases_become_recorded_commands_and_announcements(tmp_path, korean_model, fake):
    fake.pcm = recording(tmp_path, ["엄마", "엄마", "라디오"])
    loop, record = make_loop(tmp_path, korean_model)
    live.listen_to(devices.find("mic", "input", "--mic"), loop)
    loop.close()
    loaded = record.load(loop.ledger.match_id)
    assert [e.command.kind for e in loaded.events] == [Kind.POINT, Kind.POINT, Kind.MISS]
    assert all(e.announced for e in loaded.events)
    assert loaded.match.players[0].points == 2 and loaded.match.at_table == 1
    # Scores on the PA (device 1), the turn prompt on the headset (device 2), in order.
    assert [device for device, _ in fake.played] == [1, 1, 1, 2]  # … «για τρεις» too


def test_the_audio_callback_never_blocks(tmp_path, korean_model, fake):
    fake.pcm = recording(tmp_path, ["엄마", "라디오"], gap=0.5)
    loop, _ = make_loop(tmp_path, korean_model)
    fake.realtime = True
    streams = []
    real = fake.RawInputStream
    fake.RawInputStream = lambda *a, **k: streams.append(real(*a, **k)) or streams[-1]
    live.listen_to(devices.find("mic", "input", "--mic"), loop)
    loop.close()
    assert max(streams[0].callback_seconds) < 0.005  # it only queues bytes
    assert [e.command.kind for e in loop.ledger.record.load(1).events] == [Kind.POINT, Kind.MISS]


def test_the_break_clock_gives_the_warning_and_the_end(tmp_path, korean_model, fake):
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


def test_run_without_a_sound_card_fails_at_once_naming_the_device(tmp_path):
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "voice.cli", "run", "--discipline", "libre", "--distance", "10",
         "--players", "Α,Β", "--model", str(tmp_path / "no-model"), "--mic", "0", "--pa", "1",
         "--headset", "2", "--db", str(tmp_path / "m.sqlite3")],
        capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 2
    assert "--mic '0'" in done.stderr and "no audio input device" in done.stderr
    assert "Traceback" not in done.stderr
    assert time.perf_counter() - started < 10
    assert not (tmp_path / "m.sqlite3").exists()  # nothing was written


def heard(command, early=False, replaces=None):
    from voice.pipeline import Heard

    return Heard("", "", command, 100.0, early=early, replaces=replaces)


def test_a_contradicted_early_commit_is_undone_before_the_final_command(
    tmp_path, korean_model, fake
):
    loop, record = make_loop(tmp_path, korean_model)
    point, miss = Command(Kind.POINT), Command(Kind.MISS)
    loop.act(heard(miss, early=True))
    loop.act(heard(point, replaces=miss))
    loop.close()
    assert [e.command.kind for e in record.load(1).events] == [Kind.MISS, Kind.UNDO, Kind.POINT]
    assert loop.ledger.match.players[0].points == 1 and loop.ledger.match.at_table == 0


def test_a_refused_early_commit_is_not_undone(tmp_path, korean_model, fake):
    loop, record = make_loop(tmp_path, korean_model)
    loop.act(heard(Command(Kind.POINT)))
    loop.act(heard(Command(Kind.RESPOT), early=True))  # refused: no TOUCHENT
    loop.act(heard(Command(Kind.MISS), replaces=Command(Kind.RESPOT)))
    loop.close()
    # The accepted point stays: only the refused early command was wrong.
    assert [e.command.kind for e in record.load(1).events] == [Kind.POINT, Kind.MISS]


def test_run_refuses_a_threshold_outside_0_to_100(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "voice.cli", "run", "--discipline", "libre", "--distance", "10",
         "--players", "Α,Β", "--model", "m", "--mic", "0", "--pa", "1", "--headset", "2",
         "--threshold", "-5"],
        capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 2 and "'-5' is not a confidence from 0 to 100" in done.stderr


def test_run_continuing_a_match_refuses_a_second_set_up(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "voice.cli", "run", "--match", "1", "--discipline", "libre",
         "--model", "m", "--mic", "0", "--pa", "1", "--headset", "2"],
        capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 2
    assert "--match continues a recorded match with its own set-up: drop --discipline" \
        in done.stderr


def test_run_without_a_match_needs_the_whole_set_up(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "voice.cli", "run", "--discipline", "libre", "--model", "m",
         "--mic", "0", "--pa", "1", "--headset", "2"],
        capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 2 and "a new match needs --distance, --players" in done.stderr


def test_run_continues_a_recorded_match_voicing_what_was_never_announced(
    tmp_path, korean_model_dir, fake
):
    from voice import cli

    db = tmp_path / "m.sqlite3"
    with Record.open(db) as record:
        number = record.create_match(Setup("three-cushion", 5, PLAYERS))
        record.append(number, 1, Command(Kind.POINT))  # recorded, then the process died
    table = tmp_path / "table.toml"
    table.write_text('"엄마" = "πόντος"\n"라디오" = "άστοχο"\n', encoding="utf-8")
    fake.pcm = recording(tmp_path, ["엄마", "라디오"])
    code = cli.main(["run", "--match", str(number), "--model", str(korean_model_dir),
                     "--mic", "mic", "--pa", "PA", "--headset", "phones", "--db", str(db),
                     "--phrase-table", str(table)])
    assert code == 0
    with Record.open(db) as record:
        loaded = record.load(number)
    assert [e.command.kind for e in loaded.events] == [Kind.POINT, Kind.POINT, Kind.MISS]
    assert all(e.announced for e in loaded.events)
    # The lost «Παπαδόπουλος ένα», the score on resuming, then «δύο», «για τρεις», the turn.
    assert [device for device, _ in fake.played] == [1, 1, 1, 1, 2]


def test_a_break_recorded_by_another_process_is_timed_by_the_loop(tmp_path, korean_model, fake):
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
