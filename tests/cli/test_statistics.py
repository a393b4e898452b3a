"""One rule for the average on every surface: truncated to 3 decimals (as UMB sheets print
it), a decimal comma on the Greek surfaces and the CSV (for a Greek spreadsheet) and a point in
JSON and the API."""

import csv
import io
import json
import re
import subprocess
from fractions import Fraction

import pytest
from fastapi.testclient import TestClient

from tests.support.browser import SCREEN, needs_chromium, opened, text_of
from tests.support.match import PLAYERS, A
from tests.support.server import TEST_HOST, serving
from voice.scoreboard.app import create_app

NAMES = ",".join(PLAYERS)


def two_in_three():
    """A: 2 points in 3 innings, where rounding gives 0.667 and truncating 0.666."""
    return ["πόντος", "πόντος", "άστοχο", "άστοχο", "άστοχο", "άστοχο", "άστοχο"]


def club_record():
    """A: 31 points in 15 innings, where rounding gives 2.067 and truncating 2.066."""
    phrases = []
    for inning in range(15):
        phrases += ["πόντος"] * (3 if inning == 0 else 2) + ["άστοχο"]
        phrases += ["άστοχο"] if inning < 14 else []
    return phrases


MATCHES = [two_in_three(), club_record()]


def truncated(points, innings, mark):
    """The rule, worked out apart from the code under test."""
    thousandths = int(Fraction(points, innings) * 1000)
    return f"{thousandths // 1000}{mark}{thousandths % 1000:03d}"


def simulate(referee, tmp_path, db, phrases, *options):
    path = tmp_path / "phrases.txt"
    path.write_text("\n".join(phrases) + "\n", encoding="utf-8")
    return referee("simulate", "--discipline", "libre", "--distance", "50", "--players", NAMES,
                   "--db", db, "--input", path, *options)


@pytest.fixture
def played(referee, tmp_path):
    """Each match recorded (matches 1, 2), and each player's (points, innings) in it."""
    db = tmp_path / "m.sqlite3"
    totals = []
    for phrases in MATCHES:
        code, out, _ = simulate(referee, tmp_path, db, phrases, "--jsonl")
        state = json.loads(out.splitlines()[-1])
        totals.append([(p["points"], p["innings"]) for p in state["players"]])
    return db, totals


def surfaces(referee, tmp_path, db, number, phrases):
    """Player A's average as each surface shows it, by surface."""
    shown = {}
    code, out, _ = simulate(referee, tmp_path, tmp_path / f"text{number}.sqlite3", phrases)
    shown["summary"] = re.search(r"μέσος όρος (\d+,\d+)", out).group(1)  # player A's line
    code, out, _ = simulate(referee, tmp_path, tmp_path / f"jsonl{number}.sqlite3", phrases,
                            "--jsonl")
    shown["jsonl"] = json.loads(out.splitlines()[-1])["players"][0]["average"]
    code, out, _ = referee("export", str(number), "--db", db)
    shown["json"] = json.loads(out)["statistics"]["players"][0]["average"]
    code, out, _ = referee("export", str(number), "--db", db, "--format", "csv")
    rows = list(csv.reader(io.StringIO(out.removeprefix("\ufeff")), delimiter=";"))
    header = rows.index(["surname", "points", "innings", "average", "highest_run", "distance",
                         "time_outs", "sets_won"])
    shown["csv"] = rows[header + 1][3]
    pdf = tmp_path / f"protocol{number}.pdf"
    referee("export", str(number), "--db", db, "--format", "pdf", "--output", pdf)
    text = subprocess.run(["pdftotext", "-layout", pdf, "-"], capture_output=True, text=True,
                          check=True).stdout
    (line,) = [row.split() for row in text.splitlines() if row.split()[:1] == [A]][-1:]
    shown["pdf"] = line[-2]
    with TestClient(create_app(db, hosts=TEST_HOST)) as client:
        shown["api"] = client.get(f"/api/matches/{number}").json()["players"][0]["average"]
    return shown


def test_every_surface_shows_the_same_truncated_average(referee, tmp_path, played):
    db, totals = played
    for number, phrases in enumerate(MATCHES, 1):
        points, innings = totals[number - 1][0]
        greek, machine = truncated(points, innings, ","), truncated(points, innings, ".")
        shown = surfaces(referee, tmp_path, db, number, phrases)
        assert shown == {"summary": greek, "jsonl": float(machine), "json": float(machine),
                         "csv": greek, "pdf": greek, "api": float(machine)}, number
    assert [truncated(*t[0], ".") for t in totals] == ["0.666", "2.066"]  # the cases


@needs_chromium
def test_the_board_shows_the_truncated_average_with_a_decimal_comma(
    referee, tmp_path, played, browser
):
    db, totals = played
    with serving(db) as url:
        for number in (1, 2):
            opened(browser, f"{url}/board/{number}", SCREEN)
            text_of(browser, "#p0 .average", truncated(*totals[number - 1][0], ","))
