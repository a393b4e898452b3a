"""`referee config show|init`, and the hall's settings in `run` and `listen`."""

from __future__ import annotations

import json
import re
from pathlib import Path


def test_init_writes_a_commented_file_that_show_reports(referee, tmp_path: Path) -> None:
    path = tmp_path / "hall" / "settings.toml"
    code, out, err = referee("config", "init", "--config", path)
    assert (code, out) == (0, f"wrote {path}: every key at its default, with what it allows\n")
    assert "# the referee's microphone" in path.read_text(encoding="utf-8")
    code, out, _ = referee("config", "show", "--config", path)
    lines = out.splitlines()
    assert code == 0 and lines[0] == f"hall settings file: {path}"
    assert lines[1].split() == ["speech.voice", '"grk/el"', "hall", "file"]
    assert lines[2].split() == ["speech.driver", "(not", "set)", "default"]
    shown = {line.split()[0]: line.split()[1:] for line in lines[1:]}
    assert shown["devices.mic"] == ["(not", "set)", "default"]
    assert shown["speech.give_way"] == ["true", "hall", "file"]
    code, _, err = referee("config", "init", "--config", path)
    assert code == 2 and f"{path} already exists" in err and "--force overwrites it" in err
    assert referee("config", "init", "--config", path, "--force").code == 0


def test_show_without_a_file_gives_the_defaults(referee) -> None:
    code, out, _ = referee("config", "show")
    assert code == 0 and "(none there: `referee config init` writes one)" in out.splitlines()[0]
    assert re.search(r"^hearing\.threshold +80\.0 +default$", out, re.M)


def test_show_says_what_the_profile_overrides(referee, tmp_path: Path) -> None:
    hall = tmp_path / "s.toml"
    hall.write_text("[hearing]\nthreshold = 70\nendpoint_ms = 200\n", encoding="utf-8")
    profile = tmp_path / "p.toml"
    profile.write_text("endpoint_ms = 250\n[aliases]\n", encoding="utf-8")
    code, out, _ = referee("config", "show", "--config", hall, "--profile", profile)
    assert code == 0 and f"referee profile: {profile}" in out
    assert re.search(r"^hearing\.threshold +70\.0 +hall file$", out, re.M)
    assert re.search(r"^hearing\.endpoint_ms +250 +referee profile$", out, re.M)


def test_a_bad_value_is_one_line_naming_the_key_exit_2(referee, tmp_path: Path) -> None:
    hall = tmp_path / "s.toml"
    hall.write_text("[speech]\nrate = 1000\n", encoding="utf-8")
    code, out, err = referee("config", "show", "--config", hall)
    assert code == 2 and out == ""
    assert err.startswith(f"referee config: error: {hall}: speech.rate = 1000: allowed: a whole "
                          "number of words per minute from 80 to 450; ")
    assert err.count("\n") == 1


def test_run_takes_its_devices_from_the_hall_file(referee, tmp_path: Path, sound_devices) -> None:
    hall = tmp_path / "s.toml"
    hall.write_text('[devices]\nmic = "no such mic"\npa = "Hall"\nheadset = "phones"\n',
                    encoding="utf-8")
    setup = ("--discipline", "libre", "--distance", "10", "--players", "Α,Β", "--model", "m",
             "--db", tmp_path / "m.sqlite3")
    code, _, err = referee("run", *setup, "--config", hall)
    assert code == 2 and "--mic 'no such mic' matches no input device" in err
    code, _, err = referee("run", *setup, "--config", hall, "--mic", "USB", "--pa", "nowhere")
    assert code == 2 and "--pa 'nowhere' matches no output device" in err
    code, _, err = referee("run", *setup)
    assert code == 2 and "no --mic given and devices.mic is not set in the hall's settings" in err


def test_listen_ends_phrases_at_the_hall_files_endpoint_unless_told_otherwise(
    referee, tmp_path: Path, korean_model_dir: Path, recording: Path, table_file: Path
) -> None:
    hall = tmp_path / "s.toml"
    hall.write_text("[hearing]\nendpoint_ms = 1500\n", encoding="utf-8")
    listen = ("listen", "--model", korean_model_dir, "--wav", recording,
              "--phrase-table", table_file, "--jsonl", "--config", hall)
    # The script's pauses are 0.8 s: with a 1.5 s endpoint, vosk's own (~0.5 s) ends each phrase.
    code, out, err = referee(*listen)
    assert code == 0, err
    slow = [json.loads(line)["at"] for line in out.splitlines()]
    code, out, err = referee(*listen, "--endpoint", "150")
    fast = [json.loads(line)["at"] for line in out.splitlines()]
    assert code == 0 and len(fast) == len(slow) == 4, err
    assert all(f < s for f, s in zip(fast, slow, strict=True)), (fast, slow)
