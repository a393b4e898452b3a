"""`referee simulate --db`, `resume`, `matches` and `export`, in-process."""

import csv
import hashlib
import io
import json

import pytest

from rules.command import Command, Kind
from rules.state import Setup
from tests.support.match import PLAYERS, A, B
from voice.match_record.database import Record, default_path
from voice.match_record.ledger import Ledger

NAMES = ",".join(PLAYERS)


@pytest.fixture
def db(tmp_path):
    return tmp_path / "m.sqlite3"




def phrases(tmp_path, *lines):
    path = tmp_path / f"phrases-{len(list(tmp_path.iterdir()))}.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def simulate(referee, tmp_path, db, *lines, discipline="libre", distance=5):
    return referee("simulate", "--discipline", discipline, "--distance", distance,
                   "--players", NAMES, "--db", db, "--jsonl",
                   "--input", phrases(tmp_path, *lines))


def codes(out):
    return [json.loads(line)["code"] for line in out.splitlines()]


def digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_simulate_records_a_new_match_each_run_with_every_event_announced(referee, tmp_path, db):
    assert simulate(referee, tmp_path, db, "πόντος", "άστοχο", "σκορ")[0] == 0
    assert simulate(referee, tmp_path, db, "πόντος")[0] == 0
    with Record.open(db) as record:
        assert [e.id for e in record.matches()] == [1, 2]
        first = record.load(1)
    assert first.commands == (Command(Kind.POINT), Command(Kind.MISS))
    assert all(e.announced for e in first.events)


def test_resume_continues_the_latest_match_announcing_the_score_first(referee, tmp_path, db):
    simulate(referee, tmp_path, db, "πόντος", "πόντος")
    simulate(referee, tmp_path, db, "άστοχο", "πόντος")
    code, out, _ = referee("resume", "--db", db, "--jsonl",
                           "--input", phrases(tmp_path, "πόντος"))
    assert code == 0
    lines = [json.loads(line) for line in out.splitlines()]
    assert lines[0]["code"] == "repeat_score" and lines[0]["display"] == f"{A} 0, {B} 1"
    assert lines[1]["display"] == f"{B} 2"
    assert lines[-1]["code"] == "state" and lines[-1]["players"][1]["points"] == 2


def test_resume_of_a_named_match(referee, tmp_path, db):
    simulate(referee, tmp_path, db, "πόντος", "πόντος")
    simulate(referee, tmp_path, db, "άστοχο")
    code, out, _ = referee("resume", "1", "--db", db, "--input", phrases(tmp_path))
    assert code == 0
    assert out.splitlines()[0].startswith(f"[PA] {A} 2, {B} 0  «")


def test_resume_voices_what_was_recorded_but_never_announced_once(referee, tmp_path, db):
    with Record.open(db) as record:
        ledger = Ledger(record, record.create_match(Setup("libre", 5, PLAYERS)))
        ledger.hear("πόντος")
        ledger.mark_announced(ledger.written)
        ledger.hear("πόντος")  # the process died before this was voiced
    empty = phrases(tmp_path)
    code, out, _ = referee("resume", "--db", db, "--jsonl", "--input", empty)
    assert code == 0
    assert codes(out) == ["score", "repeat_score", "state"]
    assert json.loads(out.splitlines()[0])["display"] == f"{A} 2"
    assert codes(referee("resume", "--db", db, "--jsonl", "--input", empty)[1]) == [
        "repeat_score", "state"]


def test_resume_of_a_record_with_no_match_says_how_to_start_one(referee, tmp_path, db):
    Record.open(db).close()
    code, out, err = referee("resume", "--db", db, "--input", phrases(tmp_path))
    assert code == 2 and out == ""
    assert f"{db} holds no match to resume; start one with `referee simulate --db {db}`" in err


def test_resume_matches_and_export_create_no_record(referee, tmp_path, db):
    for args in (["resume"], ["matches"], ["export", "1"]):
        code, _, err = referee(*args, "--db", db)
        assert code == 2 and f"there is no match record at {db}" in err
    assert not db.exists()


@pytest.mark.parametrize("number", ["x", "0", "-3", "1.5", "9" * 30, "9" * 5000])
def test_a_bad_match_number_is_a_usage_error(referee, db, number):
    for command in ("resume", "export"):
        code, _, err = referee(command, number, "--db", db)
        assert code == 2
        assert "is not a match number; `referee matches` lists them" in err
        assert len(err) < 300


def test_a_match_that_no_longer_replays_is_reported_by_every_command(referee, tmp_path, db):
    with Record.open(db) as record:
        match_id = record.create_match(Setup("three-cushion", 5, PLAYERS))
        record.append(match_id, 1, Command(Kind.ENTREES))
    before = digest(db)
    for args in (["resume", "--input", phrases(tmp_path)], ["export", "1"]):
        code, out, err = referee(*args, "--db", db)
        assert code == 2 and out == ""
        assert "match 1" in err and "no longer replays" in err and "left untouched" in err
    code, out, _ = referee("matches", "--db", db)
    assert code == 0 and "cannot be replayed (see below)" in out
    assert "match 1: match 1 in" in out
    assert digest(db) == before


