"""Article 5: one five-minute break per player, on his turn; timed by the clock's ticks."""

from rules.command import Command, Kind
from tests.support.match import A, B, codes, do, say, start


def test_break_on_his_turn_starts_and_ends():
    match, said = say(start("libre"), "διάλειμμα", "τέλος διαλείμματος")
    assert codes(said) == ["break_start", "break_end"]
    assert said[0].player == A and match.players[0].break_taken


def test_second_break_request_is_refused_with_the_reason():
    match, _ = say(start("libre"), "διάλειμμα", "τέλος διαλείμματος")
    same, said = say(match, "διάλειμμα")
    assert same is match and codes(said) == ["refused.break_taken"] and said[0].player == A


def test_break_out_of_turn_is_refused_twice_and_changes_nothing():
    match = start("libre")
    same, said = say(match, "διάλειμμα Κωνσταντίνου", "διάλειμμα Κωνσταντίνου")
    assert same is match
    assert codes(said) == ["refused.not_your_turn", "refused.not_your_turn"]
    assert said[0].player == B


def test_each_player_has_his_own_break():
    match, said = say(start("libre"), "διάλειμμα", "τέλος διαλείμματος", "άστοχο",
                      "διάλειμμα Κωνσταντίνου")
    assert codes(said)[-1] == "break_start" and said[-1].player == B


def test_play_is_refused_during_the_break():
    match, _ = say(start("libre"), "διάλειμμα")
    same, said = say(match, "πόντος")
    assert same is match and codes(said) == ["refused.in_break"]


def test_the_clock_gives_the_one_minute_warning_once_then_ends_the_break():
    match, _ = say(start("libre"), "διάλειμμα")
    match, said = do(
        match,
        Command(Kind.TICK, seconds=60),
        Command(Kind.TICK, seconds=240),
        Command(Kind.TICK, seconds=250),
        Command(Kind.TICK, seconds=300),
    )
    assert codes(said) == ["break_warning", "break_end"]
    assert match.pause is None


def test_ticks_outside_a_break_change_nothing():
    match = start("libre")
    same, said = do(match, Command(Kind.TICK, seconds=400))
    assert same is match and said == []


def test_break_end_without_a_break_is_refused():
    match = start("libre")
    same, said = say(match, "τέλος διαλείμματος")
    assert same is match and codes(said) == ["refused.no_break"]
