"""The protocol's innings: each inning's points in the state, and corrections of any past inning."""

from rules.command import Command, Kind
from rules.match import replay
from rules.state import OnTie, Setup, new_match
from tests.support.match import PLAYERS, A, B, codes, do, points, say, start


def correct(inning: int, points: int, player: str = A) -> Command:
    return Command(Kind.CORRECT, player=player, inning=inning, points=points)


def played() -> object:
    """A: 2, 0, 3 (at the table in his fourth inning, run 1); B: 1, 0, 0."""
    match, _ = say(start("libre", 10), "πόντος", "πόντος", "άστοχο", "πόντος", "άστοχο",
                   "άστοχο", "άστοχο", "πόντος", "πόντος", "πόντος", "άστοχο", "άστοχο",
                   "πόντος")
    return match


def test_each_finished_inning_is_kept_in_order():
    match = played()
    assert [tuple(p.innings_points) for p in match.players] == [(2, 0, 3), (1, 0, 0)]
    assert match.at_table == 0 and match.run == 1 and match.players[0].innings == 4


def test_a_correction_recomputes_points_highest_run_and_says_the_score():
    match, said = do(played(), correct(3, 1))
    a = match.players[0]
    assert tuple(a.innings_points) == (2, 0, 1) and a.points == 4 and a.highest_run == 2
    assert codes(said) == ["repeat_score.undo"] and said[0].scores == ((A, 4), (B, 1))
    assert match.players[0].innings == 4 and match.run == 1


def test_a_correction_of_the_other_player_keeps_the_run_of_the_one_at_the_table():
    match, _ = do(played(), correct(3, 0, B))
    assert tuple(match.players[1].innings_points) == (1, 0, 0)  # unchanged points are accepted
    match, _ = do(played(), correct(1, 3, B))
    assert points(match) == (6, 3) and match.run == 1 and match.at_table == 0


def test_an_inning_not_played_is_refused():
    match = played()
    for inning in (0, 4, 9):  # A's fourth inning is still being played
        same, said = do(match, correct(inning, 1))
        assert same is match and codes(said) == ["refused.not_played"]


def test_a_negative_number_is_refused():
    match = played()
    same, said = do(match, correct(1, -1))
    assert same is match and codes(said) == ["refused.negative_points"]


def test_passing_the_distance_before_the_last_inning_is_refused():
    match = played()  # A: 6 points at the table, distance 10
    for inning, pts in ((1, 9), (1, 6), (3, 7)):  # 10+ before his last, or 10 while at it
        same, said = do(match, correct(inning, pts))
        assert same is match and codes(said) == ["refused.passes_distance"], (inning, pts)


def test_an_unknown_player_is_refused():
    same, said = do(played(), correct(1, 1, "Άλλος"))
    assert codes(said) == ["refused.unknown_player"]


def test_a_correction_that_changes_who_reached_the_distance_is_refused():
    match, _ = say(start("libre", 3), "πόντος", "άστοχο", "άστοχο", "πόντος", "πόντος", "άστοχο")
    assert match.winner == 0
    same, said = do(match, correct(2, 1))  # A would not have reached 3
    assert same is match and codes(said) == ["refused.changes_end"]
    same, said = do(match, correct(1, 3, B))  # B would have reached it: a tie
    assert same is match and codes(said) == ["refused.passes_distance"]


def test_a_correction_at_the_innings_limit_may_change_the_winner():
    setup = Setup("libre", 50, PLAYERS, innings_limit=1)
    match, said = say(new_match(setup), "πόντος", "άστοχο", "πόντος", "πόντος", "άστοχο")
    assert match.winner == 1
    match, said = do(match, correct(1, 3))
    assert match.winner == 0 and codes(said) == ["repeat_score.undo", "winner"]
    same, said = do(match, correct(1, 2))  # a tie would have brought the extension
    assert same is match and codes(said) == ["refused.changes_end"]


def test_a_correction_to_equal_points_at_the_limit_is_a_draw_with_on_tie_draw():
    setup = Setup("libre", 50, PLAYERS, innings_limit=1, on_tie=OnTie.DRAW)
    match, _ = say(new_match(setup), "πόντος", "άστοχο", "άστοχο")
    match, said = do(match, correct(1, 1, B))
    assert match.drawn and match.winner is None and codes(said)[-1] == "draw"


def test_only_the_extensions_innings_are_corrected_during_it():
    match, _ = say(start("libre", 1), "πόντος", "πόντος")
    assert match.phase.number == 1
    match, _ = say(match, "ξεκινά Παπαδόπουλος", "άστοχο")
    same, said = do(match, correct(1, 0))
    assert codes(said) == ["refused.before_extension"]
    match, said = do(match, correct(2, 0, A))
    assert codes(said) == ["repeat_score.undo"]


def test_a_forgotten_round_is_inserted_with_no_point_for_either():
    match, said = do(played(), Command(Kind.INSERT_INNING, inning=2))
    assert [tuple(p.innings_points) for p in match.players] == [(2, 0, 0, 3), (1, 0, 0, 0)]
    assert [p.innings for p in match.players] == [5, 4] and points(match) == (6, 1)
    assert codes(said) == ["repeat_score.undo"]
    match, _ = do(match, Command(Kind.INSERT_INNING, inning=5))  # just before the current
    assert match.players[0].innings == 6 and match.run == 1


