"""`simulate` with an innings limit, a handicap and the warm-up; `correct`; the JSON and PDF
exports of the protocol."""

import json
import re
import sqlite3
import subprocess
from contextlib import closing
from datetime import datetime

import pytest

from tests.support.match import PLAYERS, A, B
from tests.support.server import ARTIFACTS
from voice.match_record.database import Record

NAMES = ",".join(PLAYERS)


@pytest.fixture
def db(tmp_path):
    return tmp_path / "m.sqlite3"


def simulate(referee, tmp_path, db, *lines, distance="50", options=()):
    path = tmp_path / "phrases.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return referee("simulate", "--discipline", "libre", "--distance", distance,
                   "--players", NAMES, "--db", db, "--jsonl", "--input", path, *options)


def lines(out):
    return [json.loads(line) for line in out.splitlines()]


def test_an_innings_limited_match_ends_after_both_last_innings_and_is_kept(referee, tmp_path, db):
    code, out, _ = simulate(referee, tmp_path, db, "πόντος", "άστοχο", "άστοχο",
                            options=("--innings", "1"))
    said = lines(out)
    assert code == 0
    assert [s["code"] for s in said[:-1]] == ["score", "turn", "last_inning", "winner"]
    assert said[-1]["winner"] == A and said[-1]["innings_limit"] == 1
    with Record.open(db) as record:
        assert record.load(1).setup.innings_limit == 1


def test_a_tie_at_the_limit_is_a_draw_with_on_tie_draw(referee, tmp_path, db):
    code, out, _ = simulate(referee, tmp_path, db, "άστοχο", "άστοχο",
                            options=("--innings", "1", "--on-tie", "draw"))
    assert lines(out)[-2]["code"] == "draw" and lines(out)[-1]["drawn"] is True


def test_a_handicap_gives_each_player_his_distance(referee, tmp_path, db):
    code, out, _ = simulate(referee, tmp_path, db, "άστοχο", *["πόντος"] * 3, distance="20,8")
    said = lines(out)
    assert [s["code"] for s in said[-3:-1]] == ["score", "for_five"]
    assert [p["distance"] for p in said[-1]["players"]] == [20, 8]
    assert said[-1]["distance"] == 20


@pytest.mark.parametrize("bad", ["5,6,7", "a", "5,"])
def test_a_bad_distance_is_one_line_and_exit_2(referee, tmp_path, db, bad):
    code, _, err = simulate(referee, tmp_path, db, "πόντος", distance=bad)
    assert code == 2 and len(err.strip().splitlines()) == 1 and "distance" in err


def test_the_warm_up_is_simulated_until_its_end_is_said(referee, tmp_path, db):
    code, out, _ = simulate(referee, tmp_path, db, "προθέρμανση", "πόντος",
                            "τέλος προθέρμανσης", "πόντος", options=("--warm-up", "3"))
    said = [s["code"] for s in lines(out)[:-1]]
    assert said == ["warm_up_start", "refused", "warm_up_end", "score"]
    with Record.open(db) as record:
        assert record.load(1).setup.warm_up_seconds == 180


def test_a_record_without_the_format_fields_still_loads(referee, tmp_path, db):
    simulate(referee, tmp_path, db, "πόντος")
    with closing(sqlite3.connect(db)) as raw, raw:
        raw.execute("""UPDATE matches SET setup = '{"discipline": "libre", "distance": 50,
                    "players": ["Παπαδόπουλος", "Κωνσταντίνου"], "first": 0}'""")
    code, out, _ = referee("export", "1", "--db", db)
    assert code == 0 and json.loads(out)["statistics"]["innings_limit"] is None


def played(referee, tmp_path, db):
    """A: 2, 0 and at the table (run 1); B: 1, 0."""
    simulate(referee, tmp_path, db, "πόντος", "πόντος", "άστοχο", "πόντος", "άστοχο",
             "άστοχο", "άστοχο", "πόντος")


def test_export_json_gives_each_players_innings_points(referee, tmp_path, db):
    played(referee, tmp_path, db)
    code, out, _ = referee("export", "1", "--db", db)
    players = json.loads(out)["statistics"]["players"]
    assert [p["innings_points"] for p in players] == [[2, 0, 1], [1, 0]]
    assert players[0]["points"] == 3 and players[0]["highest_run"] == 2


