"""`evolve`: a state with some fields set anew, the old one unchanged."""

import pytest

from rules.state import Match, Setup, evolve, new_match
from tests.support.match import PLAYERS

SETUP = Setup("libre", 50, PLAYERS)


def test_an_evolved_state_has_the_new_fields_and_the_old_state_its_own():
    match = new_match(SETUP)
    moved = evolve(match, run=3, touchent=True)
    assert isinstance(moved, Match) and (moved.run, moved.touchent) == (3, True)
    assert (match.run, match.touchent) == (0, False)
    assert moved == Match(**{**match.__dict__, "run": 3, "touchent": True})


def test_a_field_the_state_has_not_is_refused():
    with pytest.raises(TypeError, match=r"has no field \['runs'\]"):
        evolve(new_match(SETUP), run=1, runs=3)


def test_a_state_that_checks_itself_when_made_is_refused():
    with pytest.raises(TypeError, match="checks itself"):
        evolve(SETUP, distance=-1)
