"""One record, many programs: `serve` keeps every lock and every event while others use the file."""

import json
import sqlite3
import subprocess
import time
import urllib.error
import urllib.request
from contextlib import ExitStack, closing

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from rules.command import Command, Kind
from tests.support.match import PLAYERS
from tests.support.server import REFEREE, deleted_files, new_record, started, stored
from voice.match_record.database import Record
from voice.scoreboard.push import POLL_SECONDS

POLL_WAIT = 5.0  # seconds a server may take to show what another process recorded

SURNAMES = ",".join(PLAYERS)


def referee(*args: str, stdin: str = "") -> str:
    """Run the installed `referee` command; its standard output (it must succeed)."""
    done = subprocess.run([str(REFEREE), *args], input=stdin, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


def post(url: str, body: dict[str, object]) -> dict[str, object]:
    request = urllib.request.Request(url, json.dumps(body).encode(),
                                     {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        result: dict[str, object] = json.load(response)
        return result


def seq_shown(url: str, seq: int) -> int:
    """The newest event the board at `url` shows, once it is `seq` (it polls the record) or after
    POLL_WAIT seconds."""
    deadline = time.monotonic() + POLL_WAIT
    while True:
        with urllib.request.urlopen(url, timeout=10) as response:
            shown = int(json.load(response)["seq"])
        if shown == seq or time.monotonic() > deadline:
            return shown
        time.sleep(POLL_SECONDS)


def test_a_second_opening_in_one_process_keeps_the_first_connection_s_locks(tmp_path):
    db = new_record(tmp_path / "m.sqlite3")
    with Record.open(db) as writer, Record.open(db, create=False) as reader:
        writer.append(1, 1, Command(Kind.MISS))
        referee("matches", "--db", str(db))  # another process opens and closes the file
        assert deleted_files("self", db) == []
        writer.append(1, 2, Command(Kind.MISS))
        assert reader.last_seq(1) == 2
    assert [len(events) for events in stored(db)] == [2]


def test_every_command_shares_the_file_with_two_servers_and_nothing_is_lost(tmp_path):
    db = new_record(tmp_path / "m.sqlite3", distance=50)
    phrases = tmp_path / "match.txt"
    phrases.write_text("πόντος\nάστοχο\nάστοχο\n", encoding="utf-8")
    with ExitStack() as stack:
        first, server = stack.enter_context(started(db))
        post(f"{first}/api/matches/1/commands", {"kind": "point"})
        post(f"{first}/api/matches/1/commands", {"kind": "miss"})
        assert "Παπαδόπουλος" in referee("matches", "--db", str(db))
        referee("simulate", "--discipline", "libre", "--distance", "10", "--players", SURNAMES,
                "--input", str(phrases), "--db", str(db))
        assert json.loads(referee("export", "1", "--db", str(db)))["events"]
        referee("correct", "1", "--inning", "1", "--player", PLAYERS[0], "--points", "2",
                "--db", str(db))
        second, other = stack.enter_context(started(db))
        post(f"{second}/api/matches/1/commands", {"kind": "point"})
        post(f"{first}/api/matches/2/commands", {"kind": "point"})
        assert seq_shown(f"{first}/api/matches/1", 4) == 4  # the second server's point
        assert seq_shown(f"{second}/api/matches/2", 4) == 4  # the first server's point
        assert deleted_files(server.pid, db) == deleted_files(other.pid, db) == []
    assert [len(events) for events in stored(db)] == [4, 4]
    with closing(sqlite3.connect(db)) as fresh:
        assert fresh.execute("PRAGMA integrity_check").fetchall() == [("ok",)]



def answer(url: str) -> tuple[int, dict[str, object]]:
    """(status, JSON body) of a GET."""
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def test_serve_answers_503_while_the_record_is_gone_and_serves_it_again_once_back(tmp_path):
    db = new_record(tmp_path / "m.sqlite3")
    with started(db) as (url, server):
        assert answer(f"{url}/api/matches/1")[0] == 200
        db.unlink()
        status, body = answer(f"{url}/api/matches/1")
        assert status == 503 and "was deleted or replaced" in str(body["detail"])
        assert deleted_files(server.pid, db) == []  # it let go of the vanished file
        new_record(db)  # put back (the voice loop writes it back the same way)
        assert answer(f"{url}/api/matches/1")[0] == 200


def test_a_board_following_a_record_that_vanishes_is_closed_and_follows_it_again_once_back(
    tmp_path,
):
    db = new_record(tmp_path / "m.sqlite3")
    with started(db) as (url, _), connect(f"ws{url[4:]}/ws/matches/1") as board:
        assert json.loads(board.recv(timeout=5))["seq"] == 0
        db.unlink()
        with pytest.raises(ConnectionClosed) as closed:
            board.recv(timeout=5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1011
        new_record(db)
        with connect(f"ws{url[4:]}/ws/matches/1") as again:
            assert json.loads(again.recv(timeout=5))["seq"] == 0
