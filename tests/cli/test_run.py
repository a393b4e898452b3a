"""`referee run`: its arguments, its devices, and a recorded match continued."""

import re
import signal
import sqlite3
import time
from datetime import datetime

import pytest

from rules.command import Command, Kind
from rules.state import Setup
from tests.support.hall import Hall
from tests.support.korean import spoken_pcm
from tests.support.match import PLAYERS
from tests.support.signals import as_at_a_terminal
from voice.hearing.echo_memory import Kept, keep, recall
from voice.hearing.phrase_table import PhraseTable
from voice.match_record import database
from voice.match_record.database import Record
from voice.settings import echoes_path

# Korean words the Korean test model hears from espeak-ng, standing for Greek phrases.
TABLE = PhraseTable({"엄마": "πόντος", "라디오": "άστοχο"})


def test_run_without_a_sound_card_fails_at_once_naming_the_device(referee, tmp_path):
    started = time.perf_counter()
    done = referee(
        "run", "--discipline", "libre", "--distance", "10",
        "--players", "Α,Β", "--model", str(tmp_path / "no-model"), "--mic", "0", "--pa", "1",
        "--headset", "2", "--db", str(tmp_path / "m.sqlite3"),
    )
    assert done.code == 2
    assert "--mic '0'" in done.err and "no audio input device" in done.err
    assert "Traceback" not in done.err
    assert time.perf_counter() - started < 10
    assert not (tmp_path / "m.sqlite3").exists()  # nothing was written


def test_run_refuses_a_threshold_outside_0_to_100(referee, tmp_path):
    done = referee(
        "run", "--discipline", "libre", "--distance", "10",
        "--players", "Α,Β", "--model", "m", "--mic", "0", "--pa", "1", "--headset", "2",
        "--threshold", "-5",
    )
    assert done.code == 2 and "'-5' is not a confidence from 0 to 100" in done.err


def test_run_continuing_a_match_refuses_a_second_set_up(referee, tmp_path):
    done = referee(
        "run", "--match", "1", "--discipline", "libre",
        "--model", "m", "--mic", "0", "--pa", "1", "--headset", "2",
    )
    assert done.code == 2
    assert "--match continues a recorded match with its own set-up: drop --discipline" \
        in done.err


def test_run_without_a_match_needs_the_whole_set_up(referee, tmp_path):
    done = referee(
        "run", "--discipline", "libre", "--model", "m",
        "--mic", "0", "--pa", "1", "--headset", "2",
    )
    assert done.code == 2 and "a new match needs --distance, --players" in done.err


# The hall's service manager stops it (SIGTERM), or the terminal or SSH session it runs in
# closes (SIGHUP): either way it finishes what is queued and says it stopped.
@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_run_continues_a_recorded_match_voicing_what_was_never_announced(
    referee, tmp_path, korean_model_dir, sound_devices, at_a_terminal, stop
):
    db = tmp_path / "m.sqlite3"
    with Record.open(db) as record:
        number = record.create_match(Setup("three-cushion", 5, PLAYERS))
        record.append(number, 1, Command(Kind.POINT))  # recorded, then the process died
    table = tmp_path / "table.toml"
    table.write_text('"엄마" = "πόντος"\n"라디오" = "άστοχο"\n', encoding="utf-8")
    sound_devices.pcm = spoken_pcm(tmp_path, ["엄마", "라디오"])
    sound_devices.signal_at_end = stop
    done = referee("run", "--match", number, "--model", korean_model_dir, "--mic", "mic",
                   "--pa", "PA", "--headset", "phones", "--db", db, "--phrase-table", table)
    assert done.code == 0, done.err
    assert done.err.endswith("stopped\n")
    with Record.open(db) as record:
        loaded = record.load(number)
        assert record.heartbeat(number).state == "stopped"
    assert [e.command.kind for e in loaded.events] == [Kind.POINT, Kind.POINT, Kind.MISS]
    assert all(e.announced for e in loaded.events)
    # The lost «Παπαδόπουλος ένα», the score on resuming, then «δύο», «για τρεις», the turn
    # and «άστοχο» confirmed on the headset.
    assert sorted(device for device, _ in sound_devices.played) == [1, 1, 1, 1, 2, 2]


def run_args(tmp_path, korean_model_dir, *more):
    table = tmp_path / "table.toml"
    table.write_text('"엄마" = "πόντος"\n"라디오" = "άστοχο"\n', encoding="utf-8")
    return ("run", "--model", korean_model_dir, "--mic", "mic", "--pa", "PA",
            "--headset", "phones", "--db", tmp_path / "m.sqlite3", "--phrase-table", table, *more)


