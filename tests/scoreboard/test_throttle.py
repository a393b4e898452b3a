"""Rate limits per address: wrong tokens lock the address out, public reads are counted."""

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tests.support.server import new_record
from voice.match_record.database import Record
from voice.scoreboard.app import create_app
from voice.scoreboard.guard import Hosts
from voice.scoreboard.throttle import Limits, Throttle

TOKEN = "s3cret-token-of-the-hall"
HALL = ("192.0.2.7", 50000)  # an address on the hall's network


@pytest.fixture
def db(tmp_path):
    return new_record(tmp_path / "m.sqlite3")


def client_of(db, limits=None, address=HALL):
    app = create_app(db, TOKEN, Hosts.bound_to("testserver"), limits)
    return TestClient(app, client=address)


def point(client, token):
    return client.post("/api/matches/1/commands", json={"kind": "point"},
                       headers={"Authorization": f"Bearer {token}"})


def test_after_ten_wrong_tokens_in_a_minute_even_the_right_one_waits(db):
    with client_of(db) as client:
        for _ in range(10):
            assert point(client, "not-the-token-at-all").status_code == 401
        for token in ["not-the-token-at-all", TOKEN]:
            reply = point(client, token)
            assert reply.status_code == 429
            assert 1 <= int(reply.headers["Retry-After"]) <= 60
            assert reply.json()["detail"].startswith("too many wrong tokens from this address")
        assert client.get("/api/panels", headers={"Authorization": f"Bearer {TOKEN}"}
                          ).status_code == 429
    with client_of(db, address=("192.0.2.8", 50000)) as other:
        assert point(other, TOKEN).json()["recorded"] == 1  # another address is not locked out
    with Record.open(db) as record:
        assert len(record.load(1).events) == 1


def test_a_missing_token_counts_as_a_wrong_one_and_the_right_one_does_not(db):
    with client_of(db, Limits(wrong_tokens="2/minute")) as client:
        for _ in range(5):
            assert point(client, TOKEN).status_code == 200
        assert client.post("/api/matches/1/commands", json={"kind": "miss"}).status_code == 401
        assert client.post("/api/matches/1/phrases", json={"text": "άστοχο"}).status_code == 401
        assert point(client, TOKEN).status_code == 429


def test_public_reads_beyond_the_limit_are_a_429_and_sockets_are_refused(db):
    with client_of(db, Limits(reads="5/minute")) as client:
        for path in ["/", "/board/1", "/referee/1", "/api/matches", "/api/matches/1/events"]:
            assert client.get(path).status_code == 200, path
        for path in ["/", "/board/1", "/api/matches/1", "/api/matches/1/events", "/api/matches"]:
            reply = client.get(path)
            assert reply.status_code == 429 and reply.headers["Retry-After"], path
        with pytest.raises(WebSocketDisconnect) as closed, client.websocket_connect(
            "/ws/matches/1"
        ):
            pass
        assert closed.value.code == 1013
        assert client.get("/static/board.js").status_code == 200  # files cost nothing to send
        assert point(client, TOKEN).status_code == 200  # reads never lock out control


def test_the_default_read_limit_is_120_a_minute(db):
    with client_of(db) as client:
        assert all(client.get("/api/matches/1").status_code == 200 for _ in range(120))
        assert client.get("/api/matches/1").status_code == 429


def test_reads_from_this_machine_are_not_counted(db):
    with client_of(db, Limits(reads="2/minute"), address=("127.0.0.1", 50000)) as client:
        assert all(client.get("/api/matches/1").status_code == 200 for _ in range(10))
        with client.websocket_connect("/ws/matches/1") as socket:
            assert socket.receive_json()["seq"] == 0


def test_wrong_tokens_from_this_machine_are_counted():
    throttle = Throttle(Limits(wrong_tokens="1/minute"))
    assert throttle.locked("127.0.0.1") is None
    throttle.wrong_token("127.0.0.1")
    assert 1 <= throttle.locked("127.0.0.1") <= 60
    assert throttle.locked("::2") is None