def test_matches_lists_discipline_players_score_and_status(referee, tmp_path, db):
    simulate(referee, tmp_path, db, "πόντος", "πόντος", "πόντος", "άστοχο", "πόντος",
             discipline="one-cushion", distance=3)
    simulate(referee, tmp_path, db, "πόντος", "διάλειμμα")
    simulate(referee, tmp_path, db, "πόντος", "πόντος", distance=1)
    simulate(referee, tmp_path, db, "άστοχο")
    code, out, _ = referee("matches", "--db", db)
    assert code == 0
    heading, *rows = out.splitlines()
    assert heading.split() == ["match", "created", "(UTC)", "discipline", "distance", "players",
                               "score", "status"]
    cells = [row.split("  ") for row in rows]
    assert [r[0].strip() for r in cells] == ["1", "2", "3", "4"]
    assert "one-cushion" in rows[0] and f"{A} – {B}" in rows[0] and "3–0" in rows[0]
    assert rows[0].endswith(f"won by {A}")
    assert rows[1].endswith(f"break of {A}")
    assert rows[2].endswith("extension: who starts?")
    assert rows[3].endswith(f"in play, {B} at the table") and " 0–0 " in rows[3]


def test_matches_of_an_empty_record(referee, db):
    Record.open(db).close()
    assert referee("matches", "--db", db) == (0, f"no match is recorded in {db}\n", "")


def played(referee, tmp_path, db):
    simulate(referee, tmp_path, db, "πόντος", "εκτός τραπεζιού κόκκινη καλυμμένη από λευκή",
             "πόντος", "πόντος", "διόρθωση", "άστοχο")


def test_export_json_has_every_event_and_the_statistics(referee, tmp_path, db):
    played(referee, tmp_path, db)
    code, out, _ = referee("export", "1", "--db", db, "--format", "json")
    assert code == 0
    document = json.loads(out)
    assert document["match"] == 1
    assert document["setup"] == {"discipline": "libre", "distance": 5,
                                 "players": list(PLAYERS), "first": A}
    assert [e["seq"] for e in document["events"]] == [1, 2, 3, 4, 5, 6]
    assert document["events"][1]["command"] == {
        "kind": "ball_off", "balls": ["red"], "covered": [["red", "white"]]}
    assert [e["command"]["kind"] for e in document["events"]][-2:] == ["undo", "miss"]
    assert all(e["announced"] for e in document["events"])
    stats = [(p["surname"], p["points"], p["innings"], p["average"], p["highest_run"])
             for p in document["statistics"]["players"]]
    assert stats == [(A, 1, 2, 0.5, 1), (B, 1, 1, 1.0, 1)]


def test_export_csv_is_the_events_the_players_the_innings_and_the_result(referee, tmp_path, db):
    played(referee, tmp_path, db)
    code, out, _ = referee("export", "1", "--db", db, "--format", "csv")
    assert code == 0 and out.startswith("\ufeffseq;created;")  # a BOM, and semicolons
    rows = list(csv.reader(io.StringIO(out.removeprefix("\ufeff")), delimiter=";"))
    blanks = [i for i, row in enumerate(rows) if row == []]
    events, players = rows[:blanks[0]], rows[blanks[0] + 1 : blanks[1]]
    innings, result = rows[blanks[1] + 1 : blanks[2]], rows[blanks[2] + 1 :]
    assert events[0] == ["seq", "created", "announced", "kind", "player", "balls", "covered",
                         "seconds", "frames", "inning", "points", "shot"]
    assert [r[3] for r in events[1:]] == ["point", "ball_off", "point", "point", "undo", "miss"]
    assert events[2][4:9] == ["", "red", "red:white", "", ""] and events[2][2] == "1"
    assert players == [["surname", "points", "innings", "average", "highest_run", "distance",
                        "time_outs", "sets_won"],
                       [A, "1", "2", "0,500", "1", "5", "0", "0"],
                       [B, "1", "1", "1,000", "1", "5", "0", "0"]]
    assert innings == [["inning", A, B], ["1", "1", "1"], ["2", "0", ""]]
    assert result == [["winner", "drawn", "extensions", "playoff"], ["", "0", "0", "0"]]


def test_export_to_a_file_but_never_over_the_record(referee, tmp_path, db):
    played(referee, tmp_path, db)
    target = tmp_path / "out.json"
    assert referee("export", "1", "--db", db, "--output", target) == (0, "", "")
    assert json.loads(target.read_text(encoding="utf-8"))["match"] == 1
    before = digest(db)
    for output in (db, tmp_path / "." / db.name, f"{db}-wal"):
        code, _, err = referee("export", "1", "--db", db, "--output", output)
        assert code == 2 and "is the match record itself; choose another file" in err
    assert digest(db) == before
    code, _, err = referee("export", "1", "--db", db, "--output", tmp_path / "no" / "x")
    assert code == 2 and "cannot write --output" in err


def test_the_record_options_show_the_default_record(referee):
    for command in ("simulate", "resume", "matches", "export"):
        code, out, _ = referee(command, "--help")
        assert code == 0 and str(default_path()) in "".join(out.split())


def test_a_message_about_input_with_line_breaks_stays_on_one_line(referee, tmp_path):
    code, _, err = referee("matches", "--db", tmp_path / "a\nb\u2028c")
    assert code == 2 and err.count("\n") == 1 and "a\\nb\\u2028c" in err
    code, _, err = referee("matches", "--db", tmp_path / "m", "stray\rword")
    assert code == 2
    assert err.count("\n") == 1 and "unrecognized arguments: stray\\rword" in err