def test_a_microphone_that_cannot_be_opened_stops_run_before_any_match_is_created(
    referee, tmp_path, korean_model_dir, sound_devices
):
    sound_devices.refusals = 1
    done = referee(*run_args(tmp_path, korean_model_dir, "--discipline", "libre",
                             "--distance", "10", "--players", ",".join(PLAYERS)))
    assert done.code == 2 and "Traceback" not in done.err
    error = done.err.splitlines()[-1]  # after the model's report
    assert error.startswith("referee run: error: cannot open the microphone 'USB headset mic' "
                            "(id 0): Error opening RawInputStream")
    assert "check that it is plugged in" in error and done.err.count("error:") == 1
    with Record.open(tmp_path / "m.sqlite3") as record:
        assert record.matches() == []


def test_a_record_that_cannot_be_written_is_found_before_listening(
    referee, tmp_path, korean_model_dir, sound_devices, monkeypatch
):
    monkeypatch.setattr(database, "BUSY_SECONDS", 0.1)
    with Record.open(tmp_path / "m.sqlite3") as record:
        number = record.create_match(Setup("three-cushion", 5, PLAYERS))
    other = sqlite3.connect(tmp_path / "m.sqlite3", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another program holds the record
    done = referee(*run_args(tmp_path, korean_model_dir, "--match", number))
    other.rollback()
    assert done.code == 2 and "database is locked" in done.err
    assert "listening" not in done.err and sound_devices.opens == []


@pytest.fixture
def at_a_terminal():
    """The stop signals as at a terminal, whatever this run inherited (tests.support.signals)."""
    with as_at_a_terminal():
        yield


def test_ctrl_c_stops_run_quietly_keeping_what_was_recorded(
    referee, tmp_path, korean_model_dir, sound_devices, at_a_terminal
):
    sound_devices.pcm = spoken_pcm(tmp_path, ["엄마"])
    sound_devices.realtime = True  # Ctrl-C once the phrase has been said
    sound_devices.signal_at_end = signal.SIGINT
    done = referee(*run_args(tmp_path, korean_model_dir, "--discipline", "libre",
                             "--distance", "10", "--players", ",".join(PLAYERS)))
    assert done.code == 0 and done.err.endswith("stopped\n") and "Traceback" not in done.err
    with Record.open(tmp_path / "m.sqlite3") as record:
        events = record.load(1).events
    assert [e.command.kind for e in events] in ([], [Kind.POINT])  # Ctrl-C may come first
    assert all(e.announced for e in events)


def test_a_voice_that_cannot_speak_stops_run_before_any_match_is_created(
    referee, tmp_path, korean_model_dir, sound_devices
):
    settings = tmp_path / "hall.toml"
    settings.write_text('[speech]\ndriver = "nsss"\n', encoding="utf-8")  # macOS's, not here
    done = referee(*run_args(tmp_path, korean_model_dir, "--discipline", "libre",
                             "--distance", "10", "--players", ",".join(PLAYERS),
                             "--config", settings))
    assert done.code == 2 and "Traceback" not in done.err
    assert done.err.splitlines()[-1].startswith("referee run: error: cannot start nsss through "
                                                "pyttsx3")
    with Record.open(tmp_path / "m.sqlite3") as record:
        assert record.matches() == []
    assert sound_devices.opens == []  # the microphone was not opened either


def test_a_new_match_is_played_in_the_sets_the_hall_sets_unless_sets_is_given(
    referee, tmp_path, korean_model_dir, sound_devices, at_a_terminal
):
    hall = tmp_path / "settings.toml"
    hall.write_text("[match]\nsets = 3\n", encoding="utf-8")
    for more in ((), ("--sets", "5")):
        sound_devices.pcm = spoken_pcm(tmp_path, ["엄마"])
        sound_devices.signal_at_end = signal.SIGTERM
        done = referee(*run_args(tmp_path, korean_model_dir, "--discipline", "libre",
                                 "--distance", "10", "--players", ",".join(PLAYERS),
                                 "--config", hall, *more))
        assert done.code == 0, done.err
    with Record.open(tmp_path / "m.sqlite3") as record:
        assert [record.load(m).setup.sets for m in (1, 2)] == [3, 5]


def test_a_hall_s_even_sets_is_one_line_naming_the_file_and_key(referee, tmp_path):
    hall = tmp_path / "settings.toml"
    hall.write_text("[match]\nsets = 4\n", encoding="utf-8")
    done = referee("run", "--discipline", "libre", "--distance", "10", "--players", "Α,Β",
                   "--model", "m", "--mic", "0", "--pa", "1", "--headset", "2",
                   "--config", hall)
    assert done.code == 2 and len(done.err.strip().splitlines()) == 1
    assert "match.sets = 4: allowed: an odd whole number from 1 to 9" in done.err


@pytest.mark.parametrize("fault,named", [
    ("mic", "cannot open the microphone 'USB headset mic' (id 0): Error opening RawInputStream"),
    ("pa", "cannot open the PA 'Hall PA' (id 1): Error opening OutputStream"),
    ("headset", "cannot open the headset 'USB headset phones' (id 2): Error opening OutputStream"),
])
def test_the_devices_are_opened_and_checked_before_the_model_is_loaded(
    referee, tmp_path, sound_devices, fault, named
):
    if fault == "mic":
        sound_devices.refusals = 1
    else:
        sound_devices.failing = {1 if fault == "pa" else 2}
    # No model there: loaded first, it would be the error.
    done = referee(*run_args(tmp_path, tmp_path / "no-model", "--discipline", "libre",
                             "--distance", "10", "--players", ",".join(PLAYERS)))
    assert done.code == 2 and "Traceback" not in done.err
    error = done.err.splitlines()[-1]
    assert error.startswith(f"referee run: error: {named}")
    assert "check that it is plugged in" in error and "no-model" not in done.err
    with Record.open(tmp_path / "m.sqlite3") as record:
        assert record.matches() == []


@pytest.mark.parametrize("kept", ["none", "measured", "malformed"])
def test_run_starts_with_the_echo_kept_for_its_devices(
    referee, tmp_path, korean_model_dir, sound_devices, at_a_terminal, kept
):
    path = echoes_path()
    if kept == "measured":
        keep(path, "USB headset mic", "Hall PA", Kept(10 ** -1.15, datetime(2026, 12, 4, 17)))
    elif kept == "malformed":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("{", encoding="utf-8")
    sound_devices.pcm = spoken_pcm(tmp_path, ["엄마"])
    sound_devices.signal_at_end = signal.SIGTERM
    done = referee(*run_args(tmp_path, korean_model_dir, "--discipline", "libre",
                             "--distance", "10", "--players", ",".join(PLAYERS)))
    assert done.code == 0 and done.err.endswith("stopped\n"), done.err
    said = {
        "none": "the PA's echo in the microphone is not known yet for these devices: it is "
                "measured as the PA speaks (`referee echo` measures it before the match)",
        "measured": "the PA's echo in the microphone: -11.5 dB, as measured 2026-12-04 ",
        "malformed": f"{path} is not a file of kept echoes; delete it, the next session measures "
                     "the echo again; the echo is measured afresh",
    }[kept]
    assert said in done.err


def test_run_keeps_the_echo_as_it_learns_it_not_only_when_it_stops(
    referee, tmp_path, korean_model_dir, sound_devices, at_a_terminal, monkeypatch
):
    # A session killed never reaches its end: nothing is kept there (EchoKeeper.close a no-op).
    # One block of the PA's echo is enough to learn it here; a hall needs FEW_GAINS.
    monkeypatch.setattr("voice.hearing.echo_level.FEW_GAINS", 1)
    monkeypatch.setattr("voice.cli.kept_echo.EchoKeeper.close", lambda keeper: None)
    sound_devices.pcm = spoken_pcm(tmp_path, ["엄마"], gap=4.0)
    sound_devices.realtime, sound_devices.hall = True, Hall(60, -13, 0.1)
    sound_devices.signal_at_end = signal.SIGTERM
    done = referee(*run_args(tmp_path, korean_model_dir, "--discipline", "libre",
                             "--distance", "10", "--players", ",".join(PLAYERS)))
    assert done.code == 0 and done.err.endswith("stopped\n"), done.err
    kept = recall(echoes_path(), "USB headset mic", "Hall PA")
    said = re.search(r"the PA's echo in the microphone, (-?\d+\.\d) dB, kept for the next "
                     r"session", done.err)
    assert kept is not None and said and float(said.group(1)) == pytest.approx(kept.db, abs=0.06)
    assert -60 < kept.db < 0
