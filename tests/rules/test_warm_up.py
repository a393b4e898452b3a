"""The warm-up before the match: started by «προθέρμανση», timed by the clock's ticks."""

from phrases.render import render
from rules.command import Command, Kind
from rules.match import apply, replay
from rules.state import Setup, new_match
from tests.support.match import PLAYERS, A, B, codes, do, say, start


def tick(seconds: float) -> Command:
    return Command(Kind.TICK, seconds=seconds)


def test_the_warm_up_starts_on_the_pa_and_ends_when_the_referee_says_so():
    match, said = say(start("libre"), "προθέρμανση")
    assert codes(said) == ["warm_up_start"] and said[0].player == A
    assert render(said[0]).channel == "pa"
    match, said = say(match, "τέλος προθέρμανσης")
    assert codes(said) == ["warm_up_end"] and match.warm_up is None


def test_the_named_player_warms_up():
    match, said = say(start("libre"), "προθέρμανση Κωνσταντίνου")
    assert said[0].player == B and match.warm_up is not None and match.warm_up.player == 1


def test_the_clock_warns_on_the_headset_at_one_minute_left_then_ends_it_on_the_pa():
    match, _ = say(start("libre"), "προθέρμανση")
    match, said = do(match, tick(1), tick(239))
    assert said == []
    match, said = do(match, tick(240), tick(250))
    assert codes(said) == ["warm_up_warning"] and render(said[0]).channel == "headset"
    match, said = do(match, tick(299.9))
    assert said == [] and match.warm_up is not None
    match, said = do(match, tick(300))
    assert codes(said) == ["warm_up_end"] and render(said[0]).channel == "pa"
    assert match.warm_up is None


def test_the_warm_up_length_is_configurable():
    match = new_match(Setup("libre", 50, PLAYERS, warm_up_seconds=180))
    match, _ = say(match, "προθέρμανση")
    match, said = do(match, tick(119), tick(120), tick(180))
    assert codes(said) == ["warm_up_warning", "warm_up_end"]


def test_play_is_refused_during_the_warm_up():
    match, _ = say(start("libre"), "προθέρμανση")
    same, said = say(match, "πόντος")
    assert same is match and codes(said) == ["refused.in_warm_up"] and said[0].player == A


def test_a_warm_up_after_play_has_started_is_refused():
    match, _ = say(start("libre"), "πόντος")
    same, said = say(match, "προθέρμανση")
    assert same is match and codes(said) == ["refused.already_started"]


def test_both_players_warm_up_and_who_starts_may_still_be_said():
    match, said = say(start("libre"), "προθέρμανση", "τέλος προθέρμανσης",
                      "προθέρμανση Κωνσταντίνου", "τέλος προθέρμανσης", "ξεκινά Κωνσταντίνου")
    assert codes(said)[-1] == "turn.starts" and match.at_table == 1


def test_the_end_without_a_warm_up_is_refused():
    same, said = say(start("libre"), "τέλος προθέρμανσης")
    assert codes(said) == ["refused.no_warm_up"]


def test_a_warm_up_is_withdrawn_by_undo_and_replays():
    match, _ = say(start("libre"), "προθέρμανση")
    undone, said = say(match, "διόρθωση")
    assert undone.warm_up is None and codes(said)[0] == "withdrawn.warm_up"
    match, _ = do(match, tick(240), tick(300))
    assert replay(match.setup, match.history) == match
    assert apply(match, Command(Kind.POINT))[0].players[0].points == 1
