"""What one client may hold, on a real uvicorn server on loopback: headers within the time
limit, and no more than its share of connections at once, HTTP and WebSocket alike."""

import http.client
import selectors
import socket
import time
from contextlib import ExitStack, closing, suppress

import pytest
from websockets.sync.client import connect

from tests.support.server import new_record, served_here
from voice.scoreboard.connections import PER_ADDRESS, ConnectionLimits, refusal

HEADERS_WITHIN = 1.0  # seconds: the tests' header time limit
LATE = 1.5  # seconds past a limit that a close may take on a busy machine
PARTIAL = [
    b"", b"G", b"GET /api/matches/1 HTTP/1.1\r\n",
    b"GET /api/matches/1 HTTP/1.1\r\nHost: 127.0.0.1\r\n",
    b"POST /api/matches/1/commands HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Le",
]
REQUEST = b"GET /api/matches/1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"


@pytest.fixture
def db(tmp_path):
    return new_record(tmp_path / "m.sqlite3")


def opened(port, count, stack, source="127.0.0.1"):
    """`count` connections from `source`, closed when `stack` is."""
    return [
        stack.enter_context(socket.create_connection(("127.0.0.1", port), 5, (source, 0)))
        for _ in range(count)
    ]


def until_closed(sockets, seconds, trickle=None):
    """Each socket's seconds until the server closed it and what it had sent, None for those
    still open after `seconds`; `trickle` is sent a byte every 0.2 s meanwhile."""
    start, got = time.monotonic(), {s: b"" for s in sockets}
    closed = {}
    with selectors.DefaultSelector() as waiting:
        for s in sockets:
            waiting.register(s, selectors.EVENT_READ)
        while waiting.get_map() and time.monotonic() - start < seconds:
            for key, _ in waiting.select(timeout=0.2):
                try:
                    data = key.fileobj.recv(4096)
                except ConnectionResetError:
                    data = b""
                got[key.fileobj] += data
                if not data:
                    closed[key.fileobj] = time.monotonic() - start
                    waiting.unregister(key.fileobj)
            if trickle is not None and trickle not in closed:
                with suppress(OSError):  # closed meanwhile
                    trickle.send(b"X")
    return [(closed.get(s), got[s]) for s in sockets]


def answered(connection):
    """The status of the answer the server sends on `connection`, read whole."""
    response = http.client.HTTPResponse(connection)
    response.begin()
    response.read()
    return response.status


def status(port, source="127.0.0.1"):
    """The status of a GET of match 1's state from `source`."""
    with closing(http.client.HTTPConnection("127.0.0.1", port, 5, (source, 0))) as client:
        client.request("GET", "/api/matches/1")
        return client.getresponse().status


def test_a_connection_whose_headers_do_not_come_in_time_is_closed(db):
    with served_here(db, ConnectionLimits(header_seconds=HEADERS_WITHIN)) as port, \
            ExitStack() as stack:
        silent = opened(port, len(PARTIAL), stack)
        for s, partial in zip(silent, PARTIAL, strict=True):
            s.sendall(partial)
        kept_alive, trickled, slow = opened(port, 3, stack)
        kept_alive.sendall(REQUEST)
        assert answered(kept_alive) == 200
        kept_alive.sendall(REQUEST[:20])  # the next request's headers never end
        trickled.sendall(b"GET /api/matches/1 HTTP/1.1\r\n")
        slow.sendall(REQUEST[:20])
        time.sleep(HEADERS_WITHIN / 2)
        slow.sendall(REQUEST[20:])  # slow, but within the limit: answered
        assert answered(slow) == 200
        closes = until_closed([*silent, kept_alive, trickled], HEADERS_WITHIN + LATE, trickled)
    for after, sent in closes:
        assert after is not None and after < HEADERS_WITHIN + LATE, closes
        assert sent == b"", sent[:80]  # nothing more, not even an error page


def test_an_address_holds_no_more_than_its_share_of_connections(db):
    limits = ConnectionLimits(count_loopback=True)
    with served_here(db, limits) as port, ExitStack() as stack:
        held = opened(port, PER_ADDRESS + 8, stack)
        closes = until_closed(held, LATE)
        refused = [sent for after, sent in closes if after is not None]
        assert refused == [refusal()] * 8
        assert status(port, source="127.0.0.2") == 200  # another address is served
        with socket.create_connection(("127.0.0.1", port), 5) as late:
            assert late.recv(4096) == refusal()
        stack.close()
        deadline = time.monotonic() + LATE  # the server sees the closes in its own time
        while status_or_refused(port) != 200 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert status(port) == 200


def test_web_sockets_count_in_the_share_and_give_it_back_when_closed(db):
    limits = ConnectionLimits(count_loopback=True)
    with served_here(db, limits) as port:
        for _ in range(2):  # the second time: every closed connection gave its place back
            with ExitStack() as stack:
                feeds = [
                    stack.enter_context(connect(f"ws://127.0.0.1:{port}/ws/matches/1"))
                    for _ in range(PER_ADDRESS // 2)
                ]
                for feed in feeds:
                    assert '"seq":0' in feed.recv(timeout=5)
                held = opened(port, PER_ADDRESS - len(feeds), stack)
                with socket.create_connection(("127.0.0.1", port), 5) as late:
                    assert late.recv(4096) == refusal()
                assert not [after for after, _ in until_closed(held, 0.2) if after is not None]
            deadline = time.monotonic() + LATE
            while status_or_refused(port) != 200 and time.monotonic() < deadline:
                time.sleep(0.05)


def status_or_refused(port):
    """`status`, or None when the server refused the connection."""
    try:
        return status(port)
    except (http.client.HTTPException, ConnectionError):
        return None