def test_a_correction_is_recorded_announced_and_recomputed(referee, tmp_path, db):
    played(referee, tmp_path, db)
    code, out, _ = referee("correct", "1", "--inning", "2", "--player", "παπαδοπουλος",
                           "--points", "4", "--jsonl", "--db", db)
    said = lines(out)
    assert code == 0 and said[0]["code"] == "repeat_score" and said[0]["channel"] == "pa"
    assert said[0]["text"].startswith("διόρθωση")
    assert said[-1]["players"][0]["innings_points"] == [2, 4, 1]
    with Record.open(db) as record:
        loaded = record.load(1)
    assert loaded.events[-1].command.kind == "correct" and loaded.events[-1].announced
    assert loaded.match.players[0].points == 7 and loaded.match.players[0].highest_run == 4


def test_a_forgotten_round_is_inserted(referee, tmp_path, db):
    played(referee, tmp_path, db)
    code, out, _ = referee("correct", "1", "--inning", "1", "--insert", "--db", db)
    assert code == 0
    code, out, _ = referee("export", "1", "--db", db)
    players = json.loads(out)["statistics"]["players"]
    assert [p["innings_points"] for p in players] == [[0, 2, 0, 1], [0, 1, 0]]


@pytest.mark.parametrize(("args", "why"), [
    (("--inning", "3", "--player", A, "--points", "1"), "has not finished an inning 3"),
    (("--inning", "1", "--player", A, "--points", "-2"), "negative"),
    (("--inning", "1", "--player", A, "--points", "49"), "before his last inning"),
    (("--inning", "9", "--insert"), "round 9 has not been played by both players"),
    (("--inning", "3", "--delete"), "round 3 has not been played by both players"),
    (("--inning", "1", "--delete", "--player", A), "--delete takes no --player or --points"),
    (("--inning", "1", "--player", "Άλλος", "--points", "1"), "neither of the players"),
    (("--inning", "1", "--player", A), "needs --player and --points"),
    (("--inning", "1", "--insert", "--points", "1"), "takes no --player or --points"),
])
def test_a_correction_that_cannot_apply_is_one_line_exit_2_and_changes_nothing(
    referee, tmp_path, db, args, why
):
    played(referee, tmp_path, db)
    before = db.read_bytes()
    code, out, err = referee("correct", "1", *args, "--db", db)
    assert code == 2 and out == "" and why in err and len(err.strip().splitlines()) == 1
    with Record.open(db) as record:
        assert len(record.load(1).events) == 8
    assert db.read_bytes() == before


def test_a_spurious_round_is_deleted(referee, tmp_path, db):
    played(referee, tmp_path, db)
    code, out, _ = referee("correct", "1", "--inning", "2", "--delete", "--jsonl", "--db", db)
    said = lines(out)
    assert code == 0 and said[0]["code"] == "repeat_score"
    assert [p["innings_points"] for p in said[-1]["players"]] == [[2, 1], [1]]
    with Record.open(db) as record:
        assert record.load(1).events[-1].command.kind == "delete_inning"


def extended(referee, tmp_path, db):
    """Libre to 1: a 0:0 round, a tie at the distance, and A won the extension."""
    simulate(referee, tmp_path, db, "άστοχο", "άστοχο", "πόντος", "πόντος",
             f"ξεκινά {A}", "πόντος", "άστοχο", distance="1")


def test_after_an_extension_a_correction_before_it_says_the_tie_it_would_break(
    referee, tmp_path, db
):
    extended(referee, tmp_path, db)
    before = db.read_bytes()
    code, out, err = referee("correct", "1", "--inning", "1", "--player", B, "--points", "1",
                             "--db", db)
    assert code == 2 and out == "" and db.read_bytes() == before
    assert (f"match 1: 1 points in inning 1 would change {B}'s points at the tie that brought "
            "the extension, and so the result" in err)
    code, out, err = referee("correct", "1", "--inning", "2", "--delete", "--db", db)
    assert code == 2 and "deleting round 2, played before the extension" in err
    code, out, _ = referee("correct", "1", "--inning", "1", "--delete", "--jsonl", "--db", db)
    assert code == 0 and lines(out)[-1]["winner"] == A
    assert [p["innings_points"] for p in lines(out)[-1]["players"]] == [[1, 1], [1, 0]]


