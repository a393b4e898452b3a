"""Cadre 47/2, 71/2 and 47/1: frames, anchors, frame-before-anchor calls, TOUCHENT on request."""

import pytest

from tests.support.match import codes, points, say, start

TWO_POINT = ["cadre-47-2", "cadre-71-2"]


@pytest.mark.parametrize("discipline", TWO_POINT)
def test_two_point_cadre_allows_one_carom_inside_then_dedans(discipline):
    match, said = say(start(discipline), "αντρέ", "πόντος", "πόντος")
    assert codes(said)[:4] == ["entrees.frame", "score", "dedans.frame", "restees_dedans.frame"]
    assert points(match) == (1, 0) and match.at_table == 1


def test_cadre_47_1_announces_dedans_directly_on_entry():
    match, said = say(start("cadre-47-1"), "αντρέ")
    assert codes(said) == ["dedans.frame"]
    match, said = say(match, "πόντος")
    assert codes(said)[0] == "restees_dedans.frame"
    assert points(match) == (0, 0)


def test_cadre_47_1_carom_taking_a_ball_out_scores():
    match, said = say(start("cadre-47-1"), "πόντος αντρέ", "πόντος έξω", "πόντος")
    assert codes(said) == ["score", "dedans.frame", "score", "score"]
    assert points(match) == (3, 0)


@pytest.mark.parametrize("discipline", TWO_POINT + ["cadre-47-1"])
def test_frame_is_announced_before_the_anchor(discipline):
    match, said = say(start(discipline), "αντρέ άγκυρα")
    assert [a.variant for a in said] == ["frame", "anchor"]


def test_anchor_inside_an_occupied_frame_keeps_the_frame_count():
    match, said = say(start("cadre-47-2"), "αντρέ", "πόντος", "αντρέ άγκυρα")
    assert codes(said)[-2:] == ["dedans.frame", "entrees.anchor"]


def test_carom_out_of_the_anchor_but_still_in_the_frame_counts_for_the_frame():
    match, said = say(start("cadre-47-2"), "αντρέ άγκυρα", "πόντος")
    assert codes(said) == ["entrees.frame", "entrees.anchor", "score", "dedans.frame",
                           "dedans.anchor"]
    match, said = say(match, "πόντος έξω άγκυρα")
    # Out of the anchor, but the balls stayed in the frame, which was DEDANS already.
    assert codes(said)[0] == "restees_dedans.frame"
    assert points(match) == (1, 0)


def test_carom_out_of_the_anchor_with_a_carom_left_in_the_frame():
    match, said = say(start("cadre-47-2"), "αντρέ", "αντρέ άγκυρα", "πόντος έξω άγκυρα")
    assert codes(said)[-2:] == ["score", "dedans.frame"]
    assert [z.kind for z in match.zones] == ["frame"]


def test_touchent_in_cadre_waits_for_the_player_and_reminds_the_referee():
    match, said = say(start("cadre-47-2"), "τους")
    assert codes(said) == ["touchent", "touchent.reminder"]
    assert match.touchent
    match, said = say(match, "στήσιμο")
    assert codes(said) == ["respot.break_position"]
    assert not match.touchent


def test_touchent_in_cadre_play_on_without_respot():
    match, said = say(start("cadre-71-2"), "τους", "πόντος")
    assert codes(said)[-1] == "score" and not match.touchent
    match, said = say(match, "στήσιμο")
    assert codes(said) == ["refused.no_touchent"]


def test_fault_six_in_cadre_is_a_plain_foul():
    match, said = say(start("cadre-47-2"), "σφάλμα έξι")
    assert codes(said) == ["turn"] and match.at_table == 1


def test_entrees_names_the_frame_the_referee_indicates():
    # A ball on the line: the other ball decides the frame, and the referee says which.
    match, said = say(start("cadre-47-2"), "αντρέ πέντε")
    assert codes(said) == ["entrees.frame"] and said[0].frames == (5,)


