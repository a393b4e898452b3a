"""The shot clock and time-outs: restarted by each stroke outcome, timed by the clock's ticks."""

import pytest

from phrases.render import render
from rules import shot_clock
from rules.command import Command, Kind
from rules.discipline import SetupError
from rules.match import replay
from rules.state import Setup, new_match
from tests.support.match import PLAYERS, A, B, codes, do, say


def tick(seconds: float, shot: int | None = None) -> Command:
    return Command(Kind.TICK, seconds=seconds, shot=shot)


def ticks(match, *seconds: float):
    """The shot clock's ticks, each naming the shot running when it comes, as the loop's do."""
    said = []
    for second in seconds:
        shot = match.shot_clock.shot if match.shot_clock else None
        match, out = do(match, tick(second, shot))
        said.extend(out)
    return match, said


def clocked(time_outs: int | None = None, seconds: int = 30):
    return new_match(Setup("three-cushion", 15, PLAYERS, shot_clock=seconds, time_outs=time_outs))


def test_the_clock_starts_at_the_first_stroke_and_restarts_at_every_outcome():
    match = clocked()
    assert match.shot_clock is None and shot_clock.timed(match) is None
    match, _ = say(match, "πόντος")
    first = shot_clock.timed(match)
    assert first is not None and first[0] == "shot"
    match, _ = say(match, "άστοχο")
    assert shot_clock.timed(match) not in (None, first)
    assert match.at_table == 1


def test_no_clock_without_the_set_up_saying_so():
    match, _ = say(new_match(Setup("three-cushion", 15, PLAYERS)), "πόντος")
    assert match.shot_clock is None
    assert ticks(match, 1000) == (match, [])


def test_ten_seconds_before_the_end_a_warning_then_time_up_ends_the_inning():
    match, _ = say(clocked(), "πόντος")
    match, said = ticks(match, 19)
    assert said == []
    match, said = ticks(match, 20, 25)
    assert codes(said) == ["shot_clock_warning"] and said[0].player == A
    assert render(said[0]).channel == "headset"
    match, said = ticks(match, 30)
    assert codes(said) == ["shot_clock_expired", "turn"] and said[1].player == B
    assert render(said[0]).channel == "pa"
    assert match.at_table == 1 and list(match.players[0].innings_points) == [1]
    assert match.shot_clock is not None and match.shot_clock.periods == 1


def test_a_time_out_left_is_applied_at_zero_and_adds_a_period():
    match, _ = say(clocked(time_outs=1), "πόντος")
    match, said = ticks(match, 30)
    assert codes(said) == ["time_out"] and said[0].player == A
    assert render(said[0]).channel == "pa" and render(said[0]).text == f"τάιμ άουτ, {A}"
    assert match.at_table == 0 and match.players[0].time_outs == 1
    match, said = ticks(match, 49)
    assert said == []
    match, said = ticks(match, 50, 60)
    assert codes(said) == ["shot_clock_warning", "shot_clock_expired", "turn"]
    assert match.at_table == 1


def test_the_referee_calls_a_time_out_until_none_is_left():
    match, _ = say(clocked(time_outs=1), "πόντος")
    match, said = say(match, "τάιμ άουτ")
    assert codes(said) == ["time_out"] and match.shot_clock.periods == 2
    match, said = ticks(match, 59)
    assert codes(said) == ["shot_clock_warning"] and match.at_table == 0
    again, said = say(match, "τάιμ άουτ")
    assert again is match and codes(said) == ["refused.no_time_outs"] and said[0].player == A


def test_each_player_has_his_own_time_outs():
    match, _ = say(clocked(time_outs=1), "πόντος", "τάιμ άουτ", "άστοχο")
    match, said = say(match, "τάιμ άουτ")
    assert codes(said) == ["time_out"] and said[0].player == B


def test_a_time_out_is_refused_while_no_clock_runs():
    match, said = say(clocked(time_outs=3), "τάιμ άουτ")
    assert codes(said) == ["refused.no_shot_clock"]
    match, said = say(new_match(Setup("libre", 15, PLAYERS)), "πόντος", "τάιμ άουτ")
    assert codes(said)[-1] == "refused.no_shot_clock"


def test_the_clock_stops_in_a_break_and_restarts_after_it():
    match, _ = say(clocked(), "πόντος", "άστοχο", "διάλειμμα")
    assert match.shot_clock is None and shot_clock.timed(match) == ("break", 1)
    match, said = ticks(match, 30)
    assert said == [] and match.at_table == 1  # the break's clock, not the shot's
    match, _ = say(match, "τέλος διαλείμματος")
    assert shot_clock.timed(match)[0] == "shot"


def test_a_tick_of_another_shot_or_of_a_break_changes_nothing():
    match, _ = say(clocked(), "πόντος")
    shot = match.shot_clock.shot
    for late in (tick(30), tick(30, shot - 1), tick(30, shot + 1)):
        assert do(match, late) == (match, [])
    assert codes(do(match, tick(30, shot))[1]) == ["shot_clock_expired", "turn"]


def test_the_clock_stops_when_the_match_is_won():
    match, said = say(new_match(Setup("three-cushion", 1, PLAYERS, shot_clock=30)),
                      "πόντος", "άστοχο")
    assert match.over and match.shot_clock is None


def test_an_undo_restarts_the_clock_and_drops_the_ticks_of_the_withdrawn_shot():
    match, _ = say(clocked(time_outs=2), "πόντος", "πόντος")
    before = shot_clock.timed(match)
    match, said = ticks(match, 30)
    assert match.players[0].time_outs == 1
    match, said = say(match, "διόρθωση")
    assert match.players[0].points == 1 and match.players[0].time_outs == 0
    assert shot_clock.timed(match) not in (None, before) and match.shot_clock.periods == 1


def test_a_replay_gives_the_same_clock_and_time_outs():
    match, _ = say(clocked(time_outs=1), "πόντος")
    match, _ = ticks(match, 30, 60)
    match, _ = say(match, "τάιμ άουτ")
    again = replay(match.setup, match.history)
    assert again.shot_clock == match.shot_clock
    assert [p.time_outs for p in again.players] == [1, 1]


@pytest.mark.parametrize("fields,message", [
    ({"shot_clock": 0}, "shot clock"),
    ({"shot_clock": 601}, "shot clock"),
    ({"shot_clock": True}, "shot clock"),
    ({"time_outs": 3}, "need a shot clock"),
    ({"shot_clock": 30, "time_outs": -1}, "time-outs"),
    ({"shot_clock": 30, "time_outs": 11}, "time-outs"),
    ({"equalising": "no"}, "equalising"),
])
def test_bad_clock_set_ups_are_refused(fields, message):
    with pytest.raises(SetupError, match=message):
        Setup("three-cushion", 15, PLAYERS, **fields)
