"""The scoreboard's HTTP API and WebSocket, in-process with FastAPI's test client."""

import json
import re
import sqlite3
import time
from contextlib import closing

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from rules.command import Command, Kind
from rules.state import Setup
from tests.support.match import PLAYERS, A, B
from tests.support.server import TEST_HOST, new_record, stored
from voice import translation
from voice.match_record.database import Record
from voice.match_record.ledger import Ledger
from voice.scoreboard.app import MAX_BODY, create_app
from voice.speaking.printer import utterance_json

TOKEN = "s3cret-token-of-the-hall"
LATENCY = 0.2  # seconds from an event recorded elsewhere to its state on the WebSocket


@pytest.fixture
def db(tmp_path):
    return new_record(tmp_path / "m.sqlite3")


@pytest.fixture
def client(db):
    with TestClient(create_app(db, hosts=TEST_HOST)) as client:
        yield client


@pytest.fixture
def guarded(db):
    with TestClient(create_app(db, token=TOKEN, hosts=TEST_HOST)) as client:
        yield client


def post(client, kind, match=1, **fields):
    return client.post(f"/api/matches/{match}/commands", json={"kind": kind, **fields})


def test_the_state_is_the_match_summary_and_the_board_fields(client):
    for _ in range(5):
        post(client, "point")
    post(client, "entrees")
    state = client.get("/api/matches/1").json()
    assert [p["points"] for p in state["players"]] == [5, 0]
    assert state["players"][0]["reminder"]["display"] == "ΓΙΑ ΠΕΝΤΕ"
    assert state["call"][0]["display"] == "ENTRÉES" and state["call"][0]["text"] == "αντρέ"
    assert state["turn"] == A and state["run"] == 5 and state["seq"] == 6
    assert state["break"] is None and state["break_started"] is None
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT[\d:.]+\+00:00", state["now"])


def test_a_command_returns_what_simulate_would_print_and_is_recorded(client, db):
    reply = post(client, "point")
    assert reply.status_code == 200
    body = reply.json()
    assert body["recorded"] == 1
    with Record.open(db) as record:
        ledger = Ledger(record, record.create_match(Setup("libre", 10, PLAYERS)))
        expected = [json.loads(utterance_json(u)) for u in ledger.hear("πόντος")]
    assert body["utterances"] == expected
    events = stored(db)[0]
    assert [e.command for e in events] == [Command(Kind.POINT)]
    assert events[0].announced  # the reply carried its announcements


def test_a_phrase_goes_the_voice_path(client, db):
    body = client.post("/api/matches/1/phrases", json={"text": "ΠΟΝΤΟΣ"}).json()
    assert body["recorded"] == 1 and body["utterances"][0]["display"] == f"{A} 1"
    body = client.post("/api/matches/1/phrases", json={"text": "καλημέρα"}).json()
    assert body == {"recorded": None, "utterances": [
        {"code": "not_understood", "channel": "headset", "text": "δεν κατάλαβα",
         "display": "δεν κατάλαβα", "player": None, "points": None}
    ]}
    assert len(stored(db)[0]) == 1


def test_a_command_the_rules_refuse_is_answered_and_records_nothing(client, db):
    body = post(client, "respot").json()
    assert body["recorded"] is None
    assert [u["code"] for u in body["utterances"]] == ["refused"]
    assert body["utterances"][0]["channel"] == "headset"
    assert stored(db) == [()]


def test_commands_carry_their_fields(client, db):
    post(client, "miss")
    body = post(client, "break", player=A).json()  # not his turn: refused with the reason
    assert body["utterances"][0]["display"].startswith("διάλειμμα όχι")
    assert post(client, "ball_off", balls=["red"], covered=[["red", "white"]]).json()["recorded"]
    assert stored(db)[0][-1].command == Command(Kind.BALL_OFF, balls=("red",),
                                                covered=(("red", "white"),))


@pytest.mark.parametrize(
    "body",
    [
        {"kind": "tick", "seconds": 400},
        {"kind": "nonsense"},
        {},
        {"kind": "point", "seconds": 3},
        {"kind": "point", "colour": "red"},
        {"kind": "ball_off", "balls": ["blue"]},
        {"kind": "entrees", "frames": [3, 3]},
        {"kind": "entrees", "frames": [0]},
        {"kind": "entrees", "frames": [1, 2, 3]},
        {"kind": "starts", "player": 7},
        "πόντος",
    ],
)
def test_a_malformed_command_is_a_422_and_changes_nothing(client, db, body):
    reply = client.post("/api/matches/1/commands", json=body)
    assert reply.status_code == 422 and reply.json()["detail"]
    assert stored(db) == [()]


