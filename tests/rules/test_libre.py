"""Libre (Article 3): the corner triangles, TOUCHENT, fault 6, LIBRES, À CHEVAL."""

from tests.support.match import A, B, codes, points, say, start


def test_score_is_surname_then_the_points_of_the_run():
    match, said = say(start("libre"), "πόντος", "πόντος", "πόντος")
    assert [(a.code, a.player, a.points) for a in said] == [("score", A, n) for n in (1, 2, 3)]
    assert points(match) == (3, 0)


def test_entrees_then_one_point_inside_gives_dedans():
    match, said = say(start("libre"), "αντρέ", "πόντος")
    assert codes(said) == ["entrees.triangle", "score", "dedans.triangle"]


def test_second_point_without_a_ball_out_is_restees_dedans_not_scored_and_turn_passes():
    match, said = say(start("libre"), "αντρέ", "πόντος", "πόντος")
    assert codes(said)[-2:] == ["restees_dedans.triangle", "turn"]
    assert said[-1].player == B
    assert points(match) == (1, 0)
    assert match.at_table == 1


def test_second_point_taking_a_ball_out_scores_and_clears_the_zone():
    match, said = say(start("libre"), "πόντος αντρέ", "πόντος", "πόντος έξω", "πόντος")
    assert codes(said) == [
        "score", "entrees.triangle", "score", "dedans.triangle", "score", "score"
    ]
    assert points(match) == (4, 0)
    assert match.zones == ()


def test_ball_back_into_the_triangle_starts_the_calls_again():
    # The seed: a ball that leaves and re-enters the triangle brings ENTRÉES, DEDANS again.
    match, said = say(start("libre"), "αντρέ", "πόντος", "πόντος αντρέ", "πόντος", "πόντος")
    assert codes(said) == [
        "entrees.triangle", "score", "dedans.triangle",
        "score", "entrees.triangle",
        "score", "dedans.triangle",
        "restees_dedans.triangle", "turn",
    ]
    assert points(match) == (3, 0)


def test_balls_on_the_line_count_as_inside_so_the_referee_calls_entrees():
    # One ball exactly on the line and the other inside: ENTRÉES (seed, libre).
    match, said = say(start("libre"), "αντρέ")
    assert codes(said) == ["entrees.triangle"]
    assert [z.kind for z in match.zones] == ["triangle"]


def test_a_cheval_is_information_only_and_the_player_continues():
    match, said = say(start("libre"), "αντρέ", "α σεβάλ", "πόντος", "πόντος")
    assert codes(said) == ["entrees.triangle", "a_cheval", "score", "score"]
    assert match.at_table == 0


def test_libres_is_information_only():
    match, said = say(start("libre"), "πόντος", "λιμπρ", "πόντος")
    assert codes(said) == ["score", "libres", "score"]
    assert points(match) == (2, 0)


def test_touchent_in_libre_respots_at_once_and_the_player_continues():
    match, said = say(start("libre"), "πόντος", "αντρέ", "τους")
    assert codes(said)[-2:] == ["touchent", "respot.break_position"]
    assert match.at_table == 0 and match.zones == () and not match.touchent
    match, said = say(match, "στήσιμο")
    assert codes(said) == ["refused.no_touchent"]


def test_fault_six_respots_for_the_opponent():
    match, said = say(start("libre"), "πόντος", "σφάλμα έξι")
    assert codes(said) == ["score", "respot.for_opponent", "turn"]
    assert match.at_table == 1 and points(match) == (1, 0)


def test_fault_six_that_ends_the_match_sets_nothing_up():
    match, said = say(start("libre", distance=1), "πόντος", "σφάλμα έξι")
    assert codes(said) == ["score", "turn.equalising", "winner"]
    assert said[-1].player == A


def test_out_clears_the_zone_so_the_next_carom_scores():
    match, said = say(start("libre"), "αντρέ", "πόντος", "έξω", "πόντος")
    assert codes(said) == ["entrees.triangle", "score", "dedans.triangle", "score"]
    assert points(match) == (2, 0)


def test_anchor_phrases_are_refused_in_libre():
    match = start("libre")
    same, said = say(match, "αντρέ άγκυρα")
    assert same is match and codes(said) == ["refused.no_anchors"]


def test_no_zone_carries_over_to_the_incoming_player():
    # The zone concerns the shooter's object balls; the incoming player's are another pair.
    match, said = say(start("libre"), "αντρέ", "πόντος", "πόντος")
    assert codes(said)[-2:] == ["restees_dedans.triangle", "turn"]
    match, said = say(match, "πόντος", "πόντος")
    assert codes(said) == ["score", "score"]
    assert points(match) == (1, 2) and match.zones == ()
