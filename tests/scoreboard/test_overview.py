"""The hall overview: every match with its score and board; the panels for the token holder."""

import sqlite3
from contextlib import closing
from urllib.parse import parse_qs, urlsplit

import pytest
from fastapi.testclient import TestClient

from rules.state import Setup
from tests.support.match import PLAYERS, A
from tests.support.server import new_record
from voice.match_record.database import Record
from voice.scoreboard.app import create_app
from voice.scoreboard.guard import Hosts
from voice.scoreboard.qr import qr_svg

TOKEN = "a+b#c%d&e/f=g 0123456"  # the link must carry what a header may (spaces aside)
TOKEN = TOKEN.replace(" ", "-")


@pytest.fixture
def db(tmp_path):
    db = new_record(tmp_path / "m.sqlite3")
    with Record.open(db) as record:
        record.create_match(Setup("three-cushion", 15, PLAYERS))
        record.create_match(Setup("libre", 10, PLAYERS))
    with closing(sqlite3.connect(db)) as raw, raw:  # match 3 cannot be replayed
        raw.execute("INSERT INTO events VALUES (3, 1, '{\"kind\": \"warp\"}', 'now', 0)")
    return db


def client_of(db, token=None):
    return TestClient(create_app(db, token, Hosts.bound_to("testserver")))


def test_the_overview_page_is_served_at_the_root(db):
    with client_of(db) as client:
        page = client.get("/")
    assert page.status_code == 200 and page.headers["Content-Type"].startswith("text/html")
    assert 'src="/static/overview.js"' in page.text


def test_the_matches_are_listed_with_their_scores(db):
    with client_of(db) as client:
        client.post("/api/matches/2/phrases", json={"text": "ξεκινά " + A})
        client.post("/api/matches/2/commands", json={"kind": "point"})
        listed = client.get("/api/matches").json()
        assert listed == [client.get(f"/api/matches/{m}").json() | {"now": s["now"]}
                          for m, s in zip([1, 2], listed, strict=True)]
    assert [state["discipline"] for state in listed] == ["libre", "three-cushion"]
    assert [p["points"] for p in listed[1]["players"]] == [1, 0]


def test_the_panels_need_the_token_and_carry_it(db):
    with client_of(db, TOKEN) as client:
        assert client.get("/api/panels").status_code == 401
        assert client.get("/api/panels", headers={"Authorization": "Bearer no"}).status_code == 401
        panels = client.get("/api/panels", headers={"Authorization": f"Bearer {TOKEN}"}).json()
    assert [panel["match"] for panel in panels] == [1, 2, 3]
    for panel in panels:
        link = urlsplit(panel["url"])
        assert (link.scheme, link.netloc, link.path) == (
            "http", "testserver", f"/referee/{panel['match']}"
        )
        assert parse_qs(link.fragment) == {"token": [TOKEN]}  # as the panel's script reads it
        assert panel["qr"] == qr_svg(panel["url"])


def test_without_a_token_the_panels_are_open_and_their_links_carry_none(db):
    with client_of(db) as client:
        panels = client.get("/api/panels").json()
    assert [panel["url"] for panel in panels] == [
        f"http://testserver/referee/{match}" for match in (1, 2, 3)
    ]


def test_a_qr_code_is_an_svg_the_page_can_size():
    code = qr_svg("http://192.168.1.20:8765/referee/1#token=abc")
    assert code.startswith("<svg viewBox=") and code.endswith("</svg>")
    assert "width=" not in code.split(">")[0]
    assert code != qr_svg("http://192.168.1.20:8765/referee/2#token=abc")
