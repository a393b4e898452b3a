"""Innings, the equalising inning, the winner and Article 4's extensions."""

from tests.support.match import A, B, codes, points, say, start


def test_innings_average_and_highest_run():
    match, _ = say(start("libre"), "πόντος", "πόντος", "άστοχο", "πόντος", "φάουλ",
                   "πόντος", "πόντος", "πόντος", "αλλαγή")
    a, b = match.players
    assert (a.points, a.innings, a.highest_run) == (5, 2, 3)
    assert (b.points, b.innings, b.highest_run) == (1, 2, 1)  # his second inning has begun
    assert a.average == 2.5
    assert match.at_table == 1


def test_miss_and_foul_pass_the_turn_with_a_headset_prompt():
    match, said = say(start("libre"), "άστοχο")
    assert codes(said) == ["turn"] and said[0].player == B


def test_for_five_comes_right_after_the_score_when_five_short():
    match, said = say(start("libre", distance=7), "πόντος", "πόντος", "πόντος")
    assert codes(said) == ["score", "score", "for_five", "score"]


def test_breaker_reaching_the_distance_gives_the_opponent_the_equalising_inning():
    match, said = say(start("libre", distance=2), "πόντος", "πόντος")
    assert codes(said) == ["score", "score", "turn.equalising"]
    assert match.winner is None and match.at_table == 1
    match, said = say(match, "πόντος", "άστοχο")
    assert codes(said) == ["score", "winner"] and said[-1].player == A
    assert match.at_table is None


def test_second_player_reaching_the_distance_first_wins_at_once():
    match, said = say(start("libre", distance=2), "άστοχο", "πόντος", "πόντος")
    assert codes(said)[-1] == "winner" and said[-1].player == B
    same, said = say(match, "πόντος")
    assert same is match and codes(said) == ["refused.match_over"]


def tie(discipline="libre", distance=20):
    """Both players reach the distance after equal innings."""
    points_phrases = ["πόντος"] * distance
    return say(start(discipline, distance), *points_phrases, *points_phrases)


def test_tie_gives_an_extension_of_ten_percent_and_asks_who_starts():
    match, said = tie(distance=20)
    assert codes(said)[-2:] == ["extension", "turn.who_starts"]
    assert said[-2].points == 2
    assert match.at_table is None and match.phase.target == 22
    same, said = say(match, "πόντος")
    assert same is match and codes(said) == ["refused.awaiting_start"]


def test_extension_is_rounded_up_and_at_least_one_point():
    assert tie(distance=25)[0].phase.target == 25 + 3
    assert tie(distance=3)[0].phase.target == 3 + 1


def test_extension_order_is_chosen_again_and_the_new_breaker_may_be_either():
    match, _ = tie(distance=10)
    match, said = say(match, "ξεκινά Κωνσταντίνου")
    assert codes(said) == ["turn.starts"] and said[0].player == B
    # B breaks the extension: A now has the equalising inning.
    match, said = say(match, "πόντος")
    assert codes(said) == ["score", "turn.equalising"]
    match, said = say(match, "άστοχο")
    assert codes(said) == ["winner"] and said[0].player == B
    assert points(match) == (10, 11)


def test_second_tie_gives_a_single_stroke_extension_until_a_winner():
    match, _ = tie(distance=10)
    match, _ = say(match, "ξεκινά Παπαδόπουλος", "πόντος", "πόντος")
    assert match.phase.number == 2 and match.phase.single_stroke
    match, said = say(match, "ξεκινά Παπαδόπουλος", "πόντος")
    assert codes(said) == ["turn.starts", "score", "turn.equalising"]
    match, said = say(match, "πόντος")
    # Tied again after equal innings: another single-stroke extension.
    assert codes(said)[-2:] == ["extension.single_stroke", "turn.who_starts"]
    assert match.phase.number == 3 and match.phase.target == 13


def test_single_stroke_turns_pass_after_each_carom():
    match, _ = tie(distance=30)
    match, _ = say(match, "ξεκινά Παπαδόπουλος", *["πόντος"] * 3, *["πόντος"] * 3)
    match, said = say(match, "ξεκινά Κωνσταντίνου", "πόντος", "πόντος")
    assert codes(said) == ["turn.starts", "score", "turn", "score", "turn"]
    assert match.at_table == 1 and points(match) == (34, 34)


def test_starts_before_the_first_stroke_changes_who_breaks():
    match, said = say(start("three-cushion"), "ξεκινά Κωνσταντίνου")
    assert codes(said) == ["turn.starts"] and match.at_table == 1
    assert [p.innings for p in match.players] == [0, 1]
    match, said = say(match, "πόντος", "ξεκινά Παπαδόπουλος")
    assert codes(said)[-1] == "refused.already_started"


def test_equalising_with_the_breaker_winning_on_the_opponents_foul():
    match, said = say(start("three-cushion", distance=1), "πόντος", "φάουλ")
    assert codes(said) == ["score", "turn.equalising", "winner"]
