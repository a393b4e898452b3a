"""Handicap distances: each player plays to his own distance."""

import pytest

from phrases.render import render
from rules.command import Command, Kind
from rules.discipline import SetupError
from rules.state import Setup, new_match
from tests.support.match import PLAYERS, A, B, codes, do, say


def handicap(discipline: str, a: int, b: int):
    return new_match(Setup(discipline, max(a, b), PLAYERS, handicap=(a, b)))


def test_for_five_follows_each_players_own_distance():
    match, said = say(handicap("libre", 10, 7), "πόντος", "άστοχο", "πόντος")
    assert "for_five" not in codes(said)
    match, said = say(match, "πόντος")
    assert codes(said) == ["score", "for_five"] and said[0].player == B  # 2 of 7
    match, said = say(match, "άστοχο", *["πόντος"] * 4)
    assert codes(said)[-2:] == ["score", "for_five"] and said[-2].player == A  # 5 of 10


def test_for_three_follows_each_players_own_distance_in_three_cushion():
    match, said = say(handicap("three-cushion", 15, 5), "άστοχο", "πόντος")
    assert codes(said)[-1] == "score"
    match, said = say(match, "πόντος")
    assert codes(said)[-2:] == ["score", "for_three"] and said[-2].player == B  # 2 of 5


def test_each_reaches_his_own_distance_and_the_shorter_one_wins_first():
    match, said = say(handicap("libre", 10, 2), "άστοχο", "πόντος", "πόντος")
    assert codes(said)[-1] == "winner" and said[-1].player == B


def test_a_tie_at_own_distances_extends_by_ten_percent_of_each_ones_own_distance():
    match, said = do(handicap("libre", 30, 12), *[Command(Kind.POINT)] * 30)
    # A reached 30 in his first inning; B plays the equalising inning.
    assert codes(said)[-1] == "turn.equalising"
    match, said = do(match, *[Command(Kind.POINT)] * 12)
    assert codes(said)[-4:] == [
        "score", "extension.handicap", "extension.handicap", "turn.who_starts"
    ]
    assert [(a.player, a.points) for a in said[-3:-1]] == [(A, 3), (B, 2)]
    assert match.phase.targets == (33, 14)
    assert render(said[-3]).text == f"{A}, παράταση τριών πόντων"


def test_equal_extensions_under_a_handicap_are_called_once():
    match, said = do(handicap("libre", 10, 9), *[Command(Kind.POINT)] * 10)
    match, said = do(match, *[Command(Kind.POINT)] * 9)
    assert codes(said)[-2:] == ["extension", "turn.who_starts"] and said[-2].points == 1
    assert match.phase.targets == (11, 10)


def test_the_second_extension_under_a_handicap_is_single_stroke():
    match, _ = do(handicap("libre", 30, 12), *[Command(Kind.POINT)] * 30)
    match, _ = do(match, *[Command(Kind.POINT)] * 12)
    match, _ = say(match, "ξεκινά Παπαδόπουλος", "πόντος", "πόντος", "πόντος")
    match, said = say(match, "πόντος", "πόντος")
    assert codes(said)[-3:-1] == ["extension.handicap_single_stroke"] * 2
    assert match.phase.targets == (36, 16)


@pytest.mark.parametrize("bad", [(0, 5), (5, 10_001), (5,)])
def test_a_bad_handicap_is_a_setup_error(bad):
    with pytest.raises(SetupError):
        Setup("libre", 10_001 if 10_001 in bad else 5, PLAYERS, handicap=bad)


def test_the_distance_of_a_handicap_is_the_longer_one():
    with pytest.raises(SetupError, match="longer"):
        Setup("libre", 5, PLAYERS, handicap=(5, 9))
    assert Setup("libre", 9, PLAYERS, handicap=(5, 9)).distances == (5, 9)
    assert Setup("libre", 9, PLAYERS).distances == (9, 9)
