"""The board's view of the competition formats: innings left, each one's distance, the
warm-up clock, a draw, and the last innings across an extension, sets and a correction."""

import pytest

from rules.command import Command, Kind
from rules.state import OnTie, Setup
from tests.support.match import PLAYERS, A, B
from voice.match_record.database import Record
from voice.match_record.ledger import Ledger
from voice.scoreboard.view import View


@pytest.fixture
def record(tmp_path):
    with Record.open(tmp_path / "m.sqlite3") as record:
        yield record


def played(record, setup, *phrases):
    ledger = Ledger(record, record.create_match(setup))
    for text in phrases:
        ledger.hear(text)
    return View.load(record, ledger.match_id).state


def test_the_board_shows_the_innings_left_and_each_distance(record):
    setup = Setup("libre", 20, PLAYERS, handicap=(20, 12), innings_limit=3)
    state = played(record, setup, "πόντος", "πόντος", "άστοχο", "πόντος")
    assert [p["innings_left"] for p in state["players"]] == [2, 3]
    assert [p["distance"] for p in state["players"]] == [20, 12]
    assert [p["points"] for p in state["players"]] == [2, 1]
    assert state["innings_limit"] == 3


def test_without_a_limit_no_innings_are_counted_down(record):
    state = played(record, Setup("libre", 20, PLAYERS), "άστοχο")
    assert [p["innings_left"] for p in state["players"]] == [None, None]


def test_the_warm_up_shows_its_recorded_start_and_length_while_it_lasts(record):
    setup = Setup("libre", 20, PLAYERS, warm_up_seconds=180)
    state = played(record, setup, "προθέρμανση")
    events = record.load(state["match"]).events
    assert state["warm_up"] == A and state["warm_up_started"] == events[0].created
    assert state["warm_up_seconds"] == 180
    assert played(record, setup, "προθέρμανση", "τέλος προθέρμανσης")["warm_up_started"] is None


def test_a_draw_is_on_the_board(record):
    setup = Setup("libre", 20, PLAYERS, innings_limit=1, on_tie=OnTie.DRAW)
    state = played(record, setup, "άστοχο", "άστοχο")
    assert state["drawn"] and state["winner"] is None and state["turn"] is None


def test_the_board_times_the_shot_from_its_recorded_start_with_a_period_per_time_out(record):
    setup = Setup("three-cushion", 20, PLAYERS, shot_clock=40, time_outs=2, hall="Ακαδημία",
                  table="Τραπέζι 2", referee="Ιωάννου")
    state = played(record, setup, "πόντος", "πόντος", "τάιμ άουτ")
    events = record.load(state["match"]).events
    assert state["shot_clock"] == {"started": events[1].created, "seconds": 80,
                                   "warning_seconds": 10}  # the second point restarted it
    assert (state["hall"], state["table"], state["referee"]) == ("Ακαδημία", "Τραπέζι 2",
                                                                 "Ιωάννου")
    assert played(record, Setup("three-cushion", 20, PLAYERS), "πόντος")["shot_clock"] is None
    assert played(record, setup, "πόντος", "διάλειμμα")["shot_clock"] is None  # it stops


def last_innings(state):
    return [p["last_innings"] for p in state["players"]]


def test_the_last_innings_run_on_into_an_extension(record):
    tie = ["πόντος"] * 4  # both reach 2 in one inning each: an extension to 3
    state = played(record, Setup("libre", 2, PLAYERS), *tie, f"ξεκινά {B}", "πόντος")
    assert state["extension"] == 1
    assert last_innings(state) == [[2], [2, 1]]  # B's extension inning after his first


def test_the_last_innings_run_on_from_set_to_set(record):
    setup = Setup("libre", 2, PLAYERS, sets=3)
    state = played(record, setup, "πόντος", "πόντος", "άστοχο", "άστοχο", "πόντος")
    assert state["sets_won"] == [1, 0]  # B broke set 2 and missed; A is at the table
    assert last_innings(state) == [[2], [0, 0]]


def test_a_corrected_inning_is_listed_as_corrected(record):
    ledger = Ledger(record, record.create_match(Setup("libre", 20, PLAYERS)))
    for text in ["πόντος", "άστοχο", "άστοχο", "πόντος", "πόντος", "άστοχο"]:
        ledger.hear(text)
    ledger.command(Command(Kind.CORRECT, player=A, inning=1, points=4))
    assert last_innings(View.load(record, ledger.match_id).state) == [[4, 2], [0]]
