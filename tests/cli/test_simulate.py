"""`referee simulate`: the stable command-line contract."""

import json
import os
from pathlib import Path

import pytest

from rules.command import Kind
from voice.match_record.database import Record

PLAYERS = "Παπαδόπουλος,Κωνσταντίνου"
KEYS = ["code", "channel", "text", "display", "player", "points"]


def simulate(referee, tmp_path, lines, *extra):
    script = tmp_path / "match.txt"
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return referee("simulate", "--discipline", "libre", "--distance", "3", "--players", PLAYERS,
                   "--input", str(script), "--jsonl", "--db", str(tmp_path / "m.sqlite3"), *extra)


def test_jsonl_one_object_per_announcement_in_speaking_order_then_the_state(referee, tmp_path):
    done = simulate(referee, tmp_path, ["# a comment", "", "πόντος", "ΠΟΝΤΟΣ ΑΝΤΡΕ", "ποντος",
                                        "αντρέ", "χμμ", "πόντος", "πόντος", "άστοχο", "σκορ"])
    assert done.code == 0, done.err
    objects = [json.loads(line) for line in done.out.splitlines()]
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


def test_without_input_it_reads_standard_input(referee, tmp_path):
    done = referee("simulate", "--discipline", "three-cushion", "--distance", "3",
                   "--players", PLAYERS, "--first", "κωνσταντινου",
                   "--db", str(tmp_path / "m.sqlite3"), stdin="πόντος\n")
    assert done.code == 0, done.err
    assert "Κωνσταντίνου 1" in done.out and "ΓΙΑ ΤΡΕΙΣ" not in done.out


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
def test_bad_arguments_exit_2_with_one_line(referee, tmp_path, args, message):
    done = referee("simulate", *args, "--db", str(tmp_path / "m.sqlite3"))
    assert done.code == 2
    assert len(done.err.strip().splitlines()) == 1
    assert message in done.err
    assert done.out == ""


def test_a_file_that_is_not_utf8_is_refused_with_exit_2(referee, tmp_path):
    bad = tmp_path / "latin.txt"
    bad.write_bytes("πόντος\n".encode("iso-8859-7"))
    done = referee("simulate", "--discipline", "libre", "--distance", "3", "--players", PLAYERS,
                   "--input", str(bad), "--db", str(tmp_path / "m.sqlite3"))
    assert done.code == 2
    assert "UTF-8" in done.err and str(bad) in done.err


def test_standard_input_that_is_not_utf8_is_refused_with_exit_2_keeping_what_came_before(
    referee, tmp_path,
):
    db = tmp_path / "m.sqlite3"
    done = referee(
        "simulate", "--discipline", "libre", "--distance", "3", "--players", PLAYERS,
        "--db", db,
        # The comment is longer than the decoder's buffer, so the first phrase is taken first.
        stdin=f"πόντος\n#{'.' * 20000}\n".encode() + "πόντος\n".encode("iso-8859-7"),
    )
    assert done.code == 2
    assert "standard input is not UTF-8 text" in done.err
    assert "match 1 is recorded up to there" in done.err
    assert f"referee resume 1 --db {db}" in done.err
    with Record.open(db) as record:
        assert [c.kind for c in record.load(1).commands] == [Kind.POINT]


def test_players_with_spoken_forms_are_said_so_shown_as_written_and_recorded(referee, tmp_path):
    db = tmp_path / "m.sqlite3"
    done = referee("simulate", "--discipline", "libre", "--distance", "3", "--players",
                   "ΠΑΠΑΔΟΠΟΥΛΟΣ=Παπαδόπουλος, Jaspers=Γιάσπερς", "--first", "Γιάσπερς", "--jsonl",
                   "--db", str(db), stdin="πόντος\nάστοχο\nδιάλειμμα παπαδόπουλος\n")
    assert done.code == 0 and done.err == f"match 1 recorded in {db}\n"
    said = [json.loads(line) for line in done.out.splitlines()]
    assert said[0] == {"code": "score", "channel": "pa", "text": "Γιάσπερς ένα",
                       "display": "Jaspers 1", "player": "Jaspers", "points": 1}
    assert said[2]["text"] == "διάλειμμα πέντε λεπτών, Παπαδόπουλος"
    assert said[2]["player"] == "ΠΑΠΑΔΟΠΟΥΛΟΣ"
    assert said[-1]["players"][0]["surname"] == "ΠΑΠΑΔΟΠΟΥΛΟΣ"
    with Record.open(db, create=False) as record:
        setup = record.load(1).setup
    assert setup.players == ("ΠΑΠΑΔΟΠΟΥΛΟΣ", "Jaspers")
    assert setup.spoken == ("Παπαδόπουλος", "Γιάσπερς")


