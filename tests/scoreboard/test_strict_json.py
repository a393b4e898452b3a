"""Bodies are strict JSON: NaN, Infinity and lone surrogates are a 422, never a server error."""

import json
import logging

import pytest
from fastapi.routing import iter_route_contexts
from fastapi.testclient import TestClient

from tests.support.server import new_record, stored
from voice.match_record.database import Record
from voice.scoreboard.app import create_app
from voice.scoreboard.guard import Hosts
from voice.scoreboard.strict_json import strict_loads

NON_FINITE = ["1e999", "-1e999", "1E400", "-0.5e99999", "NaN", "Infinity", "-Infinity"]
BODIES = [
    b'{"kind": NaN}', b'{"kind": "point", "frames": [Infinity]}', b'[-Infinity]', b"1e999",
    b'{"kind": "point", "frames": [1e999]}', b'[-1e999]', b"[" + b"7" * 5000 + b"]",
    b'{"text": "\\ud800"}', b'{"text": "ok \\udfff"}', b'{"kind": "point", "player": "\\udc00"}',
    b'{"\\ud800": "point"}', b'{"kind": "point"} trailing', b"\xff\xfe", b"",
]


@pytest.mark.parametrize("body", BODIES[:-1])
def test_what_rfc_8259_does_not_allow_is_malformed(body):
    with pytest.raises(json.JSONDecodeError):
        strict_loads(body)


# Each POST route's body, with the non-finite number where a number (or any value) goes.
POSTED = {
    "/api/matches/{match}/commands": '{{"kind": "point", "frames": [{}]}}',
    "/api/matches/{match}/phrases": '{{"text": {}}}',
    "/api/matches/{match}/corrections": '{{"inning": {}, "player": "Κωνσταντίνου", "points": 1}}',
}


def test_valid_json_reads_as_json():
    assert strict_loads('{"text": "πόντος \\ud83c\\udfb1", "n": [1, 2.5e3]}'.encode()) == {
        "text": "πόντος 🎱", "n": [1, 2500.0]
    }


@pytest.mark.parametrize("path", ["commands", "phrases"])
def test_a_non_finite_number_or_lone_surrogate_is_a_4xx_with_no_traceback(tmp_path, caplog,
                                                                          path):
    db = new_record(tmp_path / "m.sqlite3")
    caplog.set_level(logging.DEBUG)
    # The client re-raises any exception the app lets out: a 500 fails the test here.
    with TestClient(create_app(db, hosts=Hosts.bound_to("testserver"))) as client:
        for body in BODIES:
            reply = client.post(f"/api/matches/1/{path}", content=body,
                                headers={"Content-Type": "application/json"})
            assert 400 <= reply.status_code < 500, (body, reply.text)
            assert reply.json()["detail"]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    with Record.open(db) as record:
        assert record.load(1).events == ()


@pytest.mark.parametrize("number", NON_FINITE)
def test_a_non_finite_number_on_every_post_route_is_a_422_that_names_it(tmp_path, caplog,
                                                                        number):
    db = new_record(tmp_path / "m.sqlite3")
    app = create_app(db, hosts=Hosts.bound_to("testserver"))
    routes = {route.path for route in iter_route_contexts(app.routes)
              if "POST" in (route.methods or ())}
    assert routes == set(POSTED)  # a new POST route needs its body here
    caplog.set_level(logging.DEBUG)
    with TestClient(app) as client:
        client.post("/api/matches/1/commands", json={"kind": "starts", "player": "Κωνσταντίνου"})
        before = stored(db)
        board = client.get("/api/matches/1").json()
        for route, body in POSTED.items():
            for where in [body.format(number), body.format(f"[{number}]"), number]:
                reply = client.post(route.format(match=1), content=where.encode(),
                                    headers={"Content-Type": "application/json"})
                assert reply.status_code == 422, (route, where, reply.text)
                (error,) = reply.json()["detail"]
                assert error["ctx"]["error"] == f"{number} is not a finite number"
        assert client.get("/api/matches/1").json() | {"now": ""} == board | {"now": ""}
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert stored(db) == before