def test_an_insert_into_the_last_inning_announces_it(referee, tmp_path, db):
    simulate(referee, tmp_path, db, "άστοχο", "άστοχο", options=("--innings", "3"))
    code, out, _ = referee("correct", "1", "--inning", "1", "--insert", "--jsonl", "--db", db)
    said = lines(out)
    assert code == 0 and [s["code"] for s in said[:-1]] == ["repeat_score", "last_inning"]
    assert said[1]["player"] == A


def test_a_correction_of_a_finished_match_can_change_the_winner_at_the_limit(
    referee, tmp_path, db
):
    simulate(referee, tmp_path, db, "πόντος", "άστοχο", "πόντος", "πόντος", "άστοχο",
             options=("--innings", "1"))
    code, out, _ = referee("correct", "1", "--inning", "1", "--player", A, "--points", "3",
                           "--jsonl", "--db", db)
    said = lines(out)
    assert [s["code"] for s in said[:-1]] == ["repeat_score", "winner"] and said[-1]["winner"] == A


def test_the_pdf_protocol_holds_the_header_the_innings_the_totals_and_the_result(
    referee, tmp_path, db
):
    simulate(referee, tmp_path, db, "πόντος", "πόντος", "άστοχο", "πόντος", "άστοχο",
             "άστοχο", "άστοχο", "διάλειμμα", "τέλος διαλείμματος", "πόντος", "πόντος",
             "πόντος", "άστοχο", distance="5,3",
             options=("--innings", "5", "--hall", "Ακαδημία Αθηνών", "--table", "Τραπέζι 2",
                      "--referee", "Ιωάννου", "--scorer", "Πέτρου"))
    pdf = tmp_path / "protocol.pdf"
    code, out, err = referee("export", "1", "--format", "pdf", "--output", pdf, "--db", db)
    assert code == 0 and pdf.read_bytes().startswith(b"%PDF")
    text = subprocess.run(["pdftotext", "-layout", pdf, "-"], capture_output=True,
                          text=True, check=True).stdout
    for expected in ("ΠΡΩΤΟΚΟΛΛΟ ΑΓΩΝΑ", "Ελεύθερο", f"{A} 5 · {B} 3", "Όριο προσπαθειών",
                     "Τραπέζι 2", "Ιωάννου", "Σύνολο", "Μέσος όρος", "Μεγαλύτερη σειρά",
                     "Διαλείμματα", "Υπογραφές", f"Αθλητής: {A}"):
        assert expected in text, expected
    assert re.search(r"Αίθουσα:\s+Ακαδημία Αθηνών", text)  # the hall, beside the table
    # The scorer in the header and on his own line to sign, beside the referee's.
    assert re.search(r"Σημειωτής:\s+Πέτρου", text)
    assert re.search(r"Διαιτητής: Ιωάννου\s+Σημειωτής: Πέτρου", text)
    # A: 2, 0 then 3 (reaching 5 in his third inning); B: 1, 0 and 0 in the equalising inning.
    assert re.search(rf"Νικητής:\s+{A}", text) and re.search(rf"Διαλείμματα:\s+{A}", text)
    rows = [line.split() for line in text.splitlines() if line.strip()[:1].isdigit()]
    assert rows[:3] == [["1", "2", "2", "1", "1"], ["2", "0", "2", "0", "1"],
                        ["3", "3", "5", "0", "1"]]
    averages = [line.split() for line in text.splitlines() if line.split()[:1] in ([A], [B])]
    assert averages[-2][-2:] == ["1,666", "3"] and averages[-1][-2:] == ["0,333", "1"]
    assert first_page_png(pdf, "protocol-page1").stat().st_size > 10_000
    fonts = subprocess.run(["pdffonts", pdf], capture_output=True, text=True).stdout
    assert "DejaVuSans" in fonts and all(
        line.split()[-5] == "yes" for line in fonts.splitlines()[2:]  # emb
    )


def first_page_png(pdf, name):
    """Page 1 of `pdf` as test-artifacts/NAME.png, to look at."""
    ARTIFACTS.mkdir(exist_ok=True)
    subprocess.run(["pdftoppm", "-png", "-r", "70", "-f", "1", "-l", "1", "-singlefile", pdf,
                    ARTIFACTS / name], check=True)
    return ARTIFACTS / f"{name}.png"


