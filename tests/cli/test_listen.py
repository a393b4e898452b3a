"""`referee listen` on the real Korean vosk model: espeak-ng Korean speech →
vosk → Korean text → the Greek phrase a table says it stands for → command."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import numpy as np
import pytest

from rules.command import Kind
from tests.support.korean import (
    HEARD,
    PLAYERS,
    write_wav,
)
from voice.cli import listen


def test_listen_turns_korean_speech_into_the_commands_of_the_table(
    referee, korean_model_dir: Path, recording: Path, table_file: Path
) -> None:
    code, out, err = referee("listen", "--model", str(korean_model_dir), "--wav", str(recording),
                             "--phrase-table", str(table_file), "--jsonl")
    assert code == 0, err
    lines = [json.loads(line) for line in out.splitlines()]
    # Early commits are on (as `referee listen` has them), but our endpoint comes first here.
    assert [(x["text"], x["command"]["kind"], x["early"]) for x in lines] == [
        (text, kind, False) for text, kind, _ in HEARD]
    assert {x["file"] for x in lines} == {str(recording)}
    assert lines[2]["phrase"] == "πόντος έξω" and lines[2]["replaces"] is None
    times = [x["at"] for x in lines]
    assert times == sorted(times) and times[-1] < 8.0  # each while its phrase's pause runs
    assert "a runtime grammar of 6 phrases" in err
    assert "foul: UNREACHABLE" in err and "point: still recognisable as «πόντος»" in err
    assert "grammar decoding takes" in err and "WARNING" not in err


def test_listen_prints_each_phrase_and_its_command(
    referee, korean_model_dir: Path, table_file: Path, tmp_path: Path
) -> None:
    subprocess.run(["espeak-ng", "-v", "ko", "-w", str(tmp_path / "a.wav"), "라디오 버스"],
                   check=True)
    wav = tmp_path / "a-8k.wav"
    subprocess.run(["sox", str(tmp_path / "a.wav"), "-r", "8000", str(wav)], check=True)
    quiet = write_wav(tmp_path / "quiet.wav", np.zeros(22050, dtype=np.float32))
    code, out, err = referee("listen", "--model", str(korean_model_dir), "--wav", str(wav),
                             str(quiet), "--phrase-table", str(table_file), "--players", "Α,Β",
                             "--early")
    assert code == 0, err
    first, early, final, second, nothing = out.splitlines()
    assert first == f"{wav}:"
    assert early.endswith("«라디오» = «άστοχο» → miss  (early)")
    assert final.endswith("«라디오 버스» = «άστοχο έξω» → not understood  "
                          "(confidence 0; replaces the early miss)")
    assert (second, nothing) == (f"{quiet}:", "  nothing heard")


def test_a_missing_model_directory_is_exit_2_with_the_fix(
    referee, recording: Path, tmp_path: Path
) -> None:
    code, out, err = referee("listen", "--model", str(tmp_path / "nope"), "--wav", str(recording))
    assert code == 2 and out == ""
    assert f"referee listen: error: no vosk model at {tmp_path / 'nope'}" in err
    assert "referee model fetch" in err and "Traceback" not in err


def test_a_file_that_is_not_a_wav_is_named(referee, korean_model_dir: Path, tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("πόντος\n", encoding="utf-8")
    code, _, err = referee("listen", "--model", str(korean_model_dir), "--wav", str(notes))
    assert code == 2
    assert err == (f"referee listen: error: --wav {notes}: not a WAV file (no RIFF/WAVE header); "
                   "give a WAV recording (sox converts others)\n")


def test_a_fault_that_is_not_the_recording_s_is_not_blamed_on_it(
    referee, recording: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(path: Path) -> None:
        raise ValueError("a fault of ours")

    monkeypatch.setattr(listen, "read_wav", broken)
    with pytest.raises(ValueError, match="a fault of ours"):  # a bug, not «give a WAV recording»
        referee("listen", "--model", "m", "--wav", str(recording))


def test_a_missing_wav_and_bad_arguments_are_clear(
    referee, korean_model_dir: Path, tmp_path: Path
) -> None:
    model = str(korean_model_dir)
    code, _, err = referee("listen", "--model", model, "--wav", str(tmp_path / "x.wav"))
    assert (code, err) == (2, f"referee listen: error: --wav {tmp_path / 'x.wav'}: cannot read "
                              "it: No such file or directory\n")
    code, _, err = referee("listen", "--model", model, "--wav", "x.wav", "--players", "Α")
    assert code == 2 and "--players needs exactly two surnames" in err
    code, _, err = referee("listen", "--model", model, "--wav", "x.wav", "--threshold", "120")
    assert code == 2 and "--threshold: '120' is not a confidence from 0 to 100" in err
    bad = tmp_path / "table.toml"
    bad.write_text('"엄마 버스" = "πόντος"\n', encoding="utf-8")
    code, _, err = referee("listen", "--model", model, "--wav", "x.wav", "--phrase-table", str(bad))
    assert code == 2 and f"--phrase-table: phrase table {bad}: phrase table key" in err


def test_a_grammar_the_model_cannot_hear_at_all_is_exit_2(
    referee, korean_model_dir: Path, recording: Path
) -> None:
    # Without a phrase table the grammar is Greek, which the Korean model has no word of.
    code, _, err = referee("listen", "--model", str(korean_model_dir), "--wav", str(recording))
    assert code == 2 and "no phrase can be recognised: words missing" in err


def test_listen_with_a_match_applies_what_it_hears_to_the_recorded_match(
    referee, korean_model_dir: Path, recording: Path, table_file: Path, tmp_path: Path
) -> None:
    from rules.state import Setup
    from voice.match_record.database import Record

    db = tmp_path / "m.sqlite3"
    with Record.open(db) as record:
        number = record.create_match(Setup("libre", 30, PLAYERS))
    code, out, err = referee("listen", "--model", str(korean_model_dir), "--wav", str(recording),
                             "--phrase-table", str(table_file), "--db", str(db),
                             "--match", str(number))
    assert code == 0, err
    # πόντος, άστοχο (the turn passes), πόντος έξω for the other player, then διόρθωση.
    assert "[PA] Παπαδόπουλος 1" in out and "[PA] Κωνσταντίνου 1" in out
    assert "[PA] ΔΙΟΡΘΩΣΗ · Παπαδόπουλος 1, Κωνσταντίνου 0" in out
    with Record.open(db) as record:
        loaded = record.load(number)
    assert [e.command.kind for e in loaded.events] == [
        Kind.POINT, Kind.MISS, Kind.POINT_OUT, Kind.UNDO]
    assert all(e.announced for e in loaded.events)


def test_listen_with_a_match_that_is_not_recorded_is_exit_2(
    referee, korean_model_dir: Path, recording: Path, tmp_path: Path
) -> None:
    code, _, err = referee("listen", "--model", str(korean_model_dir), "--wav", str(recording),
                           "--db", str(tmp_path / "none.sqlite3"), "--match", "3")
    assert code == 2 and "none.sqlite3" in err

