"""Knock-out matches without the equalising inning: the first to his distance wins at once."""

from rules.state import Setup, new_match
from tests.support.match import PLAYERS, A, B, codes, say


def knock_out(distance: int = 2, first: int = 0, **fields):
    return new_match(Setup("libre", distance, PLAYERS, first, equalising=False, **fields))


def test_the_breaker_reaching_the_distance_wins_without_the_equalising_inning():
    match, said = say(knock_out(), "πόντος", "πόντος")
    assert codes(said)[-1] == "winner" and said[-1].player == A
    assert match.winner == 0 and match.players[1].innings == 0


def test_with_the_equalising_inning_the_opponent_still_plays():
    match, said = say(new_match(Setup("libre", 2, PLAYERS)), "πόντος", "πόντος")
    assert codes(said)[-1] == "turn.equalising" and match.winner is None


def test_the_second_player_reaching_it_wins_as_always():
    match, said = say(knock_out(first=1), "άστοχο", "πόντος", "πόντος")
    assert match.winner == 0 and said[-1].player == A
    match, said = say(knock_out(), "άστοχο", "πόντος", "πόντος")
    assert match.winner == 1 and said[-1].player == B


def test_under_a_handicap_each_wins_at_his_own_distance():
    match, _ = say(knock_out(distance=3, handicap=(1, 3)), "πόντος")
    assert match.winner == 0 and match.players[1].innings == 0
