"""Ctrl-C stops any command quietly: "stopped", exit code 0, what was recorded kept."""

import pytest

from rules.command import Kind
from tests.support.match import PLAYERS
from voice.cli import resume, simulate
from voice.match_record.database import Record


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
    assert (done.code, done.err) == (0, "stopped\n")
    with Record.open(db) as record:
        assert [e.command.kind for e in record.load(1).events] == [Kind.POINT]