def test_a_body_that_is_not_json_is_refused(client, db):
    reply = client.post("/api/matches/1/commands", content=b'{"kind": "point"}',
                        headers={"Content-Type": "text/plain"})
    assert reply.status_code == 422
    assert stored(db) == [()]


@pytest.mark.parametrize("path", ["/api/matches/2", "/api/matches/2/events", "/board/2",
                                  "/referee/2"])
def test_an_unknown_match_is_a_404_that_says_so(client, path):
    reply = client.get(path)
    assert reply.status_code == 404
    assert "there is no match 2" in reply.text


@pytest.mark.parametrize("path", ["/api/matches/0", "/api/matches/9223372036854775808",
                                  "/api/matches/x", "/board/-1"])
def test_a_match_number_out_of_range_is_a_422(client, path):
    assert client.get(path).status_code == 422


def test_a_control_request_for_an_unknown_match_is_a_404_and_changes_nothing(client, db):
    assert client.post("/api/matches/2/commands", json={"kind": "point"}).status_code == 404
    assert client.post("/api/matches/2/phrases", json={"text": "πόντος"}).status_code == 404
    assert stored(db) == [()]


def test_events_list_the_record(client):
    post(client, "point")
    post(client, "ball_off", balls=["red", "white"])
    post(client, "undo")
    events = client.get("/api/matches/1/events").json()
    assert [e["seq"] for e in events] == [1, 2, 3]
    assert [e["command"] for e in events] == [
        {"kind": "point"}, {"kind": "ball_off", "balls": ["red", "white"]}, {"kind": "undo"}
    ]
    assert all(e["announced"] and e["created"].endswith("+00:00") for e in events)


@pytest.mark.parametrize(
    "headers",
    [{}, {"Authorization": "Bearer wrong"}, {"Authorization": TOKEN},
     {"Authorization": f"Basic {TOKEN}"}, {"Authorization": "Bearer πόντος".encode()}],
)
def test_without_the_token_a_control_request_is_refused_and_changes_nothing(guarded, db, headers):
    for path, body in [("commands", {"kind": "point"}), ("phrases", {"text": "πόντος"}),
                       ("commands", {"kind": "nonsense"})]:
        reply = guarded.post(f"/api/matches/1/{path}", json=body, headers=headers)
        assert reply.status_code == 401, reply.text
        assert reply.headers["WWW-Authenticate"] == "Bearer"
        assert "token" in reply.json()["detail"]
    assert stored(db) == [()]


def test_with_the_token_control_works_and_the_board_stays_public(guarded, db):
    bearer = {"Authorization": f"Bearer {TOKEN}"}
    reply = guarded.post("/api/matches/1/commands", json={"kind": "point"}, headers=bearer)
    assert reply.json()["recorded"] == 1
    for path in ["/api/matches/1", "/api/matches/1/events", "/board/1", "/referee/1",
                 "/static/board.js"]:
        assert guarded.get(path).status_code == 200
    with guarded.websocket_connect("/ws/matches/1") as socket:
        assert socket.receive_json()["seq"] == 1


def test_the_schema_describes_the_api_and_its_token(guarded, client):
    schema = guarded.get("/openapi.json").json()
    assert set(schema["paths"]) == {
        "/api/matches", "/api/matches/{match}", "/api/matches/{match}/events",
        "/api/matches/{match}/commands", "/api/matches/{match}/phrases", "/api/panels",
        "/api/matches/{match}/corrections", "/api/matches/{match}/protocol.pdf",
    }
    assert schema["paths"]["/api/matches/{match}/commands"]["post"]["security"]
    assert schema["paths"]["/api/panels"]["get"]["security"]
    assert "security" not in schema["paths"]["/api/matches/{match}"]["get"]
    assert "tick" not in schema["components"]["schemas"]["Control"]["enum"]
    open_schema = client.get("/openapi.json").json()
    assert "security" not in open_schema["paths"]["/api/matches/{match}/commands"]["post"]


