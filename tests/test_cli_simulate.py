"""`referee simulate`: the stable command-line contract."""

import json
import subprocess
import sys

import pytest

from rules.command import Kind
from voice.record import Record

PLAYERS = "Παπαδόπουλος,Κωνσταντίνου"
KEYS = ["code", "channel", "text", "display", "player", "points"]


def referee(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "voice.cli", *args],
        input=stdin, capture_output=True, text=True, encoding="utf-8", timeout=120,
    )


def simulate(tmp_path, lines, *extra):
    script = tmp_path / "match.txt"
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return referee("simulate", "--discipline", "libre", "--distance", "3", "--players", PLAYERS,
                   "--input", str(script), "--jsonl", "--db", str(tmp_path / "m.sqlite3"), *extra)


def test_jsonl_one_object_per_announcement_in_speaking_order_then_the_state(tmp_path):
    done = simulate(tmp_path, ["# a comment", "", "πόντος", "ΠΟΝΤΟΣ ΑΝΤΡΕ", "ποντος", "χμμ",
                               "πόντος", "πόντος", "άστοχο", "σκορ"])
    assert done.returncode == 0, done.stderr
    objects = [json.loads(line) for line in done.stdout.splitlines()]
    *announcements, state = objects
    assert all(list(a) == KEYS for a in announcements)
    assert [a["code"] for a in announcements] == [
        "score", "score", "entrees", "score", "turn", "entrees", "not_understood",
        "score", "dedans", "restees_dedans", "winner", "refused", "repeat_score",
    ]
    assert announcements[0] == {"code": "score", "channel": "pa", "text": "Παπαδόπουλος ένα",
                                "display": "Παπαδόπουλος 1", "player": "Παπαδόπουλος",
                                "points": 1}
    assert announcements[2]["display"] == "ENTRÉES" and announcements[2]["text"] == "αντρέ"
    assert announcements[6]["channel"] == "headset"
    assert announcements[-3]["player"] == "Παπαδόπουλος"
    assert state["code"] == "state"
    assert [(p["points"], p["innings"], p["average"], p["highest_run"])
            for p in state["players"]] == [(3, 1, 3.0, 3), (1, 1, 1.0, 1)]
    assert state["turn"] is None and state["winner"] == "Παπαδόπουλος"


def test_without_input_it_reads_standard_input(tmp_path):
    done = referee("simulate", "--discipline", "three-cushion", "--distance", "3",
                   "--players", PLAYERS, "--first", "κωνσταντινου",
                   "--db", str(tmp_path / "m.sqlite3"), stdin="πόντος\n")
    assert done.returncode == 0, done.stderr
    assert "Κωνσταντίνου 1" in done.stdout and "ΓΙΑ ΤΡΕΙΣ" not in done.stdout


@pytest.mark.parametrize(
    "args,message",
    [
        (["--discipline", "snooker", "--distance", "3", "--players", PLAYERS], "discipline"),
        (["--discipline", "libre", "--distance", "x", "--players", PLAYERS], "distance"),
        (["--discipline", "libre", "--distance", "-4", "--players", PLAYERS], "distance"),
        (["--discipline", "libre", "--distance", "3", "--players", "Μόνος"], "two surnames"),
        (["--discipline", "libre", "--distance", "3", "--players", "Α,α"], "differ"),
        (["--discipline", "libre", "--distance", "3", "--players", PLAYERS, "--first", "Χ"],
         "--first"),
        (["--discipline", "libre", "--distance", "3", "--players", PLAYERS,
          "--input", "/no/such/file"], "cannot read"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(tmp_path, args, message):
    done = referee("simulate", *args, "--db", str(tmp_path / "m.sqlite3"))
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1
    assert message in done.stderr
    assert done.stdout == ""


def test_a_file_that_is_not_utf8_is_refused_with_exit_2(tmp_path):
    bad = tmp_path / "latin.txt"
    bad.write_bytes("πόντος\n".encode("iso-8859-7"))
    done = referee("simulate", "--discipline", "libre", "--distance", "3", "--players", PLAYERS,
                   "--input", str(bad), "--db", str(tmp_path / "m.sqlite3"))
    assert done.returncode == 2
    assert "UTF-8" in done.stderr and str(bad) in done.stderr


def test_standard_input_that_is_not_utf8_is_refused_with_exit_2_keeping_what_came_before(
    tmp_path,
):
    db = tmp_path / "m.sqlite3"
    done = subprocess.run(
        [sys.executable, "-m", "voice.cli", "simulate", "--discipline", "libre", "--distance", "3",
         "--players", PLAYERS, "--db", str(db)],
        # The comment is longer than the decoder's buffer, so the first phrase is taken first.
        input=f"πόντος\n#{'.' * 20000}\n".encode() + "πόντος\n".encode("iso-8859-7"),
        capture_output=True, timeout=120,
    )
    assert done.returncode == 2
    assert b"standard input is not UTF-8 text" in done.stderr
    assert b"match 1 is recorded up to there" in done.stderr
    assert f"referee resume 1 --db {db}".encode() in done.stderr
    with Record.open(db) as record:
        assert [c.kind for c in record.load(1).commands] == [Kind.POINT]
