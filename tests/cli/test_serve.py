"""`referee serve`: who may listen where; a real server sharing the record with the voice loop."""

import json
import socket
import statistics
import time
import urllib.error
import urllib.request

import pytest
from websockets.sync.client import connect

from tests.support.server import ARTIFACTS, new_record, serving
from voice.cli.serve import check_access, loopback
from voice.match_record.database import Record
from voice.match_record.ledger import Ledger

LATENCY = 0.2  # seconds from an event recorded by another process to its state on the socket
SAMPLES = 20


@pytest.fixture
def db(tmp_path):
    return new_record(tmp_path / "m.sqlite3", distance=50)




def fetch(url, data=None, headers=None):
    """(status, JSON body) of one HTTP request."""
    request = urllib.request.Request(url, data, {"Content-Type": "application/json",
                                                 **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


@pytest.mark.parametrize("host", ["0.0.0.0", "192.168.1.20", "::", "hall-pc.local"])
def test_listening_beyond_this_machine_needs_a_token(referee, db, host):
    code, _, err = referee("serve", "--db", db, "--host", host)
    assert code == 2
    assert f"--host {host} lets other machines connect: give --token" in err


@pytest.mark.parametrize("host", ["127.0.0.1", "127.3.2.1", "::1", "localhost"])
def test_loopback_needs_no_token(host):
    assert loopback(host)
    check_access(host, None)  # would raise UsageError


@pytest.mark.parametrize("token", ["two words", "κωδικός", "", "tab\there"])
def test_a_token_must_travel_in_a_header(referee, db, token):
    code, _, err = referee("serve", "--db", db, "--token", token)
    assert code == 2 and "--token must be printable ASCII" in err


@pytest.mark.parametrize("port", ["0", "65536", "http", "-1"])
def test_the_port_must_be_a_port(referee, db, port):
    code, _, err = referee("serve", "--db", db, "--port", port)
    assert code == 2
    assert "is not a port number" in err


def test_a_port_in_use_is_reported_in_one_line(referee, db):
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        code, _, err = referee("serve", "--db", db, "--port", port)
    assert code == 2
    assert err == (
        f"referee serve: error: cannot listen on 127.0.0.1:{port}: Address already in use\n"
    )


def test_a_file_that_is_not_a_record_stops_serve_before_it_listens(referee, tmp_path):
    junk = tmp_path / "notes.txt"
    junk.write_text("not a record\n")
    code, _, err = referee("serve", "--db", junk)
    assert code == 2 and "is not a match record" in err
    assert junk.read_text() == "not a record\n"


def test_serve_serves_the_board_page_and_the_api(db):
    with serving(db) as url:
        with urllib.request.urlopen(f"{url}/board/1", timeout=5) as page:
            assert page.headers["Content-Type"].startswith("text/html")
        status, state = fetch(f"{url}/api/matches/1")
    assert status == 200 and state["players"][0]["surname"] == "Παπαδόπουλος"


def test_on_all_interfaces_control_needs_the_token_and_the_board_stays_public(db):
    with serving(db, "--host", "0.0.0.0", "--token", "hall-42") as url:
        point = json.dumps({"kind": "point"}).encode()
        assert fetch(f"{url}/api/matches/1/commands", point)[0] == 401
        assert fetch(f"{url}/api/matches/1/commands", point,
                     {"Authorization": "Bearer nope"})[0] == 401
        assert fetch(f"{url}/api/matches/1")[1]["seq"] == 0  # nothing was recorded
        status, taken = fetch(f"{url}/api/matches/1/commands", point,
                              {"Authorization": "Bearer hall-42"})
        assert status == 200 and taken["recorded"] == 1


def test_an_event_the_voice_loop_records_reaches_the_board_within_200_ms(db):
    delays = []
    with serving(db) as url, connect(f"ws{url[4:]}/ws/matches/1") as board:
        assert json.loads(board.recv(timeout=5))["seq"] == 0
        with Record.open(db) as record:  # this process plays the voice loop
            voice = Ledger(record, 1)
            for seq in range(1, SAMPLES + 1):
                voice.hear("πόντος" if seq % 4 else "άστοχο")
                started = time.monotonic()  # accepted and committed
                state = json.loads(board.recv(timeout=5))
                delays.append(time.monotonic() - started)
                assert state["seq"] == seq
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "board-latency.txt").write_text(
        f"{SAMPLES} events, from the voice loop's committed event to the board's socket: "
        f"median {statistics.median(delays) * 1000:.0f} ms, max {max(delays) * 1000:.0f} ms\n"
    )
    assert max(delays) < LATENCY