def test_the_pages_load_nothing_from_elsewhere(client):
    for path in ["/board/1", "/referee/1", "/static/board.js", "/static/referee.js",
                 "/static/feed.js", "/static/board.css", "/static/referee.css"]:
        text = client.get(path).text
        assert not re.search(r"(https?:)?//[a-z0-9]", text.replace("://${location.host}", ""))
    assert 'src="/static/board.js"' in client.get("/board/1").text


def test_the_websocket_sends_the_state_then_each_change_made_by_another_connection(client, db):
    with client.websocket_connect("/ws/matches/1") as socket:
        assert socket.receive_json()["seq"] == 0
        with Record.open(db) as record:  # another writer: the voice loop's connection
            voice = Ledger(record, 1)
            for seq in range(1, 4):
                voice.hear("πόντος")
                started = time.monotonic()  # accepted and committed
                state = socket.receive_json()
                assert time.monotonic() - started < LATENCY
                assert state["seq"] == seq and state["players"][0]["points"] == seq
            voice.hear("άστοχο")
            assert socket.receive_json()["turn"] == B


@pytest.mark.parametrize(("match", "code"), [("5", 4404), ("0", 1008), ("x", 1008)])
def test_a_websocket_for_no_recorded_match_is_closed(client, match, code):
    with pytest.raises(WebSocketDisconnect) as closed, client.websocket_connect(
        f"/ws/matches/{match}"
    ):
        pass
    assert closed.value.code == code


@pytest.fixture
def unreadable(db):
    """Match 2, whose record holds an event this version cannot read."""
    with Record.open(db) as record:
        record.create_match(Setup("libre", 10, PLAYERS))
    with closing(sqlite3.connect(db)) as raw, raw:
        raw.execute("INSERT INTO events VALUES (2, 1, '{\"kind\": \"warp\"}', 'now', 0)")
    return 2


def test_a_match_that_cannot_be_read_is_a_503_that_says_why(client, unreadable):
    for reply in (client.get("/api/matches/2"), post(client, "point", match=2)):
        assert reply.status_code == 503
        assert "event 1 of match 2" in reply.json()["detail"]
    with pytest.raises(WebSocketDisconnect) as closed, client.websocket_connect("/ws/matches/2"):
        pass
    assert closed.value.code == 1011


def test_no_documentation_page_loads_scripts_from_the_internet(client):
    assert client.get("/docs").status_code == 404
    assert client.get("/redoc").status_code == 404
    assert client.get("/openapi.json").status_code == 200


def test_a_body_over_64_kib_is_a_413_and_changes_nothing(client, db):
    padded = b'{"kind": "point"' + b" " * (MAX_BODY - 17) + b"}"
    assert len(padded) == MAX_BODY
    json_type = {"Content-Type": "application/json"}
    assert client.post("/api/matches/1/commands", content=padded, headers=json_type).json()[
        "recorded"
    ] == 1
    for path in ["commands", "phrases"]:
        reply = client.post(f"/api/matches/1/{path}", content=padded + b" ", headers=json_type)
        assert reply.status_code == 413
    streamed = (b" " * 4096 for _ in range(MAX_BODY // 4096 + 1))  # chunked, no Content-Length
    reply = client.post("/api/matches/1/commands", content=streamed, headers=json_type)
    assert reply.status_code == 413
    assert len(stored(db)[0]) == 1


def test_a_refusal_is_in_the_halls_language(guarded):
    translation.use("el")
    try:
        reply = guarded.post("/api/matches/1/commands", json={"kind": "point"})
    finally:
        translation.use("en")
    assert reply.status_code == 401
    assert reply.json()["detail"] == ("ο έλεγχος χρειάζεται το διακριτικό του διαιτητή: "
                                      "Authorization: Bearer <token>")


def test_a_body_over_the_limit_is_refused_in_the_halls_language(client):
    padded = b'{"kind": "point"' + b" " * MAX_BODY + b"}"
    streamed = (b" " * 4096 for _ in range(MAX_BODY // 4096 + 1))  # refused by another layer
    translation.use("el")
    try:
        replies = [client.post("/api/matches/1/commands", content=body,
                               headers={"Content-Type": "application/json"})
                   for body in (padded, streamed)]
    finally:
        translation.use("en")
    assert [(r.status_code, r.json()) for r in replies] == [(413, {
        "detail": "το σώμα ξεπερνά τα 64 KiB: μια εντολή πιάνει μερικές δεκάδες byte"})] * 2
