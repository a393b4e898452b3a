"""Stopping a command: Ctrl-C stops it quietly ("stopped", exit code 0), and so does a reader
of its output that leaves early (`| head`); what was recorded is kept either way."""

import json
import signal
import subprocess
import sys
from contextlib import suppress
from pathlib import Path

import pytest

from rules.command import Kind
from tests.support.match import PLAYERS
from tests.support.server import REFEREE, new_record
from voice.cli import resume, simulate
from voice.cli.stopping import on_stop_signal
from voice.match_record.database import Record

ROOT = Path(__file__).resolve().parents[2]
SIGNAL_TESTS = (  # one of each way the tests stop a command with a signal
    "tests/cli/test_run.py::test_ctrl_c_stops_run_quietly_keeping_what_was_recorded",  # in-process
    "tests/cli/test_serve.py::test_sigterm_and_sighup_stop_serve_as_ctrl_c_does_closing_each_board"
    "[SIGHUP]",  # a child process
)


def interrupted_after(*phrases):
    """Standard input that yields `phrases`, then the referee presses Ctrl-C."""
    def lines():
        yield from phrases
        raise KeyboardInterrupt

    return lambda path: (lines(), "<stdin>")


@pytest.mark.parametrize("command", [simulate, resume])
def test_ctrl_c_in_a_command_reading_phrases_stops_it_quietly(
    referee, tmp_path, monkeypatch, command
):
    db = tmp_path / "m.sqlite3"
    if command is resume:
        referee("simulate", "--discipline", "libre", "--distance", "10",
                "--players", ",".join(PLAYERS), "--db", db, stdin="")
    monkeypatch.setattr(command, "read_lines", interrupted_after("πόντος"))
    args = ["--discipline", "libre", "--distance", "10", "--players", ",".join(PLAYERS)]
    done = referee(command.__name__.rpartition(".")[2], *(args if command is simulate else []),
                   "--db", db)
    assert (done.code, done.err) == (0, f"match 1 recorded in {db}\nstopped\n")
    with Record.open(db) as record:
        assert [e.command.kind for e in record.load(1).events] == [Kind.POINT]


def test_the_signal_tests_pass_when_the_suite_starts_with_sigint_and_sighup_ignored(
    tmp_path, korean_model_dir
):
    # As under `nohup` and a script's `&` or some CI runners; each level has a time limit.
    pytest_ = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--timeout", "60",
               "--basetemp", str(tmp_path / "inner"), *SIGNAL_TESTS]
    done = subprocess.run(["bash", "-c", 'trap "" INT HUP; exec "$@"', "bash", *pytest_],
                          cwd=ROOT, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{len(SIGNAL_TESTS)} passed" in done.stdout


@pytest.mark.parametrize("command", ["simulate", "resume"])
def test_a_reader_that_leaves_early_stops_the_command_quietly(tmp_path, command):
    db = tmp_path / "m.sqlite3"
    args = ["resume", "1"] if command == "resume" else [
        "simulate", "--discipline", "libre", "--distance", "10", "--players", ",".join(PLAYERS)]
    if command == "resume":
        new_record(db)
    process = subprocess.Popen([REFEREE, *args, "--jsonl", "--db", db], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    process.stdin.write("πόντος\n")
    process.stdin.flush()
    while json.loads(process.stdout.readline())["code"] != "score":  # `| head`, then it leaves
        pass
    process.stdout.close()
    with suppress(BrokenPipeError):  # it may have gone already
        process.stdin.write("πόντος\n" * 3)
        process.stdin.close()
    assert process.wait(timeout=30) == 128 + signal.SIGPIPE  # as a shell reports `cat` then
    assert process.stderr.read() == f"match 1 recorded in {db}\n"  # and nothing of the pipe
    with Record.open(db) as record:
        events = record.load(1).events
    # The second point is recorded, its announcement unseen: `referee resume` says it.
    assert [(e.command.kind, e.announced) for e in events] == [(Kind.POINT, True),
                                                              (Kind.POINT, False)]


@pytest.fixture
def started_by_nohup():
    """SIGHUP ignored, as `nohup` starts a command, for the test's duration."""
    previous = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    yield
    signal.signal(signal.SIGHUP, previous)


def test_a_long_running_command_started_by_nohup_outlives_its_session(started_by_nohup):
    stops = []
    with on_stop_signal(lambda: stops.append("stop")):
        signal.raise_signal(signal.SIGHUP)  # the SSH session closes: still ignored
        assert stops == []
        signal.raise_signal(signal.SIGTERM)  # the service manager stops it
        assert stops == ["stop"]
    assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN
