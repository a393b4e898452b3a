"""`referee matches`, `export` and `correct` with --db postgresql://…: the hall's matches read
as the tables' own records read them; a correction is made at the table, never in the hall."""

from __future__ import annotations

import json
import re
import subprocess

import pytest

from tests.hall.helpers import PLAYERS, held, played, recorded
from voice.match_record.protocol import words


@pytest.fixture
def hall(referee, tmp_path, hall_url):
    """Table A's two matches, then table B's one, pushed in that order: the hall numbers them
    1, 2 (A's 1, 2) and 3 (B's 1)."""
    a, b = tmp_path / "a.sqlite3", tmp_path / "b.sqlite3"
    played(a, 7)
    played(a, 0)
    played(b, 11)
    for path, name in ((a, "A"), (b, "B")):
        done = referee("push", "--db", path, "--to", hall_url, "--hall", "Academy",
                       "--table", name)
        assert done.code == 0, done.err
    return a, b


def cells(listing):
    return [re.split(r"\s{2,}", line) for line in listing.splitlines()]


def test_matches_of_the_hall_are_the_tables_own_with_where_each_is_played(
    referee, hall, hall_url
):
    a, b = hall
    listed = referee("matches", "--db", hall_url)
    assert listed.code == 0, listed.err
    at_a, at_b = cells(referee("matches", "--db", a).out), cells(referee("matches", "--db", b).out)
    rows = cells(listed.out)
    assert rows[0] == [*at_a[0], "hall · table (its match)"]
    assert rows[1:3] == [[*row, f"Academy · A ({n})"] for n, row in enumerate(at_a[1:], 1)]
    assert rows[3] == ["3", *at_b[1][1:], "Academy · B (1)"]


@pytest.mark.parametrize("form", ["json", "csv", "pdf"])
def test_export_from_the_hall_is_the_table_s_own(referee, hall, hall_url, tmp_path, form):
    a, b = hall
    for path, local, number in ((a, 1, 1), (b, 1, 3)):
        at_table, in_hall = tmp_path / f"table.{form}", tmp_path / f"hall.{form}"
        assert referee("export", local, "--format", form, "--output", at_table,
                       "--db", path).code == 0
        done = referee("export", number, "--format", form, "--output", in_hall, "--db", hall_url)
        assert done.code == 0, done.err
        assert exported(in_hall, form) == unvoiced(exported(at_table, form), local, number, form)


def exported(path, form):
    if form == "pdf":
        return subprocess.run(["pdftotext", "-layout", path, "-"], capture_output=True,
                              check=True, text=True).stdout
    return path.read_text(encoding="utf-8")


def unvoiced(text, local, number, form):
    """The table's export as the hall's reads: the hall's number for the match, and whether each
    event was voiced not known (the hall does not hold it)."""
    if form == "json":
        document = json.loads(text)
        document["match"] = number
        for event in document["events"]:
            event["announced"] = None
        return json.dumps(document, ensure_ascii=False, indent=2) + "\n"
    if form == "csv":
        lines = text.split("\n")
        events = lines.index("")
        return "\n".join([lines[0], *(re.sub(r"^(\d+;[^;]+;)[01];", r"\1;", line)
                                      for line in lines[1:events]), *lines[events:]])
    title = f"{words()['match']} {local}"
    return text.replace(title, f"{words()['match']} {number}", 1)


def test_a_correction_in_the_hall_is_refused_naming_the_table_and_made_there(
    referee, hall, hall_url
):
    a, b = hall
    before = held(hall_url)
    refused = referee("correct", 3, "--inning", 1, "--player", PLAYERS[0], "--points", 1,
                      "--db", hall_url)
    assert refused.code == 2
    assert ("match 3 of the hall is match 1 of table B, whose own record is the one kept: "
            "correct it there (`referee correct 1 --db RECORD`") in refused.err
    assert held(hall_url) == before
    fixed = referee("correct", 1, "--inning", 1, "--player", PLAYERS[0], "--points", 1,
                    "--db", b)
    assert fixed.code == 0, fixed.err
    assert referee("push", "--db", b, "--to", hall_url).code == 0
    assert held(hall_url) == recorded(a) | recorded(b)
    in_hall = json.loads(referee("export", 3, "--db", hall_url).out)
    at_table = json.loads(referee("export", 1, "--db", b).out)
    assert in_hall["statistics"] == at_table["statistics"]
    assert in_hall["events"][-1]["command"] == {
        "kind": "correct", "player": PLAYERS[0], "inning": 1, "points": 1}


def test_the_hall_unreachable_or_without_such_a_match_says_so_without_the_password(
    referee, hall, hall_url, postgres
):
    wrong = hall_url.replace(postgres.password, "not-the-password")
    for done in (referee("matches", "--db", wrong), referee("export", 1, "--db", wrong)):
        assert done.code != 0 and "password authentication failed" in done.err
        assert "not-the-password" not in done.out + done.err and "Traceback" not in done.err
    missing = referee("export", 9, "--db", hall_url)
    assert missing.code != 0 and "there is no match 9 in user=referee" in missing.err
    assert postgres.password not in missing.err


def test_an_empty_hall_lists_no_match(referee, hall_url, postgres):
    done = referee("matches", "--db", hall_url)
    assert done.code == 0, done.err
    assert done.out.startswith("no match is recorded in user=referee")
    assert postgres.password not in done.out


