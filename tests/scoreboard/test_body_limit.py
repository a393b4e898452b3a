"""A body over the limit, on a real uvicorn server on loopback: the 413 comes at once, and the
connection closes once the rest was read, or a bound of bytes or time was reached."""

import http.client
import socket
import time
from contextlib import suppress

import pytest

from tests.support.server import new_record, served_here, stored
from voice.scoreboard import body_limit
from voice.scoreboard.body_limit import MAX_BODY
from voice.scoreboard.connections import ConnectionLimits

PROMPT = 2.0  # seconds: what waits for no bound comes within this
POST = b"POST /api/matches/1/commands HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: %d\r\n\r\n"


@pytest.fixture
def db(tmp_path):
    return new_record(tmp_path / "m.sqlite3")


def answered(connection, length, sent):
    """(status, Connection header) of the answer to a POST announcing `length` bytes of body,
    of which `sent` are sent; it must come at once."""
    connection.sendall(POST % length + b" " * sent)
    start = time.monotonic()
    response = http.client.HTTPResponse(connection)
    response.begin()
    response.read()
    assert time.monotonic() - start < PROMPT
    return response.status, response.getheader("connection")


def closed_after(connection):
    """Seconds until the server closes `connection` (it may reset it: bytes were left unread)."""
    start = time.monotonic()
    with suppress(ConnectionResetError):
        assert connection.recv(4096) == b""
    return time.monotonic() - start


def test_the_413_comes_at_once_and_the_close_waits_for_the_rest_of_the_body(db):
    with served_here(db, ConnectionLimits()) as port, \
            socket.create_connection(("127.0.0.1", port), 5) as connection:
        assert answered(connection, 4 * MAX_BODY, 1024) == (413, "close")
        connection.settimeout(0.5)
        with pytest.raises(TimeoutError):  # still reading: the client may send the rest
            connection.recv(4096)
        connection.settimeout(5)
        connection.sendall(b" " * (4 * MAX_BODY - 1024))
        assert connection.recv(4096) == b""  # closed once all is read: no reset
    assert stored(db) == [()]


def test_a_body_longer_than_the_drain_bound_is_read_no_further(db, monkeypatch):
    monkeypatch.setattr(body_limit, "DRAIN_BYTES", 2 * MAX_BODY)  # the time bound stays long
    with served_here(db, ConnectionLimits()) as port, \
            socket.create_connection(("127.0.0.1", port), 5) as connection:
        assert answered(connection, 100 * MAX_BODY, 3 * MAX_BODY) == (413, "close")
        assert closed_after(connection) < PROMPT
    assert stored(db) == [()]


def test_a_body_that_stops_coming_is_read_no_longer_than_the_time_bound(db, monkeypatch):
    monkeypatch.setattr(body_limit, "DRAIN_SECONDS", 0.5)
    with served_here(db, ConnectionLimits()) as port, \
            socket.create_connection(("127.0.0.1", port), 5) as connection:
        assert answered(connection, 4 * MAX_BODY, 1) == (413, "close")
        assert closed_after(connection) < PROMPT
    assert stored(db) == [()]
