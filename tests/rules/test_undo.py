"""«διόρθωση» (undo) and «σκορ»; replaying a record."""

import pytest

from rules.command import Command, Kind
from rules.match import ReplayError, replay
from rules.state import Setup
from tests.support.match import PLAYERS, codes, points, say, start


def test_undo_names_what_it_withdrew_then_announces_the_corrected_score():
    match, _ = say(start("libre"), "πόντος", "πόντος έξω")
    match, said = say(match, "διόρθωση")
    assert points(match) == (1, 0)
    assert codes(said) == ["withdrawn.point_out", "repeat_score.undo"]
    assert said[1].scores == ((PLAYERS[0], 1), (PLAYERS[1], 0))


@pytest.mark.parametrize("unrecorded", ["λιμπρ", "σκορ", "α σεβάλ", "στήσιμο"])
def test_undo_withdraws_the_last_recorded_event_not_a_phrase_that_changed_nothing(unrecorded):
    match, _ = say(start("libre"), "πόντος", "άστοχο", "πόντος", unrecorded)
    match, said = say(match, "διόρθωση")
    assert codes(said)[0] == "withdrawn.point"
    assert points(match) == (1, 0) and match.at_table == 1


def test_each_undo_withdraws_one_more_event():
    match, _ = say(start("libre"), "πόντος", "άστοχο", "πόντος")
    match, said = say(match, "διόρθωση", "διόρθωση")
    assert codes(said) == ["withdrawn.point", "repeat_score.undo", "withdrawn.miss",
                           "repeat_score.undo"]
    assert points(match) == (1, 0) and match.at_table == 0


def test_undo_of_a_turn_change_puts_the_player_back():
    before, _ = say(start("libre"), "πόντος")
    after, _ = say(before, "άστοχο", "διόρθωση")
    assert after == before


def test_undo_of_restees_dedans_restores_the_zone():
    before, _ = say(start("libre"), "αντρέ", "πόντος")
    after, _ = say(before, "πόντος", "διόρθωση")
    assert after == before


def test_undo_with_nothing_to_undo_is_refused():
    match = start("libre")
    same, said = say(match, "διόρθωση")
    assert same is match and codes(said) == ["refused.nothing_to_undo"]


def test_undo_after_the_winner_reopens_the_match():
    match, _ = say(start("libre", distance=1), "άστοχο", "πόντος")
    assert match.winner == 1
    match, _ = say(match, "διόρθωση")
    assert match.winner is None and match.at_table == 1


def test_score_repeats_both_totals_and_changes_nothing():
    match, _ = say(start("libre"), "πόντος", "άστοχο", "πόντος", "πόντος")
    same, said = say(match, "σκορ")
    assert same is match
    assert said[0].scores == ((PLAYERS[0], 1), (PLAYERS[1], 2))


def test_replay_of_a_record_gives_the_same_match():
    match, _ = say(start("cadre-47-2"), "αντρέ", "πόντος", "πόντος έξω", "άστοχο",
                   "διάλειμμα", "τέλος διαλείμματος", "πόντος", "διόρθωση", "τους")
    setup = Setup("cadre-47-2", 50, PLAYERS)
    assert replay(setup, match.history) == match


def test_replay_of_a_record_the_rules_refuse_names_the_command():
    setup = Setup("three-cushion", 50, PLAYERS)
    with pytest.raises(ReplayError, match="command 2 .entrees.*no_zones"):
        replay(setup, [Command(Kind.POINT), Command(Kind.ENTREES)])
