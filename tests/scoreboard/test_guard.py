"""What may reach the app: its own Host names, control from its own pages, no framing."""

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tests.support.server import new_record
from voice.match_record.database import Record
from voice.scoreboard.app import create_app
from voice.scoreboard.guard import Hosts, name_of

TOKEN = "s3cret-token-of-the-hall"


@pytest.fixture
def db(tmp_path):
    return new_record(tmp_path / "m.sqlite3")


def recorded(db):
    with Record.open(db) as record:
        return record.load(1).events


@pytest.mark.parametrize(("header", "name"), [
    ("localhost:8765", "localhost"), ("[::1]:8765", "::1"), ("[::1]", "::1"),
    ("127.0.0.1", "127.0.0.1"), ("Hall-PC.Local.:80", "hall-pc.local"), ("::1", "::1"),
])
def test_the_name_in_a_host_header(header, name):
    assert name_of(header) == name


def test_on_loopback_only_the_loopback_names_and_the_bound_host_are_answered():
    hosts = Hosts.bound_to("127.3.2.1")
    for header in ["localhost:8765", "127.0.0.1:8765", "[::1]:8765", "127.3.2.1:8765"]:
        assert hosts.allow(header), header
    for header in ["rebind.example:8765", "192.168.1.20:8765", "127.0.0.2", "", "[::2]"]:
        assert not hosts.allow(header), header


def test_on_every_address_any_address_is_answered_but_only_our_names():
    hosts = Hosts.bound_to("0.0.0.0", "hall-pc")
    for header in ["192.168.1.20:8765", "[fe80::1]:8765", "hall-pc:8765", "localhost"]:
        assert hosts.allow(header), header
    for header in ["rebind.example:8765", "192-168-1-20.example", "0.0.0.0.example"]:
        assert not hosts.allow(header), header
    assert "0.0.0.0" not in hosts.names


def test_a_request_naming_another_host_is_refused_before_anything_else(db):
    with TestClient(create_app(db)) as client:  # TestClient calls the app "testserver"
        for path in ["/", "/board/1", "/api/matches/1", "/static/board.js"]:
            reply = client.get(path)
            assert reply.status_code == 400 and "only to its own names" in reply.text
        assert client.post("/api/matches/1/commands", json={"kind": "point"}).status_code == 400
        with pytest.raises(WebSocketDisconnect) as closed, client.websocket_connect(
            "/ws/matches/1"
        ):
            pass
        assert closed.value.code == 1008
        local = {"Host": "localhost:8765"}
        assert client.get("/api/matches/1", headers=local).status_code == 200
        with client.websocket_connect("ws://localhost:8765/ws/matches/1") as socket:
            assert socket.receive_json()["seq"] == 0
    assert recorded(db) == ()


@pytest.mark.parametrize("token", [None, TOKEN])
def test_a_control_request_from_another_sites_page_is_a_403(db, token):
    bearer = {"Authorization": f"Bearer {TOKEN}"}
    with TestClient(create_app(db, token, Hosts.bound_to("testserver"))) as client:
        for origin in ["http://rebind.example:8765", "null", "https://testserver",
                       "http://testserver:8080"]:
            for path, body in [("commands", {"kind": "point"}), ("phrases", {"text": "πόντος"})]:
                reply = client.post(f"/api/matches/1/{path}", json=body,
                                    headers={"Origin": origin, **bearer})
                assert reply.status_code == 403, origin
                assert reply.json()["detail"] == (
                    "control requests are taken only from this server's own pages"
                )
        assert recorded(db) == ()
        for origin in [{"Origin": "http://testserver"}, {"Origin": "HTTP://TestServer"}, {}]:
            reply = client.post("/api/matches/1/commands", json={"kind": "point"},
                                headers={**origin, **bearer})
            assert reply.status_code == 200, origin
    assert len(recorded(db)) == 3


def test_every_answer_forbids_framing_and_loads_only_from_this_server(db):
    with TestClient(create_app(db, hosts=Hosts.bound_to("testserver"))) as client:
        for path in ["/", "/board/1", "/referee/1", "/board/2", "/api/matches/1",
                     "/static/overview.js", "/openapi.json"]:
            headers = client.get(path).headers
            policy = dict(
                rule.strip().split(" ", 1) for rule in headers["Content-Security-Policy"].split(";")
            )
            assert policy["frame-ancestors"] == "'none'", path
            assert policy["default-src"] == "'self'"
            assert headers["X-Frame-Options"] == "DENY"
            assert headers["X-Content-Type-Options"] == "nosniff"
            assert headers["Referrer-Policy"] == "no-referrer"
