"""`referee serve`: who may listen where; a real server sharing the record with the voice loop."""

import argparse
import http.client
import json
import re
import selectors
import signal
import socket
import ssl
import statistics
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
from contextlib import ExitStack, closing
from pathlib import Path

import httpx2
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.support.server import ARTIFACTS, new_record, serving, started, stored
from voice.cli.serve import TOKEN_VARIABLE, check_access, listen, loopback, token_of
from voice.match_record.database import Record
from voice.match_record.ledger import Ledger
from voice.scoreboard.connections import HEADER_SECONDS

LATENCY = 0.2  # seconds from an event recorded by another process to its state on the socket
SAMPLES = 20
TOKEN = "hall-42-of-the-club"
OVERSIZED = 8 * 1024 * 1024  # bytes of a body far over the limit, within what is drained


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
    assert f"--host {host} lets other machines connect: give a token too (--token generate" in err


@pytest.mark.parametrize("host", ["127.0.0.1", "127.3.2.1", "::1", "localhost"])
def test_loopback_needs_no_token(host):
    assert loopback(host)
    check_access(host, None)  # would raise UsageError


@pytest.mark.parametrize("token", ["two words in a token", "κωδικός-του-διαιτητή", "",
                                   "tab\there-and-more-text", "fifteen-chars-x"])
def test_a_token_must_be_long_and_travel_in_a_header(referee, db, token):
    code, _, err = referee("serve", "--db", db, "--token", token)
    assert code == 2
    assert "the token must be 16 or more printable ASCII characters without spaces" in err


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
    with serving(db, "--host", "0.0.0.0", "--token", TOKEN) as url:
        point = json.dumps({"kind": "point"}).encode()
        assert fetch(f"{url}/api/matches/1/commands", point)[0] == 401
        assert fetch(f"{url}/api/matches/1/commands", point,
                     {"Authorization": "Bearer nope"})[0] == 401
        assert fetch(f"{url}/api/matches/1")[1]["seq"] == 0  # nothing was recorded
        status, taken = fetch(f"{url}/api/matches/1/commands", point,
                              {"Authorization": f"Bearer {TOKEN}"})
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


def answer(url, method="GET", path="/", body=None, headers=None, context=None):
    """(status, headers, text) of one request to the server at `url`, headers as given (a
    body is sent as JSON)."""
    split = urllib.parse.urlsplit(url)
    if split.scheme == "https":
        connection = http.client.HTTPSConnection(split.hostname, split.port, timeout=5,
                                                 context=context)
    else:
        connection = http.client.HTTPConnection(split.hostname, split.port, timeout=5)
    json_type = {"Content-Type": "application/json"} if body is not None else {}
    with closing(connection):
        connection.request(method, path, body, {**json_type, **(headers or {})})
        response = connection.getresponse()
        return response.status, response.headers, response.read().decode()


def events_of(db):
    with Record.open(db) as record:
        return record.load(1).events


def test_a_page_of_another_name_or_site_gets_nothing_from_a_real_server(db):
    point = json.dumps({"kind": "point"})
    with serving(db) as url:
        port = urllib.parse.urlsplit(url).port
        for host in ["rebind.example", f"rebind.example:{port}", "192.168.1.20", "hall-pc"]:
            for method, path, body in [("GET", "/api/matches/1", None), ("GET", "/", None),
                                       ("POST", "/api/matches/1/commands", point)]:
                status, _, text = answer(url, method, path, body, {"Host": host})
                assert status == 400 and "only to its own names" in text, (host, path)
        for host in [f"localhost:{port}", f"127.0.0.1:{port}"]:
            assert answer(url, headers={"Host": host})[0] == 200
        status, _, text = answer(url, "POST", "/api/matches/1/commands", point,
                                 {"Origin": "http://rebind.example"})
        assert status == 403 and "own pages" in text
        assert events_of(db) == ()
        status, _, text = answer(url, "POST", "/api/matches/1/commands", point, {"Origin": url})
        assert status == 200 and json.loads(text)["recorded"] == 1


def test_on_every_address_any_address_and_the_allowed_names_are_answered(db):
    with serving(db, "--host", "0.0.0.0", "--token", TOKEN, "--allowed-host", "hall.example") \
            as url:
        for host in ["192.0.2.1:8765", "[2001:db8::1]", "hall.example", socket.gethostname()]:
            assert answer(url, headers={"Host": host})[0] == 200, host
        assert answer(url, headers={"Host": "rebind.example"})[0] == 400


