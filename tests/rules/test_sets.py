"""Sets: best of N, each to the distance, the break alternating from set to set."""

import pytest

from phrases.render import render
from rules.command import Command, Kind
from rules.discipline import SetupError
from rules.match import replay
from rules.state import OnTie, Setup, new_match
from tests.support.match import PLAYERS, A, B, codes, do, points, say


def in_sets(sets: int = 3, distance: int = 2, **fields):
    return new_match(Setup("libre", distance, PLAYERS, sets=sets, **fields))


def test_a_set_won_is_said_and_the_other_player_breaks_the_next():
    match, said = say(in_sets(), "πόντος", "πόντος", "άστοχο")
    assert codes(said)[-3:] == ["turn.equalising", "set", "turn.starts"]
    assert said[-2].player == A and said[-1].player == B
    assert match.sets == (1, 0) and match.at_table == 1 and match.white == 1
    assert match.phase.targets == (4, 2) and match.phase.breaker == 1 and not match.over
    assert render(said[-2]).text == f"σετ, {A}" and render(said[-2]).channel == "pa"


def test_the_set_that_wins_the_match_is_set_and_match():
    match, said = say(in_sets(), "πόντος", "πόντος", "άστοχο",  # set 1: A
                      "άστοχο", "πόντος", "πόντος")  # set 2: B breaks, A wins it
    assert codes(said)[-1] == "set.and_match" and said[-1].player == A
    assert match.winner == 0 and match.over and match.sets == (2, 0)
    assert render(said[-1]).text == f"σετ και αγώνας, {A}"
    assert points(match) == (4, 0) and [p.innings for p in match.players] == [2, 2]


def test_the_break_alternates_over_every_set_from_the_player_who_broke_the_match():
    match = in_sets(5, distance=1, first=1)
    breakers = []
    for _ in range(4):
        breakers.append(match.phase.breaker)
        match, _said = say(match, "άστοχο", "πόντος")  # the second player of each set wins it
    assert breakers == [1, 0, 1, 0] and match.sets == (2, 2) and not match.over
    match, said = say(match, "πόντος", "άστοχο")
    assert match.winner == 1 and codes(said)[-1] == "set.and_match"


def test_the_next_set_is_broken_by_the_player_who_did_not_break_the_last():
    match, said = say(in_sets(), f"ξεκινά {B}", "πόντος", "πόντος", "άστοχο")  # B breaks set 1
    assert match.sets == (0, 1) and match.phase.breaker == 0 and match.at_table == 0
    assert said[-1].player == A  # A breaks set 2


def test_a_tied_set_goes_to_the_extension_and_its_winner_wins_the_set():
    match, said = say(in_sets(), "πόντος", "πόντος", "πόντος", "πόντος")
    assert codes(said)[-2:] == ["extension", "turn.who_starts"]
    match, said = say(match, f"ξεκινά {B}", "πόντος", "άστοχο")
    assert codes(said)[-2:] == ["set", "turn.starts"] and said[-2].player == B
    assert match.sets == (0, 1) and match.phase.number == 0 and match.phase.breaker == 1


def test_undo_takes_a_set_back():
    match, _ = say(in_sets(), "πόντος", "πόντος", "άστοχο")
    match, said = say(match, "διόρθωση")
    assert match.sets == (0, 0) and match.at_table == 1 and match.phase.breaker == 0


def test_a_replay_of_the_record_reaches_the_same_sets():
    match, _ = say(in_sets(), "πόντος", "πόντος", "άστοχο", "άστοχο", "πόντος")
    again = replay(match.setup, match.history)
    assert again.sets == match.sets == (1, 0) and again.set_start == (2, 0)


def test_an_inning_of_an_earlier_set_cannot_be_corrected_nor_a_round_inserted():
    match, _ = say(in_sets(distance=3), "πόντος", "πόντος", "πόντος", "άστοχο", "άστοχο")
    _, said = do(match, Command(Kind.CORRECT, player=A, inning=1, points=2))
    assert codes(said) == ["refused.before_set"]
    _, said = do(match, Command(Kind.INSERT_INNING, inning=1))
    assert codes(said) == ["refused.before_set"]


@pytest.mark.parametrize(("fields", "fault"), [
    ({"sets": 2}, "an odd number from 1 to 9"),
    ({"sets": 11}, "an odd number from 1 to 9"),
    ({"sets": 3, "on_tie": OnTie.DRAW}, "a set is not drawn"),
    ({"sets": 3, "innings_limit": 20}, "without an innings limit"),
])
def test_a_sets_set_up_that_cannot_be_played_is_refused(fields, fault):
    with pytest.raises(SetupError, match=fault):
        Setup("libre", 15, PLAYERS, **fields)


def test_the_sets_round_trip_through_the_record():
    setup = Setup("three-cushion", 15, PLAYERS, sets=5, on_tie=OnTie.PLAYOFF, playoff_points=5)
    assert Setup.from_dict(setup.to_dict()) == setup
    assert setup.to_dict()["sets"] == 5 and setup.to_dict()["playoff_points"] == 5


def test_the_score_called_is_the_set_s():
    match, _ = say(in_sets(distance=3), "πόντος", "πόντος", "πόντος", "άστοχο", "άστοχο",
                   "πόντος")
    _, said = say(match, "σκορ")
    assert said[-1].scores == ((A, 1), (B, 0)) and points(match) == (4, 0)
