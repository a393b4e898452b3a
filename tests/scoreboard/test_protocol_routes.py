"""The panel's protocol routes: corrections, and the printable protocol."""

import pytest
from fastapi.testclient import TestClient

from rules.command import Command, Kind
from tests.support.match import A
from tests.support.server import TEST_HOST, new_record, stored
from voice.match_record.database import Record
from voice.match_record.ledger import Ledger
from voice.scoreboard.app import create_app


@pytest.fixture
def db(tmp_path):
    path = new_record(tmp_path / "m.sqlite3")
    with Record.open(path) as record:
        ledger = Ledger(record, 1)
        for kind in (Kind.POINT, Kind.POINT, Kind.MISS, Kind.MISS):
            ledger.command(Command(kind))
    return path


@pytest.fixture
def client(db):
    with TestClient(create_app(db, hosts=TEST_HOST)) as client:
        yield client


def test_a_correction_from_the_panel_is_recorded_and_the_score_announced(client, db):
    reply = client.post("/api/matches/1/corrections",
                        json={"inning": 1, "player": A, "points": 1})
    assert reply.status_code == 200 and reply.json()["recorded"] == 5
    assert reply.json()["utterances"][0]["text"].startswith("διόρθωση")
    assert stored(db)[0][-1].command == Command(Kind.CORRECT, player=A, inning=1, points=1)
    state = client.get("/api/matches/1").json()
    assert state["players"][0]["points"] == 1 and state["players"][0]["highest_run"] == 1


def test_a_forgotten_round_is_inserted_from_the_panel(client, db):
    reply = client.post("/api/matches/1/corrections", json={"inning": 1, "insert": True})
    assert reply.json()["recorded"] == 5
    assert [p["innings"] for p in client.get("/api/matches/1").json()["players"]] == [3, 2]


def test_a_correction_the_rules_refuse_is_answered_and_records_nothing(client, db):
    reply = client.post("/api/matches/1/corrections",
                        json={"inning": 4, "player": A, "points": 1})
    assert reply.status_code == 200 and reply.json()["recorded"] is None
    assert reply.json()["utterances"][0]["code"] == "refused"
    assert len(stored(db)[0]) == 4


def test_a_malformed_correction_is_a_422(client, db):
    for body in ({"inning": 0, "insert": True}, {"inning": 1, "kind": "correct"},
                 {"inning": 1, "insert": 0}, {"inning": 1, "player": A, "points": False},
                 {"inning": "1", "insert": True}):
        assert client.post("/api/matches/1/corrections", json=body).status_code == 422
    assert client.post("/api/matches/1/commands", json={"kind": "correct"}).status_code == 422
    assert len(stored(db)[0]) == 4


def test_the_protocol_is_a_pdf_to_view_and_print(client):
    reply = client.get("/api/matches/1/protocol.pdf")
    assert reply.status_code == 200 and reply.headers["content-type"] == "application/pdf"
    assert reply.content.startswith(b"%PDF") and "inline" in reply.headers["content-disposition"]
    assert client.get("/api/matches/9/protocol.pdf").status_code == 404
