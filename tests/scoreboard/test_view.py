"""The scoreboard's view of a record, advanced per event: calls, reminders, the last innings,
balls off the table and the break start."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.command import Command, Kind
from rules.match import BREAK_SECONDS, apply
from rules.state import Setup, new_match
from tests.support.match import PLAYERS, A, B
from voice.match_record.database import Record, RecordedEvent
from voice.match_record.ledger import Ledger
from voice.scoreboard.schema import LAST_INNINGS
from voice.scoreboard.view import View

KINDS = [Kind.POINT, Kind.MISS, Kind.ENTREES, Kind.OUT, Kind.BREAK, Kind.BREAK_END, Kind.UNDO]
COMMANDS = st.one_of(
    st.sampled_from(KINDS).map(Command),
    st.floats(0, 400).map(lambda s: Command(Kind.TICK, seconds=s)),
    st.just(Command(Kind.BALL_OFF, balls=("red", "white"))),
)


@pytest.fixture
def record(tmp_path):
    with Record.open(tmp_path / "m.sqlite3") as record:
        yield record


def played(record, *phrases, discipline="libre", distance=50):
    """The board of a new match after the referee said `phrases`."""
    ledger = Ledger(record, record.create_match(Setup(discipline, distance, PLAYERS)))
    for text in phrases:
        ledger.hear(text)
    return View.load(record, ledger.match_id).state


def calls(state):
    return [(c["display"], c["text"]) for c in state["call"]]


def reminders(state):
    return [p["reminder"] and p["reminder"]["display"] for p in state["players"]]


def fed(commands):
    """A view fed each command the rules accept, as the record would give it."""
    view = View(1, new_match(Setup("libre", 8, PLAYERS)))
    for seq, command in enumerate(commands, 1):
        match, said = apply(view.match, command)
        if match is not view.match:
            view.take(RecordedEvent(seq, command, "when", False), match, said)
    return view


@settings(max_examples=300, deadline=None)
@given(commands=st.lists(COMMANDS, max_size=60))
def test_the_board_after_undos_is_the_board_of_the_events_in_force_alone(commands):
    lived = fed(commands)
    direct = fed(list(lived.match.history))
    assert {**lived.board(), "seq": 0} == {**direct.board(), "seq": 0}


def test_events_that_change_nothing_shown_share_what_is_shown():
    view = View(1, new_match(Setup("libre", 10_000, PLAYERS)))
    for seq in range(1, 401):
        command = Command(Kind.MISS if seq % 4 == 0 else Kind.POINT)
        match, said = apply(view.match, command)
        view.take(RecordedEvent(seq, command, "when", False), match, said)
    assert len(view._shown) == 401 and len({id(shown) for shown in view._shown}) == 1


def test_the_board_carries_the_summary_and_the_record_position(record):
    state = played(record, "πόντος", "πόντος", "άστοχο")
    assert state["match"] == 1 and state["seq"] == 3
    assert [p["points"] for p in state["players"]] == [2, 0]
    assert state["turn"] == B and state["run"] == 0 and state["winner"] is None


def last_innings(state):
    return [p["last_innings"] for p in state["players"]]


def test_each_player_s_last_finished_innings_are_listed_the_latest_last(record):
    state = played(record, "πόντος", "πόντος", "άστοχο", "άστοχο", "πόντος")
    assert last_innings(state) == [[2], [0]]  # A's inning being played (its run: 1) is not
    assert last_innings(played(record)) == [[], []]


def test_the_last_innings_are_bounded_however_long_the_match(record):
    scored = [inning % 4 for inning in range(12)]  # A's innings; B misses each of his
    rounds = [["πόντος"] * points + ["άστοχο", "άστοχο"] for points in scored]
    state = played(record, *[text for inning in rounds for text in inning], distance=500)
    assert len(scored) > LAST_INNINGS
    assert last_innings(state) == [scored[-LAST_INNINGS:], [0] * LAST_INNINGS]


def test_undo_takes_an_inning_back_off_the_last_innings(record):
    state = played(record, "πόντος", "άστοχο", "πόντος", "πόντος", "άστοχο", "διόρθωση")
    assert last_innings(state) == [[1], []] and state["run"] == 2  # B's inning is his again
    assert last_innings(played(record, "πόντος", "άστοχο", "διόρθωση")) == [[], []]


def test_the_call_is_what_the_pa_said_of_the_balls_at_the_latest_stroke(record):
    assert calls(played(record, "αντρέ")) == [("ENTRÉES", "αντρέ")]
    assert calls(played(record, "αντρέ", "πόντος")) == [("DEDANS", "ντεντάν")]
    assert calls(played(record, "αντρέ", "πόντος", "πόντος έξω")) == []
    assert calls(played(record, "αντρέ", "πόντος", "πόντος")) == [
        ("RESTÉES DEDANS", "ρεστέ ντεντάν")  # nothing carries over to the next player
    ]


def test_the_call_is_the_pa_s_alone(record):
    state = played(record, "τους", discipline="three-cushion", distance=15)
    assert calls(state) == [("TOUCHENT", "τους")]  # not the headset's reminder


def test_a_cadre_call_names_the_frame_and_the_anchor(record):
    state = played(record, "αντρέ άγκυρα 5", discipline="cadre-47-2")
    assert calls(state) == [("ENTRÉES, κάδρο 5", "αντρέ, κάδρο πέντε"),
                            ("ENTRÉES · ΑΓΚΥΡΑ", "αντρέ άγκυρα")]


def test_the_call_stays_through_a_break_and_undo_brings_back_the_one_before(record):
    assert calls(played(record, "αντρέ", "διάλειμμα", "τέλος διαλείμματος")) == [
        ("ENTRÉES", "αντρέ")
    ]
    assert calls(played(record, "αντρέ", "πόντος", "διόρθωση")) == [("ENTRÉES", "αντρέ")]


def test_a_reminder_holds_until_its_player_scores_again(record):
    five = ["πόντος"] * 5
    assert reminders(played(record, *five, distance=10)) == ["ΓΙΑ ΠΕΝΤΕ", None]
    assert reminders(played(record, *five, "άστοχο", "πόντος", distance=10)) == [
        "ΓΙΑ ΠΕΝΤΕ", None
    ]
    assert reminders(played(record, *five, "πόντος", distance=10)) == [None, None]
    assert reminders(played(record, *five, "διόρθωση", distance=10)) == [None, None]
    three = played(record, "πόντος", "πόντος", discipline="three-cushion", distance=5)
    assert reminders(three) == ["ΓΙΑ ΤΡΕΙΣ", None]


def test_the_break_start_is_the_time_recorded_for_the_break_in_force(record):
    state = played(record, "πόντος", "διάλειμμα")
    events = record.load(state["match"]).events
    assert state["break"] == A and state["break_started"] == events[1].created
    assert state["break_seconds"] == BREAK_SECONDS
    assert played(record, "διάλειμμα", "τέλος διαλείμματος")["break_started"] is None


def test_undoing_back_into_a_break_gives_that_break_s_own_start(record):
    state = played(
        record, "διάλειμμα", "τέλος διαλείμματος", "άστοχο", "διάλειμμα", "διόρθωση",
        "διόρθωση", "διόρθωση",
    )
    events = record.load(state["match"]).events
    assert state["break"] == A
    assert state["break_started"] == events[0].created != events[3].created


def test_balls_off_are_shown_with_their_spots_until_the_next_stroke(record):
    off = played(record, "εκτός τραπεζιού κόκκινη λευκή", distance=10)["balls_off"]
    assert off["spots"] == [{"ball": "red", "spot": "foot"}, {"ball": "white", "spot": "centre"}]
    assert off["display"].startswith("ΕΚΤΟΣ ΤΡΑΠΕΖΙΟΥ") and off["text"].startswith("εκτός")
    assert played(record, "εκτός τραπεζιού κόκκινη", "πόντος")["balls_off"] is None
    assert played(record, "πόντος")["balls_off"] is None


def test_undo_withdraws_balls_off_and_brings_them_back_with_their_stroke(record):
    assert played(record, "εκτός τραπεζιού κόκκινη", "διόρθωση")["balls_off"] is None
    back = played(record, "εκτός τραπεζιού κόκκινη", "πόντος", "διόρθωση")["balls_off"]
    assert back["spots"] == [{"ball": "red", "spot": "foot"}]


def test_a_covered_spot_is_shown_as_announced(record):
    state = played(record, "εκτός τραπεζιού κόκκινη καλυμμένη από κίτρινη")
    assert state["balls_off"]["spots"] == [{"ball": "red", "spot": "head"}]


def test_a_view_catches_up_one_event_at_a_time(record):
    ledger = Ledger(record, record.create_match(Setup("libre", 50, PLAYERS)))
    view = View.load(record, ledger.match_id)
    ledger.hear("πόντος")
    assert view.catch_up(record) and view.current.seq == 1 and view.state["run"] == 1
    assert not view.catch_up(record)
    assert '"now":"12:00"}' in view.current.text("12:00")


def controls(state):
    return set(state["controls"])


ZONES = {"point_out", "point_entrees", "entrees", "out", "a_cheval", "libres"}
ANCHORS = {"point_out_anchor", "point_entrees_anchor", "entrees_anchor", "a_cheval_anchor"}
PLAY = {"point", "miss", "foul", "touchent", "fault_six", "ball_off", "break", "undo", "score"}


@pytest.mark.parametrize(("discipline", "offered"), [
    ("libre", PLAY | ZONES),
    ("cadre-47-2", PLAY | ZONES | ANCHORS),
    ("one-cushion", PLAY),
    ("three-cushion", PLAY),  # no LIBRES, no zones: the cushion games have none
])
def test_the_panel_is_offered_what_the_discipline_allows(record, discipline, offered):
    assert controls(played(record, "πόντος", discipline=discipline)) == offered


def test_the_panel_is_offered_what_the_moment_allows(record):
    first = controls(played(record, discipline="three-cushion"))
    assert {"starts", "warm_up"} <= first and "undo" not in first  # before the first stroke
    assert controls(played(record, "πόντος", "διάλειμμα")) == {"break_end", "undo", "score"}
    assert "break" not in controls(played(record, "διάλειμμα", "τέλος διαλείμματος"))
    assert "respot" in controls(played(record, "τους", discipline="three-cushion"))
    assert controls(played(record, "πόντος", "άστοχο", distance=1)) == {"undo", "score"}  # won
    waiting = played(record, "πόντος", "πόντος", distance=1)  # a tie: who starts?
    assert controls(waiting) == {"starts", "undo", "score"}