def test_an_inserted_round_out_of_range_or_beyond_the_limit_is_refused():
    match = played()
    same, said = do(match, Command(Kind.INSERT_INNING, inning=5))
    assert same is match and codes(said) == ["refused.not_played"]
    fresh, _ = say(start("libre"), "προθέρμανση")  # nothing played yet
    same, said = do(fresh, Command(Kind.INSERT_INNING, inning=1))
    assert same is fresh and codes(said) == ["refused.not_played"]
    limited = new_match(Setup("libre", 50, PLAYERS, innings_limit=2))
    limited, _ = say(limited, "άστοχο", "άστοχο")
    same, said = do(limited, Command(Kind.INSERT_INNING, inning=1))
    assert same is limited and codes(said) == ["refused.over_limit"]


def test_a_correction_is_withdrawn_by_undo_and_replays():
    match, _ = do(played(), correct(3, 1), Command(Kind.INSERT_INNING, inning=1))
    assert replay(match.setup, match.history) == match
    undone, said = say(match, "διόρθωση", "διόρθωση")
    assert codes(said) == ["withdrawn.insert_inning", "repeat_score.undo",
                           "withdrawn.correct", "repeat_score.undo"]
    assert undone == played()


def delete(inning: int) -> Command:
    return Command(Kind.DELETE_INNING, inning=inning)


def test_a_spurious_round_is_deleted_and_the_totals_recomputed():
    match, said = do(played(), delete(2))  # A: 2, 0, 3 → 2, 3; B: 1, 0, 0 → 1, 0
    assert [tuple(p.innings_points) for p in match.players] == [(2, 3), (1, 0)]
    assert [p.innings for p in match.players] == [3, 2] and points(match) == (6, 1)
    assert match.phase.innings == (3, 2) and match.at_table == 0 and match.run == 1
    assert codes(said) == ["repeat_score.undo"]
    match, _ = do(match, delete(1))  # a round with points: A 3 + run 1, B 0
    assert points(match) == (4, 0) and [p.highest_run for p in match.players] == [3, 0]
    assert replay(match.setup, match.history) == match


def test_deleting_a_round_not_played_by_both_is_refused():
    match = played()
    for inning in (0, 4, 7):  # round 4: A is still playing his fourth inning
        same, said = do(match, delete(inning))
        assert same is match and codes(said) == ["refused.not_played"], inning


def test_deleting_a_round_that_changes_the_end_is_refused():
    match, _ = say(start("libre", 3), "πόντος", "άστοχο", "άστοχο", "πόντος", "πόντος", "άστοχο")
    assert match.winner == 0
    same, said = do(match, delete(1))  # A would have 2 of his 3
    assert same is match and codes(said) == ["refused.changes_end"]
    limited = new_match(Setup("libre", 50, PLAYERS, innings_limit=2))
    limited, _ = say(limited, "άστοχο", "άστοχο", "πόντος", "άστοχο", "άστοχο")
    assert limited.winner == 0
    same, said = do(limited, delete(1))  # the limit that ended it would not be reached
    assert same is limited and codes(said) == ["refused.changes_end"]


def extended() -> object:
    """Libre to 1: round 1 0:0, then a tie at the distance in round 2; A won the extension."""
    match, _ = say(start("libre", 1), "άστοχο", "άστοχο", "πόντος", "πόντος",
                   "ξεκινά Παπαδόπουλος", "πόντος", "άστοχο")
    assert match.winner == 0 and match.phase.number == 1
    return match


def test_after_an_extension_an_earlier_inning_is_refused_with_the_tie_it_would_break():
    match = extended()
    same, said = do(match, correct(2, 0))  # A's reaching point, before the extension
    assert same is match and codes(said) == ["refused.breaks_tie"]
    same, said = do(match, correct(1, 1, B))
    assert same is match and codes(said) == ["refused.breaks_tie"]
    kept, said = do(match, correct(1, 0))  # as it was: taken, nothing changes
    assert kept is not match and kept.players == match.players and kept.winner == 0
    fixed, said = do(match, correct(3, 1))  # the extension's inning itself
    assert fixed.winner == 0 and codes(said) == ["repeat_score.undo"]


def test_after_an_extension_a_pointless_round_before_it_may_be_deleted():
    match, said = do(extended(), delete(1))
    assert [tuple(p.innings_points) for p in match.players] == [(1, 1), (1, 0)]
    assert match.winner == 0 and points(match) == (2, 1) and match.phase == extended().phase
    same, said = do(extended(), delete(2))  # the tie's round
    assert codes(said) == ["refused.breaks_tie"]
    during, _ = say(start("libre", 1), "άστοχο", "άστοχο", "πόντος", "πόντος")
    same, said = do(during, delete(1))  # the extension being played: its rounds only
    assert codes(said) == ["refused.before_extension"]


def test_an_insert_that_makes_the_inning_being_played_the_last_announces_it():
    limited = new_match(Setup("libre", 50, PLAYERS, innings_limit=3))
    limited, _ = say(limited, "άστοχο", "άστοχο")  # A at the table in his second inning
    match, said = do(limited, Command(Kind.INSERT_INNING, inning=1))
    assert match.players[0].innings == 3 and match.at_table == 0
    assert codes(said) == ["repeat_score.undo", "last_inning"] and said[1].player == A
    again, said = do(limited, Command(Kind.INSERT_INNING, inning=2))
    assert codes(said) == ["repeat_score.undo", "last_inning"]
