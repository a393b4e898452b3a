"""The phases a match went through, and the innings each began after (rules.phases)."""

import pytest

from rules.command import Command, Kind
from rules.match import apply
from rules.phases import played
from rules.state import Setup, new_match
from tests.support.match import PLAYERS, A, B, say

pytestmark = pytest.mark.core

# Round 1 without a point; both reach 2 in round 2: the extension to 3, A starts, A wins.
EXTENDED = ("άστοχο", "άστοχο", "πόντος", "πόντος", "πόντος", "πόντος", f"ξεκινά {A}",
            "πόντος", "άστοχο")


def test_the_starter_named_before_the_first_stroke_is_the_match_s():
    match, _ = say(new_match(Setup("libre", 2, PLAYERS)), f"ξεκινά {B}", "πόντος")
    assert [p.phase.breaker for p in played(match)] == [1]


def test_an_extension_undone_is_not_a_phase():
    match, _ = say(new_match(Setup("libre", 2, PLAYERS)), *EXTENDED[:6])
    assert [p.phase.number for p in played(match)] == [0, 1]
    match, _ = say(match, "διόρθωση")
    assert [p.phase.number for p in played(match)] == [0]


def test_a_deleted_round_before_an_extension_moves_it_one_inning_earlier():
    match, _ = say(new_match(Setup("libre", 2, PLAYERS)), *EXTENDED)
    assert [p.before for p in played(match)] == [(0, 0), (2, 2)]
    match, _ = apply(match, Command(Kind.DELETE_INNING, inning=1))
    assert [list(p.innings_points) for p in match.players] == [[2, 1], [2, 0]]
    assert [p.before for p in played(match)] == [(0, 0), (1, 1)]


def test_each_set_is_a_phase_of_its_own_with_its_breaker_and_starting_points():
    # Sets to 1: A wins the first (B misses his equalising inning), B the second.
    match, _ = say(new_match(Setup("libre", 1, PLAYERS, sets=3)), "πόντος", "άστοχο",
                   "πόντος", "άστοχο")
    assert [(p.set, p.phase.breaker, p.before, p.set_start) for p in played(match)] == [
        (1, 0, (0, 0), (0, 0)), (2, 1, (1, 1), (1, 0)), (3, 0, (2, 2), (1, 1))]
