"""Schema-driven fuzzing of the API (schemathesis): no server error, no change when refused."""

import os
import shutil
import tempfile
from pathlib import Path

import pytest
import schemathesis
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.python.asgi import shutdown_lifespans

from rules.state import Setup
from tests.support.match import PLAYERS
from voice.match_record.database import Record
from voice.scoreboard.app import create_app
from voice.scoreboard.guard import Hosts
from voice.scoreboard.throttle import Limits

TOKEN = "fuzz-token"
EXAMPLES = 80  # per operation and generation mode
# Known at import, made by the fixture: the app opens its record only when it starts.
RECORD = Path(tempfile.gettempdir()) / f"referee-fuzz-{os.getpid()}" / "m.sqlite3"
# schemathesis calls the app as "testserver"; the rate limits are tested in test_app.py.
APP = create_app(RECORD, token=TOKEN, hosts=Hosts.bound_to("testserver"),
                 limits=Limits(wrong_tokens="1000/second", reads="1000/second"))



def loaded(*modes):
    """The app's schema; every request, the checks' own included, goes to the app in-process."""
    loaded = schemathesis.openapi.from_dict(APP.openapi())
    loaded.app = APP
    loaded.config.generation.update(modes=list(modes), max_examples=EXAMPLES)
    return loaded


schema = loaded(GenerationMode.POSITIVE, GenerationMode.NEGATIVE)
# Valid requests for the two recorded matches, so that commands reach the rules and the record.
recorded_matches = loaded(GenerationMode.POSITIVE)


@recorded_matches.hook
def before_generate_path_parameters(context, strategy):
    return st.fixed_dictionaries({"match": st.sampled_from([1, 2])})


@pytest.fixture(scope="module")
def db():
    with Record.open(RECORD) as record:
        record.create_match(Setup("libre", 20, PLAYERS))
        record.create_match(Setup("cadre-47-2", 20, PLAYERS))
    yield RECORD
    shutdown_lifespans()
    shutil.rmtree(RECORD.parent)


def recorded(db):
    """Every event of every match, as the record holds them."""
    with Record.open(db) as record:
        return [record.load(entry.id).events for entry in record.matches()]


@schema.parametrize()
def test_with_the_token_no_request_fails_the_server_and_a_refused_one_changes_nothing(case, db):
    called_and_checked(case, db)


@recorded_matches.parametrize()
def test_commands_for_the_recorded_matches_never_fail_the_server(case, db):
    called_and_checked(case, db)


def called_and_checked(case, db):
    """Call with the token; the response conforms, and if refused, nothing was recorded."""
    before = recorded(db)
    response = case.call(headers={"Authorization": f"Bearer {TOKEN}"})
    case.validate_response(response)
    if response.status_code >= 400:
        assert recorded(db) == before, f"{response.status_code} yet the record changed"


@schema.include(method="POST").parametrize()
def test_without_the_token_no_control_request_gets_through(case, db):
    before = recorded(db)
    response = case.call(headers={"Authorization": "Bearer not-the-token"})
    # The negative mode also sends bodies that are not JSON, refused (400, 422) before the
    # token is read, and other methods (405).
    assert response.status_code in (400, 401, 405, 422), response.text
    assert recorded(db) == before