def test_a_body_over_64_kib_is_refused_before_it_is_read(db):
    with serving(db) as url:
        port = urllib.parse.urlsplit(url).port
        for head in [  # the rest of the body never comes: the server must answer without it
            b"Content-Length: 209715200\r\n\r\n" + b" " * 1024,
            b"Transfer-Encoding: chunked\r\n\r\n" + b"".join(
                b"1000\r\n" + b" " * 4096 + b"\r\n" for _ in range(17)
            ),
        ]:
            with socket.create_connection(("127.0.0.1", port), timeout=5) as raw:
                raw.sendall(b"POST /api/matches/1/commands HTTP/1.1\r\nHost: localhost\r\n"
                            b"Content-Type: application/json\r\n" + head)
                assert raw.recv(4096).startswith(b"HTTP/1.1 413 "), head[:40]
    assert events_of(db) == ()


def test_malformed_json_is_a_4xx_and_leaves_no_traceback_in_the_log(db):
    with serving(db) as url:  # serving() fails if the server's log holds a traceback
        for body in [b'{"kind": NaN}', b'{"text": "\\ud800"}', b'{"kind": "point", "frames": '
                     b'[Infinity]}', b'{"kind": "point", "player": "\\udfff"}', b"{"]:
            for path in ["/api/matches/1/commands", "/api/matches/1/phrases"]:
                status, _, _ = answer(url, "POST", path, body)
                assert 400 <= status < 500, (path, body)
    assert events_of(db) == ()


def test_a_websocket_message_over_64_kib_closes_the_connection(db):
    with serving(db) as url, connect(f"ws{url[4:]}/ws/matches/1", max_size=None) as board:
        assert json.loads(board.recv(timeout=5))["seq"] == 0
        board.send(" " * (64 * 1024 + 1))
        with pytest.raises(ConnectionClosed) as closed:
            board.recv(timeout=5)
    assert closed.value.rcvd.code == 1009  # message too big


# The hall's service manager stops it (SIGTERM), or the SSH session it runs in closes (SIGHUP).
@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_sigterm_and_sighup_stop_serve_as_ctrl_c_does_closing_each_board(db, stop):
    with started(db, stop=stop) as (url, process), connect(f"ws{url[4:]}/ws/matches/1") as board:
        assert json.loads(board.recv(timeout=5))["seq"] == 0
        process.send_signal(stop)  # started() checks that it exits with 0, saying "stopped"
        with pytest.raises(ConnectionClosed) as closed:
            board.recv(timeout=5)
    assert closed.value.rcvd is not None  # told it is closing, not cut off


def test_token_generate_prints_a_new_token_and_it_works(db):
    with started(db, "--host", "0.0.0.0", "--token", "generate") as (url, process):
        line = process.stdout.readline()
        assert re.fullmatch(r"token: [A-Za-z0-9_-]{32}\n", line)
        token = line.removeprefix("token: ").strip()
        point = json.dumps({"kind": "point"})
        assert answer(url, "POST", "/api/matches/1/commands", point,
                      {"Authorization": "Bearer wrong-token-of-the-hall"})[0] == 401
        status, _, _ = answer(url, "POST", "/api/matches/1/commands", point,
                              {"Authorization": f"Bearer {token}"})
        assert status == 200


def test_the_token_can_come_from_the_environment_off_the_command_line(db, monkeypatch):
    monkeypatch.setenv(TOKEN_VARIABLE, TOKEN)
    with started(db, "--host", "0.0.0.0") as (url, process):
        assert TOKEN not in " ".join(command_line(process.pid))
        status, _, _ = answer(url, "POST", "/api/matches/1/commands",
                              json.dumps({"kind": "point"}), {"Authorization": f"Bearer {TOKEN}"})
        assert status == 200


def command_line(pid):
    """The process's command line, as `ps` shows it to every user of the machine."""
    return Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")


def test_the_token_comes_from_the_option_the_file_or_the_environment(tmp_path, monkeypatch):
    monkeypatch.delenv(TOKEN_VARIABLE, raising=False)
    kept = tmp_path / "token"
    kept.write_text(f"{TOKEN}\nignored second line\n")
    args = argparse.Namespace(token=None, token_file=None)
    assert token_of(args) is None
    monkeypatch.setenv(TOKEN_VARIABLE, "from-the-environment")
    assert token_of(args) == "from-the-environment"
    assert token_of(argparse.Namespace(token=None, token_file=kept)) == TOKEN
    assert token_of(argparse.Namespace(token="from-the-option-x", token_file=None)) == (
        "from-the-option-x"
    )
    generated = {token_of(argparse.Namespace(token="generate", token_file=None))
                 for _ in range(100)}
    assert len(generated) == 100 and all(len(token) == 32 for token in generated)


