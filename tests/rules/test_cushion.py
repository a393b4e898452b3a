"""One-cushion and three-cushion: no zones, «για τρεις», balls off the table, re-spots."""

import pytest

from tests.support.match import A, B, codes, points, say, start


@pytest.mark.parametrize("discipline", ["one-cushion", "three-cushion"])
@pytest.mark.parametrize(
    "phrase", ["αντρέ", "πόντος έξω", "α σεβάλ", "έξω", "αντρέ άγκυρα", "λιμπρ"]
)
def test_zone_phrases_are_refused_without_changing_anything(discipline, phrase):
    match = start(discipline)
    same, said = say(match, phrase)
    assert same is match
    assert said[0].code == "refused"


def test_a_carom_without_the_cushions_is_just_a_miss():
    match, said = say(start("three-cushion"), "πόντος", "άστοχο")
    assert codes(said) == ["score", "turn"] and points(match) == (1, 0)


def test_three_cushion_reminds_for_three():
    match, said = say(start("three-cushion", distance=5), "πόντος", "πόντος")
    assert codes(said) == ["score", "score", "for_three"]


def test_one_cushion_reminds_for_five():
    match, said = say(start("one-cushion", distance=7), "πόντος", "πόντος")
    assert codes(said) == ["score", "score", "for_five"]


def test_ball_off_places_each_ball_for_the_incoming_player():
    # A (white) sends the red and his own ball off: B (yellow) plays next.
    match, said = say(start("three-cushion"), "εκτός τραπεζιού κόκκινη λευκή")
    assert codes(said) == ["ball_off_table", "turn"]
    assert said[0].spots == (("red", "foot"), ("white", "centre"))
    assert said[1].player == B and match.at_table == 1


def test_ball_off_the_incoming_players_ball_goes_to_the_central_starting_spot():
    match, said = say(start("three-cushion"), "εκτός τραπεζιού κίτρινη")
    assert said[0].spots == (("yellow", "head"),)


def test_ball_off_with_its_spot_covered_takes_the_coverers_spot():
    # The red's spot is covered by the yellow ball, whose place is the central starting spot.
    match, said = say(start("three-cushion"), "εκτός τραπεζιού κόκκινη καλυμμένη από κίτρινη")
    assert said[0].spots == (("red", "head"),)


def test_ball_off_without_naming_a_ball_is_refused():
    match = start("three-cushion")
    same, said = say(match, "εκτός τραπεζιού")
    assert same is match and codes(said) == ["refused.which_ball"]


def test_cover_by_a_ball_that_left_the_table_is_refused():
    match = start("three-cushion")
    same, said = say(match, "εκτός τραπεζιού κόκκινη λευκή καλυμμένη από κόκκινη")
    assert same is match and codes(said) == ["refused.bad_cover"]


def test_three_cushion_touchent_respot_on_request_uses_the_spots_for_the_player_to_play():
    match, said = say(start("three-cushion", first=1), "τους", "στήσιμο")
    assert codes(said) == ["touchent", "touchent.reminder", "respot.spots"]
    # B broke, so B has the white: his ball on the central starting spot.
    assert said[-1].spots == (("white", "head"), ("yellow", "centre"), ("red", "foot"))


def test_one_cushion_touchent_respot_is_the_break_position():
    match, said = say(start("one-cushion"), "τους", "στήσιμο")
    assert codes(said)[-1] == "respot.break_position"
    assert match.surname(match.at_table) == A