def test_a_pdf_needs_an_output_file(referee, tmp_path, db):
    played(referee, tmp_path, db)
    code, out, err = referee("export", "1", "--format", "pdf", "--db", db)
    assert code == 2 and "--output" in err and out == ""



def test_matches_lists_a_handicap_and_a_draw(referee, tmp_path, db):
    simulate(referee, tmp_path, db, "άστοχο", "άστοχο", distance="20,12",
             options=("--innings", "1", "--on-tie", "draw"))
    code, out, _ = referee("matches", "--db", db)
    assert code == 0 and "20/12" in out and "drawn" in out


def test_resume_keeps_the_innings_limit_and_the_handicap(referee, tmp_path, db):
    simulate(referee, tmp_path, db, "άστοχο", distance="20,6", options=("--innings", "2"))
    path = tmp_path / "more.txt"
    path.write_text("άστοχο\nάστοχο\nπόντος\n", encoding="utf-8")
    code, out, _ = referee("resume", "1", "--db", db, "--jsonl", "--input", path)
    said = lines(out)
    assert code == 0 and "last_inning" in [s["code"] for s in said]
    assert said[-1]["players"][1]["distance"] == 6 and said[-1]["innings_limit"] == 2


CLOCK = ("--shot-clock", "30")


def test_time_passing_runs_out_the_shot_clock_without_time_outs(referee, tmp_path, db):
    code, out, _ = simulate(referee, tmp_path, db, "πόντος", "+19", "+1", "+10", options=CLOCK)
    said = lines(out)
    assert code == 0
    assert [s["code"] for s in said[:-1]] == [
        "score", "shot_clock_warning", "shot_clock_expired", "turn"]
    assert said[1]["channel"] == "headset" and said[2]["channel"] == "pa"
    assert said[2]["text"] == f"τέλος χρόνου, {A}" and said[-1]["turn"] == B
    with Record.open(db) as record:
        setup = record.load(1).setup
    assert (setup.shot_clock, setup.time_outs) == (30, None)


def test_a_time_out_left_is_applied_when_the_time_runs_out(referee, tmp_path, db):
    code, out, _ = simulate(referee, tmp_path, db, "πόντος", "+30", "+30",
                            options=(*CLOCK, "--time-outs", "1"))
    said = [(s["code"], s.get("player")) for s in lines(out)[:-1]]
    assert said == [("score", A), ("shot_clock_warning", A), ("time_out", A),
                    ("shot_clock_warning", A), ("shot_clock_expired", A), ("turn", B)]
    with Record.open(db) as record:
        loaded = record.load(1)
    assert loaded.setup.time_outs == 1 and loaded.match.players[0].time_outs == 1


def test_a_called_time_out_adds_a_period_then_none_is_left(referee, tmp_path, db):
    code, out, _ = simulate(referee, tmp_path, db, "πόντος", "+15", "τάιμ άουτ", "+40",
                            "τάιμ άουτ", "+5", options=(*CLOCK, "--time-outs", "1"))
    said = lines(out)
    assert [s["code"] for s in said[:-1]] == [
        "score", "time_out", "shot_clock_warning", "refused", "shot_clock_expired", "turn"]
    assert said[3]["text"] == f"δεν έχει άλλο τάιμ άουτ, {A}"


def test_time_passing_ends_a_break_and_a_warm_up(referee, tmp_path, db):
    code, out, _ = simulate(referee, tmp_path, db, "προθέρμανση", "+60", "πόντος", "άστοχο",
                            "διάλειμμα", "+299", "+1", options=("--warm-up", "1"))
    assert [s["code"] for s in lines(out)[:-1]] == [
        "warm_up_start", "warm_up_end", "score", "turn", "break_start", "break_warning",
        "break_end"]


@pytest.mark.parametrize("bad", ["+", "+x", "+0", "+1.5", "+86401"])
def test_a_bad_time_passing_line_is_one_line_and_exit_2(referee, tmp_path, db, bad):
    code, out, err = simulate(referee, tmp_path, db, "πόντος", bad)
    recorded, fault = err.strip().splitlines()  # the match's line, then the one error line
    assert code == 2 and recorded.startswith("match 1 recorded in ")
    assert "+SECONDS" in fault and "referee resume 1" in fault