def test_entrees_in_both_adjacent_frames_when_the_balls_lie_on_the_lines():
    match, said = say(start("cadre-71-2"), "αντρέ κάδρα τέσσερα και πέντε", "πόντος")
    assert said[0].frames == (4, 5)
    assert codes(said) == ["entrees.frame", "score", "dedans.frame"]


def test_cadre_47_1_names_the_frame_with_its_direct_dedans():
    match, said = say(start("cadre-47-1"), "πόντος αντρέ 2")
    assert codes(said) == ["score", "dedans.frame"] and said[1].frames == (2,)


def test_frame_numbers_are_refused_outside_cadre():
    match = start("libre")
    same, said = say(match, "αντρέ τρία")
    assert same is match and codes(said) == ["refused.no_frames"]


def test_cadre_47_1_says_nothing_to_the_incoming_player_after_entrees_and_a_miss():
    # DEDANS concerned the shooter's object balls; the incoming player's are another pair.
    match, said = say(start("cadre-47-1"), "αντρέ", "άστοχο")
    assert codes(said) == ["dedans.frame", "turn"]
    match, said = say(match, "πόντος", "πόντος")
    assert codes(said) == ["score", "score"] and points(match) == (0, 2)


def test_carom_out_of_an_anchor_astride_the_frames_scores_and_the_run_goes_on():
    match, said = say(start("cadre-47-2"), "α σεβάλ", "αντρέ άγκυρα", "πόντος",
                      "πόντος έξω άγκυρα")
    assert codes(said) == ["a_cheval", "entrees.anchor", "score", "dedans.anchor", "score"]
    assert points(match) == (2, 0) and match.at_table == 0 and match.zones == ()


@pytest.mark.parametrize("phrase", ["α σεβάλ άγκυρα", "α σεβάλ αντρέ άγκυρα"])
def test_a_cheval_anchor_calls_a_cheval_then_the_anchor_whose_count_alone_applies(phrase):
    match, said = say(start("cadre-47-2"), phrase, "πόντος", "πόντος")
    assert codes(said) == ["a_cheval", "entrees.anchor", "score", "dedans.anchor",
                           "restees_dedans.anchor", "turn"]
    assert points(match) == (1, 0)


def test_cadre_47_1_a_cheval_anchor_is_dedans_for_the_anchor_alone():
    match, said = say(start("cadre-47-1"), "α σεβάλ άγκυρα")
    assert codes(said) == ["a_cheval", "dedans.anchor"]
    match, said = say(match, "πόντος έξω άγκυρα", "πόντος")
    assert codes(said) == ["score", "score"] and points(match) == (2, 0)


@pytest.mark.parametrize(
    "between", [["πόντος"], ["αντρέ"], ["έξω"], ["άστοχο"], ["τους", "στήσιμο"]]
)
def test_an_anchor_called_after_a_new_position_lies_within_a_frame_again(between):
    # À CHEVAL holds until a stroke, a re-spot or another frame call changes the position.
    match, said = say(start("cadre-47-2"), "α σεβάλ", *between, "αντρέ άγκυρα")
    assert codes(said)[-2:] == ["entrees.frame", "entrees.anchor"]


def test_a_cheval_said_again_changes_nothing():
    match, _ = say(start("cadre-47-2"), "α σεβάλ")
    same, said = say(match, "α σεβάλ")
    assert same is match and codes(said) == ["a_cheval"]


def test_a_cheval_holds_for_the_anchor_call_across_a_break():
    match, said = say(start("cadre-47-2"), "α σεβάλ", "διάλειμμα", "τέλος διαλείμματος",
                      "αντρέ άγκυρα")
    assert codes(said)[-1] == "entrees.anchor" and [z.kind for z in match.zones] == ["anchor"]


def test_a_cheval_anchor_is_refused_without_anchors():
    match = start("libre")
    same, said = say(match, "α σεβάλ άγκυρα")
    assert same is match and codes(said) == ["refused.no_anchors"]
