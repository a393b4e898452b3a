"""A match set-up the rules cannot play is refused with a SetupError naming the fault."""

import pytest

from rules.discipline import SetupError, discipline
from rules.errors import RefereeError
from rules.state import MAX_DISTANCE, OnTie, Setup


@pytest.mark.parametrize(
    "args,fault",
    [
        (("snooker", 50, ("Α", "Β")), "unknown discipline 'snooker'; choose one of: libre, "),
        (("libre", 2.5, ("Α", "Β")), "the distance must be a whole number, not 2.5"),
        (("libre", True, ("Α", "Β")), "the distance must be a whole number, not True"),
        (("libre", MAX_DISTANCE + 1, ("Α", "Β")), f"the distance must be 1 to {MAX_DISTANCE}"),
        (("libre", 50, ("Α", " ")), "exactly two non-empty surnames"),
        (("libre", 50, ("Άλφα", "αλφα")), "the two surnames must differ"),
        (("libre", 50, ("Α", "Β"), 2), "the player who breaks must be one of the two"),
    ],
)
def test_a_bad_set_up_is_a_setup_error_naming_the_fault(args, fault):
    with pytest.raises(SetupError, match=fault):
        Setup(*args)


def test_an_unknown_discipline_name_is_a_setup_error():
    with pytest.raises(SetupError, match="unknown discipline 'carom'"):
        discipline("carom")


def test_setup_errors_are_the_projects_errors_and_still_value_errors():
    assert issubclass(SetupError, RefereeError) and issubclass(SetupError, ValueError)


def test_each_surname_is_said_as_written_unless_a_spoken_form_is_given():
    assert Setup("libre", 50, ("Α", "Β")).spoken == ("Α", "Β")
    given = Setup("libre", 50, ("Jaspers", "Β"), spoken=("Γιάσπερς", "Β"))
    assert given.pronounced == {"Jaspers": "Γιάσπερς", "Β": "Β"}


@pytest.mark.parametrize(
    "spoken,fault",
    [(("Γ",), "one non-empty spoken form"), (("Γ", " "), "one non-empty spoken form"),
     (("Γιάσπερς", "jaspers"), "the two players' surnames must sound different")],
)
def test_spoken_forms_that_cannot_tell_the_players_apart_are_a_setup_error(spoken, fault):
    with pytest.raises(SetupError, match=fault):
        Setup("libre", 50, ("Jaspers", "Β"), spoken=spoken)


def test_a_set_up_round_trips_through_its_dict_keeping_only_what_is_set():
    plain = Setup("libre", 50, ("Α", "Β"))
    assert plain.to_dict() == {"discipline": "libre", "distance": 50, "players": ["Α", "Β"],
                               "first": 0, "spoken": ["Α", "Β"]}
    full = Setup("libre", 60, ("Α", "Β"), 1, handicap=(60, 40), innings_limit=30,
                 on_tie=OnTie.DRAW, warm_up_seconds=120, table="2", referee="Γ",
                 shot_clock=40, time_outs=2, equalising=False, spoken=("Άλφα", "Βήτα"))
    assert list(full.to_dict())[5:] == [
        "handicap", "innings_limit", "on_tie", "draw_at_distance", "warm_up_seconds", "table",
        "referee",
        "shot_clock", "time_outs", "equalising",
    ]
    assert full.to_dict()["equalising"] is False  # written only when false, as the record keeps it
    assert Setup.from_dict(full.to_dict()) == full and Setup.from_dict(plain.to_dict()) == plain


def test_only_a_draw_may_be_drawn_at_the_innings_limit_only_as_records_made_before_were():
    with pytest.raises(SetupError, match="only a tie settled by a draw"):
        Setup("libre", 50, ("Α", "Β"), innings_limit=30, draw_at_limit_only=True)
    old = {"discipline": "libre", "distance": 50, "players": ["Α", "Β"], "first": 0,
           "innings_limit": 30, "on_tie": "draw"}  # before `draw_at_distance` was written
    assert Setup.from_dict(old).draw_at_limit_only
    assert not Setup.from_dict({**old, "draw_at_distance": True}).draw_at_limit_only
    assert not Setup.from_dict({**old, "on_tie": "extension"}).draw_at_limit_only


def test_the_hall_is_kept_in_the_set_up_s_dict_and_a_set_up_written_before_has_none():
    named = Setup("libre", 50, ("Α", "Β"), hall="Ακαδημία", table="3")
    assert named.to_dict()["hall"] == "Ακαδημία"
    assert Setup.from_dict(named.to_dict()) == named
    old = {"discipline": "libre", "distance": 50, "players": ["Α", "Β"], "first": 0,
           "table": "3"}  # before the hall was written
    assert Setup.from_dict(old).hall is None and Setup.from_dict(old).table == "3"


def test_a_hall_named_by_other_than_text_is_a_setup_error():
    with pytest.raises(SetupError, match="the hall, the table, the referee and the scorer"):
        Setup("libre", 50, ("Α", "Β"), hall=3)


def test_a_set_up_written_before_spoken_forms_and_formats_reads_as_the_plain_format():
    old = {"discipline": "libre", "distance": 50, "players": ["Α", "Β"], "first": 1}
    assert Setup.from_dict(old) == Setup("libre", 50, ("Α", "Β"), 1)


@pytest.mark.parametrize("data,fault", [
    ({"discipline": "libre"}, "needs the field 'distance'"),
    ([], "not as to_dict writes them"),
    ({"discipline": "libre", "distance": 5, "players": 7, "first": 0}, "not as to_dict"),
])
def test_a_malformed_set_up_dict_is_a_setup_error(data, fault):
    with pytest.raises(SetupError, match=fault):
        Setup.from_dict(data)