@pytest.mark.parametrize(("options", "why"), [
    (("--time-outs", "3"), "need a shot clock"),
    (("--shot-clock", "0"), "--shot-clock"),
    (("--shot-clock", "30", "--time-outs", "-1"), "--time-outs"),
])
def test_bad_clock_options_are_one_line_and_exit_2(referee, tmp_path, db, options, why):
    code, out, err = simulate(referee, tmp_path, db, "πόντος", options=options)
    assert code == 2 and why in err and len(err.strip().splitlines()) == 1 and out == ""


def test_no_equalising_ends_a_knock_out_match_at_once_and_is_kept(referee, tmp_path, db):
    code, out, _ = simulate(referee, tmp_path, db, "πόντος", "πόντος", distance="2",
                            options=("--no-equalising",))
    said = lines(out)
    assert code == 0 and said[-2]["code"] == "winner" and said[-1]["winner"] == A
    with Record.open(db) as record:
        assert record.load(1).setup.equalising is False
    with closing(sqlite3.connect(db)) as raw:
        (text,) = raw.execute("SELECT setup FROM matches").fetchone()
    assert json.loads(text)["equalising"] is False and "shot_clock" not in json.loads(text)


def test_sets_are_played_through_to_set_and_match_and_kept(referee, tmp_path, db):
    code, out, _ = simulate(referee, tmp_path, db, "πόντος", "πόντος", "άστοχο",  # set 1: A
                            "άστοχο", "πόντος", "πόντος",  # set 2: B breaks, A wins it
                            distance="2", options=("--sets", "3"))
    said = lines(out)
    assert code == 0
    called = [s["text"] for s in said[:-1] if s["code"] == "set" or "ΞΕΚΙΝΑ" in s["display"]]
    assert called == [f"σετ, {A}", f"ξεκινά: {B}", f"σετ και αγώνας, {A}"]
    assert said[-1]["sets_won"] == [2, 0] and said[-1]["winner"] == A
    with Record.open(db) as record:
        loaded = record.load(1)
    assert loaded.setup.sets == 3 and loaded.match.sets == (2, 0)


def test_resume_goes_on_with_the_next_set(referee, tmp_path, db):
    simulate(referee, tmp_path, db, "πόντος", "πόντος", "άστοχο", distance="2",
             options=("--sets", "3"))
    path = tmp_path / "more.txt"
    path.write_text("άστοχο\nπόντος\nπόντος\n", encoding="utf-8")  # B broke set 2: A wins it
    code, out, _ = referee("resume", "1", "--db", db, "--jsonl", "--input", path)
    said = lines(out)
    assert code == 0 and said[-2]["text"] == f"σετ και αγώνας, {A}"
    assert said[-1]["sets_won"] == [2, 0] and said[-1]["winner"] == A


def test_a_tie_brings_a_play_off_to_the_points_given(referee, tmp_path, db):
    code, out, _ = simulate(referee, tmp_path, db, *["πόντος"] * 4, f"ξεκινά {B}", "πόντος",
                            "άστοχο", distance="2", options=("--on-tie", "playoff:1"))
    said = lines(out)
    assert [s["code"] for s in said[5:-1]] == [
        "playoff", "turn", "turn", "score", "turn", "winner"]
    assert said[5]["text"] == "ισοπαλία, μπαράζ ενός πόντου" and said[-1]["winner"] == B
    with Record.open(db) as record:
        setup = record.load(1).setup
    assert (setup.on_tie, setup.playoff_points) == ("playoff", 1)


def test_a_tie_at_the_distance_is_a_draw_with_on_tie_draw(referee, tmp_path, db):
    code, out, _ = simulate(referee, tmp_path, db, *["πόντος"] * 4, distance="2",
                            options=("--on-tie", "draw"))
    said = lines(out)
    assert code == 0 and said[-2]["code"] == "draw" and said[-1]["drawn"] is True
    with Record.open(db) as record:
        assert record.load(1).setup.on_tie == "draw"


@pytest.mark.parametrize(("options", "why"), [
    (("--on-tie", "playoff:0"), "--on-tie: 'playoff:0' is not extension, draw, playoff"),
    (("--on-tie", "draw:3"), "playoff:POINTS"),
    (("--on-tie", "sudden"), "playoff:POINTS"),
    (("--sets", "4"), "must be an odd number from 1 to 9"),
    (("--sets", "3", "--on-tie", "draw"), "a set is not drawn"),
    (("--sets", "3", "--innings", "20"), "without an innings limit"),
])
def test_bad_tie_and_set_options_are_one_line_and_exit_2(referee, tmp_path, db, options, why):
    code, out, err = simulate(referee, tmp_path, db, "πόντος", options=options)
    assert code == 2 and why in err and len(err.strip().splitlines()) == 1 and out == ""


