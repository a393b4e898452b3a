"""Bodies are strict JSON: NaN, Infinity and lone surrogates are a 422, never a server error."""

import json
import logging

import pytest
from fastapi.testclient import TestClient

from tests.support.server import new_record
from voice.match_record.database import Record
from voice.scoreboard.app import create_app
from voice.scoreboard.guard import Hosts
from voice.scoreboard.strict_json import strict_loads

BODIES = [
    b'{"kind": NaN}', b'{"kind": "point", "frames": [Infinity]}', b'[-Infinity]',
    b'{"text": "\\ud800"}', b'{"text": "ok \\udfff"}', b'{"kind": "point", "player": "\\udc00"}',
    b'{"\\ud800": "point"}', b'{"kind": "point"} trailing', b"\xff\xfe", b"",
]


@pytest.mark.parametrize("body", BODIES[:-1])
def test_what_rfc_8259_does_not_allow_is_malformed(body):
    with pytest.raises(json.JSONDecodeError):
        strict_loads(body)


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
