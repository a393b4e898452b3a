"""The innings limit: the match ends when both players have played N innings."""

from phrases.render import render
from rules.state import OnTie, Setup, new_match
from tests.support.match import PLAYERS, A, B, codes, points, say


def limited(innings: int, distance: int = 50, on_tie: OnTie = OnTie.EXTENSION, first: int = 0):
    return new_match(Setup("libre", distance, PLAYERS, first, innings_limit=innings,
                           on_tie=on_tie))


def test_the_match_goes_on_after_the_breakers_last_inning_and_ends_after_the_others():
    match, said = say(limited(2), "πόντος", "πόντος", "άστοχο", "πόντος", "άστοχο")
    assert codes(said)[-2:] == ["turn", "last_inning"] and said[-1].player == A
    match, said = say(match, "άστοχο")
    assert codes(said) == ["turn", "last_inning"] and said[-1].player == B
    assert match.winner is None and match.at_table == 1
    match, said = say(match, "πόντος", "πόντος", "άστοχο")
    assert codes(said)[-1] == "winner" and said[-1].player == B
    assert points(match) == (2, 3) and [p.innings for p in match.players] == [2, 2]
    assert match.over and match.at_table is None


def test_the_breaker_can_win_at_the_limit_too():
    match, said = say(limited(1, first=1), "πόντος", "άστοχο", "πόντος", "πόντος", "άστοχο")
    assert codes(said)[-1] == "winner" and said[-1].player == A


def test_the_last_inning_is_said_on_the_pa_with_the_surname():
    _, said = say(limited(1), "άστοχο")
    spoken = render(said[-1])
    assert spoken.channel == "pa" and spoken.text == f"τελευταία προσπάθεια, {B}"


def test_a_limit_of_one_announces_the_breakers_only_inning_at_once():
    # The breaker's first inning starts at the break, before any announcement is made: the
    # last-inning call comes with the first turn only for the player who did not break.
    _, said = say(limited(1), "άστοχο")
    assert codes(said) == ["turn", "last_inning"]


def test_the_equalising_inning_within_the_limit():
    match, said = say(limited(5, distance=3), "άστοχο", "άστοχο", "πόντος", "πόντος", "πόντος")
    assert codes(said)[-1] == "turn.equalising" and said[-1].player == B
    match, said = say(match, "άστοχο")
    assert codes(said)[-1] == "winner" and said[-1].player == A
    assert [p.innings for p in match.players] == [2, 2]


def test_the_equalising_inning_that_is_also_the_last_inning_says_both():
    match, said = say(limited(2, distance=3), "άστοχο", "άστοχο", "πόντος", "πόντος", "πόντος")
    assert codes(said)[-2:] == ["turn.equalising", "last_inning"]


def test_a_tie_at_the_limit_brings_the_article_4_extension_by_default():
    match, said = say(limited(2), "πόντος", "άστοχο", "άστοχο", "άστοχο", "πόντος", "άστοχο")
    assert codes(said)[-2:] == ["extension", "turn.who_starts"] and said[-2].points == 5
    assert match.phase.number == 1 and match.phase.targets == (6, 6)
    match, said = say(match, "ξεκινά Κωνσταντίνου", "πόντος", "πόντος")
    assert match.winner is None and match.players[1].points == 3  # no limit in the extension


def test_a_tie_at_the_limit_is_a_draw_with_on_tie_draw():
    match, said = say(limited(1, on_tie=OnTie.DRAW), "πόντος", "άστοχο", "πόντος", "άστοχο")
    assert codes(said)[-1] == "draw"
    assert match.drawn and match.over and match.winner is None and match.at_table is None
    same, said = say(match, "πόντος")
    assert same is match and codes(said) == ["refused.match_over"]
    assert render(said[0]).channel == "headset"


def test_reaching_the_distance_before_the_limit_ends_the_match_as_usual():
    match, said = say(limited(10, distance=2), "πόντος", "πόντος", "άστοχο")
    assert codes(said)[-1] == "winner" and match.players[0].innings == 1