def protocol_text(referee, tmp_path, db):
    pdf = tmp_path / "protocol.pdf"
    code, _, _ = referee("export", "1", "--format", "pdf", "--output", pdf, "--db", db)
    assert code == 0
    text = subprocess.run(["pdftotext", "-layout", pdf, "-"], capture_output=True, text=True,
                          check=True).stdout
    return [" ".join(line.split()) for line in text.splitlines()]


def test_the_protocol_shows_the_sets_won_and_the_time_outs_used(referee, tmp_path, db):
    simulate(referee, tmp_path, db, "πόντος", "τάιμ άουτ", "πόντος", "άστοχο",  # set 1: A
             "άστοχο", "πόντος", "πόντος", distance="2",
             options=("--sets", "3", *CLOCK, "--time-outs", "2"))
    text = protocol_text(referee, tmp_path, db)
    for expected in ("Σετ: καλύτερος των 3", f"Σετ: {A} 2 · {B} 0",
                     f"Τάιμ άουτ: {A} 1 · {B} 0", "Ισοπαλία: παράταση (Άρθρο 4)",
                     f"Νικητής: {A}"):
        assert expected in text, expected


def test_the_protocol_shows_the_tie_rule_and_the_play_off(referee, tmp_path, db):
    simulate(referee, tmp_path, db, *["πόντος"] * 4, f"ξεκινά {B}", "πόντος", "άστοχο",
             distance="2", options=("--on-tie", "playoff:1"))
    text = protocol_text(referee, tmp_path, db)
    for expected in ("Ισοπαλία: μπαράζ έως 1",
                     f"Παρατάσεις: 1ο μπαράζ έως 3 · πρώτη στεκιά: {B}",
                     f"Νικητής: {B}"):
        assert expected in text, expected


def innings_rows(text):
    """The innings table's rows from its first to the totals: a row heading a phase as one
    text (its wrapped lines joined), each other row split into its cells."""
    table = text[text.index("Πόντοι Σύνολο Πόντοι Σύνολο") + 1 : text.index(
        "Σύνολα Πόντοι Προσπάθειες Μέσος όρος Μεγαλύτερη σειρά")]
    rows: list = []
    for line in filter(None, table):
        if not re.search(r"[^\W\d]", line):  # no letter: an inning's cells
            rows.append(line.split())
        elif rows and isinstance(rows[-1], str):
            rows[-1] += f" {line}"
        else:
            rows.append(line)
    return rows


def test_the_protocol_marks_every_extension_its_targets_and_who_started_it(
    referee, tmp_path, db
):
    # A handicap of 2 and 1: both reach theirs in their first inning; in the 1st extension (to
    # 3 and 2, B starts) both reach theirs; in the 2nd (to 4 and 3, one stroke a turn, A starts)
    # A scores and B misses his equalising stroke.
    simulate(referee, tmp_path, db, *["πόντος"] * 3, f"ξεκινά {B}", "πόντος", "πόντος",
             f"ξεκινά {A}", "πόντος", "άστοχο", distance="2,1")
    text = protocol_text(referee, tmp_path, db)
    first = f"1η παράταση έως {A} 3 · {B} 2 · πρώτη στεκιά: {B}"
    second = f"2η παράταση έως {A} 4 · {B} 3 · μία στεκιά τη σειρά · πρώτη στεκιά: {A}"
    assert innings_rows(text) == [
        f"Αγώνας έως {A} 2 · {B} 1 · πρώτη στεκιά: {A}", ["1", "2", "2", "1", "1"],
        first, ["2", "1", "3", "1", "2"],
        second, ["3", "1", "4", "0", "2"],
    ]
    joined = " ".join(text)
    for expected in (f"Πρώτη στεκιά: {A}", f"Παρατάσεις: {first} {second} Διαλείμματα",
                     f"Νικητής: {A}"):
        assert expected in joined, expected
    pdf = tmp_path / "protocol.pdf"
    first_page_png(pdf, "protocol-extensions")
    # The lines to sign stay on one page, with the names under them.
    pages = subprocess.run(["pdftotext", pdf, "-"], capture_output=True, text=True,
                           check=True).stdout.split("\f")
    signing = next(page for page in pages if "Υπογραφές" in page)
    assert f"Αθλητής: {A}" in signing and f"Αθλητής: {B}" in signing