def test_a_token_file_that_cannot_be_used_is_one_line(referee, db, tmp_path, monkeypatch):
    monkeypatch.delenv(TOKEN_VARIABLE, raising=False)
    code, _, err = referee("serve", "--db", db, "--token-file", tmp_path / "missing")
    assert code == 2
    assert err == f"referee serve: error: cannot read --token-file {tmp_path / 'missing'}: " \
        "No such file or directory\n"
    short = tmp_path / "short"
    short.write_text("hall-42\n")
    code, _, err = referee("serve", "--db", db, "--token-file", short)
    assert code == 2 and "the token must be 16 or more" in err
    code, _, err = referee("serve", "--db", db, "--token", TOKEN, "--token-file", short)
    assert code == 2 and "not allowed with argument" in err
    monkeypatch.setenv(TOKEN_VARIABLE, "short")
    code, _, err = referee("serve", "--db", db)
    assert code == 2 and "the token must be 16 or more" in err


@pytest.fixture
def certificate(tmp_path):
    """A self-signed certificate for 127.0.0.1 and its key, made by the openssl command line."""
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
         "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1", "-addext",
         "subjectAltName=IP:127.0.0.1", "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )
    return cert, key


def test_https_serves_the_pages_the_api_and_the_socket(db, certificate):
    cert, key = certificate
    trusted = ssl.create_default_context(cafile=str(cert))
    with started(db, "--certfile", str(cert), "--keyfile", str(key)) as (url, _):
        assert url.startswith("https://")
        status, headers, _ = answer(url, path="/board/1", context=trusted)
        assert status == 200 and "frame-ancestors 'none'" in headers["Content-Security-Policy"]
        status, _, text = answer(url, "POST", "/api/matches/1/commands",
                                 json.dumps({"kind": "point"}), {"Origin": url}, trusted)
        assert status == 200 and json.loads(text)["recorded"] == 1
        with connect(f"wss{url[5:]}/ws/matches/1", ssl=trusted) as board:
            assert json.loads(board.recv(timeout=5))["seq"] == 1
        with pytest.raises(http.client.RemoteDisconnected):  # plain HTTP is not answered
            answer(f"http{url[5:]}")


def test_https_needs_a_usable_certificate_and_key(referee, db, certificate, tmp_path):
    cert, key = certificate
    code, _, err = referee("serve", "--db", db, "--certfile", cert)
    assert code == 2 and err == "referee serve: error: HTTPS needs both --certfile and --keyfile\n"
    junk = tmp_path / "junk.pem"
    junk.write_text("not a key\n")
    for pair in [(cert, junk), (tmp_path / "none.pem", key), (key, cert)]:
        code, _, err = referee("serve", "--db", db, "--certfile", pair[0], "--keyfile", pair[1])
        assert code == 2 and err.count("\n") == 1
        assert f"cannot serve HTTPS with --certfile {pair[0]} and --keyfile {pair[1]}: " in err


def test_replies_are_not_held_back_by_nagle_s_algorithm():
    # Without TCP_NODELAY a reply's body waited ~40 ms for the client's delayed ACK.
    bound = listen("127.0.0.1", 0)
    try:
        assert bound.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
    finally:
        bound.close()


def test_a_body_over_the_limit_is_a_413_that_urllib_and_httpx_read(db):
    # Several MiB: more than the socket buffers hold, so a client still sends when the 413 is
    # ready; urllib reads only once all is sent, and saw a reset when the server closed at once.
    body = b'{"text": "' + b"a" * OVERSIZED + b'"}'
    with serving(db) as url, httpx2.Client() as client:
        phrases = f"{url}/api/matches/1/phrases"
        for _ in range(2):
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(urllib.request.Request(phrases, body), timeout=20)
            assert refused.value.code == 413
            assert client.post(phrases, content=body).status_code == 413
            streamed = (body[at:at + 65536] for at in range(0, len(body), 65536))  # chunked
            assert client.post(phrases, content=streamed).status_code == 413
        assert fetch(f"{url}/api/matches/1/commands", b'{"kind": "point"}')[0] == 200
    assert [len(events) for events in stored(db)] == [1]


def test_connections_whose_headers_never_end_are_closed_in_time(db):
    with serving(db) as url, ExitStack() as stack:
        port = int(url.rsplit(":", 1)[1])
        stalled = [
            stack.enter_context(socket.create_connection(("127.0.0.1", port), 5))
            for _ in range(200)
        ]
        for connection in stalled:
            connection.sendall(b"GET /api/matches/1 HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        start = time.monotonic()
        assert fetch(f"{url}/api/matches/1")[0] == 200  # served meanwhile
        with selectors.DefaultSelector() as waiting:
            for connection in stalled:
                waiting.register(connection, selectors.EVENT_READ)
            while waiting.get_map() and time.monotonic() - start < HEADER_SECONDS + 3:
                for key, _ in waiting.select(timeout=0.5):
                    assert key.fileobj.recv(4096) == b""  # closed, with nothing said
                    waiting.unregister(key.fileobj)
            assert not waiting.get_map(), f"{len(waiting.get_map())} of 200 still open"