def test_a_surname_the_voice_may_misread_gets_a_warning_and_the_match_runs(referee, tmp_path):
    done = referee("simulate", "--discipline", "libre", "--distance", "3", "--players",
                   "ΠΑΠΑΔΟΠΟΥΛΟΣ,Jaspers", "--db", str(tmp_path / "m.sqlite3"), stdin="πόντος\n")
    assert done.code == 0 and "ΠΑΠΑΔΟΠΟΥΛΟΣ 1" in done.out
    assert done.err.splitlines() == [
        "warning: --players 'ΠΑΠΑΔΟΠΟΥΛΟΣ' is in capitals, which the Greek voice may say "
        'wrongly; add how it is said: "ΠΑΠΑΔΟΠΟΥΛΟΣ=<Greek, accented>"',
        "warning: --players 'Jaspers' is in Latin letters, which the Greek voice may say "
        'wrongly; add how it is said: "Jaspers=<Greek, accented>"',
        f"match 1 recorded in {tmp_path / 'm.sqlite3'}",
    ]
    unaccented = referee("simulate", "--discipline", "libre", "--distance", "3", "--players",
                         "Παπαδοπουλος,Κωνσταντίνου", "--db", str(tmp_path / "m.sqlite3"),
                         stdin="")
    assert "'Παπαδοπουλος' is without an accent mark" in unaccented.err


def test_a_spoken_form_the_voice_may_misread_gets_the_same_warning(referee, tmp_path):
    done = referee("simulate", "--discipline", "libre", "--distance", "3", "--players",
                   "Caudron=Caudron,Jaspers=ΓΙΑΣΠΕΡΣ", "--db", str(tmp_path / "m.sqlite3"),
                   stdin="πόντος\n")
    assert done.code == 0 and "Caudron 1" in done.out
    assert done.err.splitlines()[:2] == [
        "warning: --players spoken form 'Caudron' is in Latin letters, which the Greek voice "
        'may say wrongly; write it as it is said: "Caudron=<Greek, accented>"',
        "warning: --players spoken form 'ΓΙΑΣΠΕΡΣ' is in capitals, which the Greek voice may "
        'say wrongly; write it as it is said: "Jaspers=<Greek, accented>"',
    ]
    fine = referee("simulate", "--discipline", "libre", "--distance", "3", "--players",
                   "Caudron=Κοντρόν,Χατζηγεωργίου", "--db", str(tmp_path / "m.sqlite3"), stdin="")
    assert "warning" not in fine.err


def test_wav_writes_each_pa_announcement_as_the_pa_plays_it(referee, tmp_path):
    from voice.hearing.audio import read_wav
    from voice.speaking.loudness import loudness, true_peak

    folder = tmp_path / "wav"
    done = simulate(referee, tmp_path, ["πόντος", "λιμπρ", "πόντος", "άστοχο"], "--wav", folder)
    assert done.code == 0, done.err
    names = sorted(p.name for p in folder.iterdir())
    assert names == ["0001-score.wav", "0002-libres.wav", "0003-score.wav"]
    for name in names:
        samples, rate = read_wav(folder / name)
        assert rate == 48000  # resampled for the PA, not espeak-ng's 22 050 Hz
        assert abs(loudness(samples, rate) + 23) <= 1  # levelled: -23 LUFS ± 1 LU
        assert true_peak(samples, rate) <= -1 + 0.1  # 16-bit rounding aside


def unwritable(tmp_path, case):
    """A --wav folder that cannot take WAVs, whoever runs the test."""
    if case == "a file":
        (tmp_path / "taken").write_text("not a folder")
        return tmp_path / "taken"
    if case == "below a file":
        (tmp_path / "taken").write_text("not a folder")
        return tmp_path / "taken" / "wav"
    if case == "read-only folder":
        if os.geteuid() == 0:
            pytest.skip("root writes into a folder whatever its mode: see the /proc case")
        (tmp_path / "locked").mkdir(mode=0o500)
        return tmp_path / "locked"
    return Path("/proc")  # a folder no one, root included, can make a file in


UNWRITABLE = ["a file", "below a file", "read-only folder", "/proc"]


@pytest.mark.parametrize("case", UNWRITABLE)
def test_a_wav_folder_that_cannot_be_written_stops_simulate_before_the_match_starts(
    referee, tmp_path, case
):
    folder = unwritable(tmp_path, case)
    done = simulate(referee, tmp_path, ["πόντος"], "--wav", folder)
    assert done.code == 2 and done.out == ""
    assert done.err.startswith("referee simulate: error: ") and done.err.count("\n") == 1
    assert f"--wav folder {folder}" in done.err or f"--wav {folder} is a file" in done.err
    assert not (tmp_path / "m.sqlite3").exists()  # no match was created


def test_a_wav_folder_holding_another_run_s_wavs_is_refused_so_that_runs_do_not_mix(
    referee, tmp_path
):
    folder = tmp_path / "wav"
    folder.mkdir()
    (folder / "notes.txt").write_text("the hall's")
    assert simulate(referee, tmp_path, ["πόντος"], "--wav", folder).code == 0  # no WAV: taken
    done = simulate(referee, tmp_path, ["πόντος"], "--wav", folder)
    assert done.code == 2 and done.out == ""
    assert done.err == (f"referee simulate: error: --wav {folder} already holds the WAVs of "
                        "another run: give a new or empty folder, or delete them\n")
    with Record.open(tmp_path / "m.sqlite3") as record:
        assert len(record.matches()) == 1  # the second run created none
    assert sorted(p.name for p in folder.iterdir()) == ["0001-score.wav", "notes.txt"]