def test_the_protocol_gives_who_broke_each_set_and_each_set_s_innings(referee, tmp_path, db):
    # Knock-out sets to 2: A wins set 1 in his first inning, B set 2 in his second (A missed
    # once between), A set 3; each set's running total starts from 0.
    simulate(referee, tmp_path, db, "πόντος", "πόντος", "άστοχο", "άστοχο", "πόντος", "πόντος",
             "πόντος", "πόντος", distance="2", options=("--sets", "3", "--no-equalising"))
    text = protocol_text(referee, tmp_path, db)
    assert innings_rows(text) == [
        f"1ο σετ έως 2 · πρώτη στεκιά: {A}", ["1", "2", "2"],
        # A's second inning and B's first in one row: after a set won without the
        # equalising inning the players' innings differ by one.
        f"2ο σετ έως 2 · πρώτη στεκιά: {B}", ["2/1", "0", "0", "0", "0"], ["2", "2", "2"],
        f"3ο σετ έως 2 · πρώτη στεκιά: {A}", ["3", "2", "2"],
    ]
    for expected in (f"Πρώτη στεκιά: 1ο σετ {A} · 2ο σετ {B} · 3ο σετ {A}",
                     "Παρατάσεις: καμία", f"Σετ: {A} 2 · {B} 1"):
        assert expected in text, expected
    first_page_png(tmp_path / "protocol.pdf", "protocol-sets")


def test_the_protocol_gives_who_broke_a_plain_match(referee, tmp_path, db):
    simulate(referee, tmp_path, db, f"ξεκινά {B}", "πόντος", "άστοχο", "άστοχο", distance="5")
    text = protocol_text(referee, tmp_path, db)
    assert f"Πρώτη στεκιά: {B}" in text
    # One phase: no row heads it. B is at the table in his second inning.
    assert innings_rows(text) == [["1", "0", "0", "1", "1"], ["2", "0", "1"]]


def test_matches_lists_a_play_off_waiting_for_its_starter(referee, tmp_path, db):
    simulate(referee, tmp_path, db, *["πόντος"] * 4, distance="2", options=("--on-tie", "playoff"))
    code, out, _ = referee("matches", "--db", db)
    assert code == 0 and "play-off: who starts?" in out


def test_the_protocol_gives_the_date_start_and_end_on_the_hall_s_clock(referee, tmp_path, db):
    from zoneinfo import ZoneInfo

    # A runs out; B misses his equalising inning.
    simulate(referee, tmp_path, db, "πόντος", "πόντος", "πόντος", "άστοχο", distance="3")
    with Record.open(db) as record:
        loaded = record.load(1)
    assert loaded.match.winner is not None
    for zone in ("Europe/Athens", "America/New_York"):
        started, ended = (datetime.fromisoformat(t).astimezone(ZoneInfo(zone))
                          for t in (loaded.created, loaded.events[-1].created))
        pdf = tmp_path / f"{zone.replace('/', '-')}.pdf"
        extra = () if zone == "Europe/Athens" else ("--time-zone", zone)  # Athens: the default
        assert referee("export", "1", "--format", "pdf", "--output", pdf, "--db", db,
                       *extra).code == 0
        text = " ".join(subprocess.run(["pdftotext", "-layout", pdf, "-"], capture_output=True,
                                       text=True, check=True).stdout.split())
        assert (f"Ημερομηνία: {started:%d/%m/%Y} Έναρξη: {started:%H:%M} "
                f"Λήξη: {ended:%H:%M}") in text


def test_an_unknown_time_zone_is_one_line(referee, tmp_path, db):
    played(referee, tmp_path, db)
    done = referee("export", "1", "--format", "pdf", "--output", tmp_path / "p.pdf",
                   "--db", db, "--time-zone", "Athens")
    assert done.code == 2 and done.err.count("\n") == 1
    assert "'Athens' is not a time zone: give one such as Europe/Athens or UTC" in done.err
