"""A tie at the distance or the innings limit: Article 4's extension, a draw or a play-off."""

import pytest

from phrases.render import render
from rules.discipline import SetupError
from rules.state import OnTie, Setup, new_match
from tests.support.match import PLAYERS, A, B, codes, points, say

TIE = ("πόντος", "πόντος", "πόντος", "πόντος")  # both reach 2 in their first inning


def tied(on_tie: OnTie, distance: int = 2, **fields):
    return new_match(Setup("libre", distance, PLAYERS, on_tie=on_tie, **fields))


def test_a_tie_at_the_distance_is_a_draw_with_on_tie_draw():
    match, said = say(tied(OnTie.DRAW), *TIE)
    assert codes(said)[-1] == "draw" and match.drawn and match.winner is None and match.over


def test_a_tie_at_the_distance_brings_the_extension_by_default():
    match, said = say(tied(OnTie.EXTENSION), *TIE)
    assert codes(said)[-2:] == ["extension", "turn.who_starts"] and not match.over


def test_a_tie_brings_a_play_off_to_its_points_whose_starter_the_referee_names():
    match, said = say(tied(OnTie.PLAYOFF, playoff_points=3), *TIE)
    assert codes(said)[-2:] == ["playoff", "turn.who_starts"] and said[-2].points == 3
    assert render(said[-2]).text == "ισοπαλία, μπαράζ τριών πόντων"
    assert match.phase.playoff and match.phase.targets == (5, 5) and match.at_table is None
    assert not match.phase.single_stroke
    match, said = say(match, f"ξεκινά {B}", "πόντος", "πόντος")
    assert codes(said)[-1] == "score" and match.at_table == 1  # more than one stroke a turn
    match, said = say(match, "πόντος", "άστοχο")
    assert codes(said)[-1] == "winner" and said[-1].player == B and points(match) == (2, 5)


def test_a_tied_play_off_brings_another():
    match, _ = say(tied(OnTie.PLAYOFF, playoff_points=1), *TIE, f"ξεκινά {A}", "πόντος",
                   "πόντος")
    assert match.phase.number == 2 and match.phase.playoff and match.phase.targets == (4, 4)


def test_the_default_play_off_is_to_15_points():
    match, said = say(tied(OnTie.PLAYOFF), *TIE)
    assert said[-2].points == 15 and match.phase.targets == (17, 17)


def test_a_tie_at_the_innings_limit_brings_the_play_off_too():
    match, said = say(tied(OnTie.PLAYOFF, distance=9, innings_limit=1), "άστοχο", "άστοχο")
    assert codes(said)[-2:] == ["playoff", "turn.who_starts"]


def test_a_play_off_of_no_points_is_refused():
    with pytest.raises(SetupError, match="a play-off is to 1 to"):
        Setup("libre", 2, PLAYERS, on_tie=OnTie.PLAYOFF, playoff_points=0)
