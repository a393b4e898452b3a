"""`referee calibrate` on the Korean model: takes of a referee in hall noise, the table, the
error rates, the endpoint recommended, and the profile that `listen` and `run` then take."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import numpy as np
import pytest

from rules.discipline import discipline
from rules.vocabulary import Vocabulary
from tests.support.korean import TABLE, write_wav
from tests.support.sound import Take
from tests.support.takes import Voice, referee_takes, said
from voice.audio_signal import to_pcm16_bytes
from voice.cli.listen import PLACEHOLDER_PLAYERS
from voice.hearing.audio import TARGET_RATE, read_wav
from voice.hearing.phrase_table import PhraseTable


@pytest.fixture(scope="module")
def takes(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return referee_takes(tmp_path_factory.mktemp("takes"))


def test_calibrate_from_wav_measures_the_takes_and_writes_a_profile(
    referee, korean_model_dir: Path, takes: Path, table_file: Path, tmp_path: Path
) -> None:
    profile = tmp_path / "referee.toml"
    code, out, err = referee("calibrate", "--model", korean_model_dir, "--from-wav", takes,
                             "--phrase-table", table_file, "--profile", profile)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].split() == ["phrase", "take", "heard", "command", "result", "confidence",
                                "decode"]
    rows = lines[1:13]
    assert rows[0].split()[:6] == ["άστοχο", "1", "라디오", "(=", "άστοχο)", "miss"]
    assert re.search(r"πόντος έξω\s+1\s+엄마 \(= πόντος\) \| 버스 \(= έξω\)\s+point, out\s+wrong",
                     rows[6]), rows[6]
    assert all(re.search(r"\d+ ms$", row) for row in rows)
    assert re.fullmatch(r"command error rate over 12 takes: \d+\.\d % \(\d+ wrong, \d+ not "
                        r"understood\) at endpoint 150 ms, threshold 80", lines[13])
    pause = re.fullmatch(r"longest pause inside a multi-word phrase: (\d+) ms; recommended "
                         r"endpoint: (\d+) ms", lines[14])
    assert pause and 200 <= int(pause[1]) <= 300 and int(pause[2]) == int(pause[1]) + 50
    rates = re.search(r"held-out takes \(each judged by a profile learned from the other "
                      r"takes\): error rate before ([\d.]+) %, after ([\d.]+) %", out)
    assert rates and float(rates[2]) < float(rates[1])
    assert ("  refused alias «σκορ εξω» → «σκορ»: «εξω» is a word of another command "
            "(out, point out)") in lines
    assert lines[-1] == (f"profile written to {profile}; use it with `referee run --profile "
                         f"{profile}`")
    written = tomllib.loads(profile.read_text(encoding="utf-8"))
    assert written["endpoint_ms"] == int(pause[2]) and "σκορ εξω" not in written["aliases"]

    code, out, err = referee("listen", "--model", korean_model_dir, "--wav",
                             takes / "σκορ" / "2.wav", "--phrase-table", table_file, "--jsonl")
    assert code == 0 and json.loads(out)["command"] is None, err  # not understood without it
    code, out, err = referee("listen", "--model", korean_model_dir, "--wav",
                             takes / "σκορ" / "2.wav", "--phrase-table", table_file, "--jsonl",
                             "--profile", profile)
    # The alias was refused: «σκορ έξω» stays «δεν κατάλαβα» rather than risk a command.
    assert code == 0 and json.loads(out)["command"] is None, err


def test_a_folder_not_named_as_a_phrase_is_refused(referee, tmp_path: Path) -> None:
    (tmp_path / "πόντοι").mkdir()
    write_wav(tmp_path / "πόντοι" / "1.wav", np.zeros(8000, dtype=np.float32))
    code, out, err = referee("calibrate", "--model", "m", "--from-wav", tmp_path)
    assert code == 2 and out == ""
    assert err == (f"referee calibrate: error: {tmp_path / 'πόντοι'}: «πόντοι» is not a phrase "
                   "of libre; name each folder as the phrase said\n")


def test_an_empty_folder_says_how_takes_are_laid_out(referee, tmp_path: Path) -> None:
    code, _, err = referee("calibrate", "--model", "m", "--from-wav", tmp_path)
    assert code == 2 and f"{tmp_path} holds no takes: one folder per phrase" in err


def test_a_take_that_is_not_a_wav_is_named_and_other_faults_are_not_blamed_on_it(
    referee, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "πόντος").mkdir()
    (tmp_path / "πόντος" / "1.wav").write_text("not audio", encoding="utf-8")
    code, _, err = referee("calibrate", "--model", "m", "--from-wav", tmp_path)
    assert code == 2 and err.endswith("not a WAV file (no RIFF/WAVE header); give WAV "
                                      "recordings (sox converts others)\n")
    from voice.hearing import calibration

    def broken(folder: Path) -> None:
        raise ValueError("a fault of ours")

    monkeypatch.setattr(calibration, "read_takes", broken)
    with pytest.raises(ValueError, match="a fault of ours"):  # a bug, not a bad recording
        referee("calibrate", "--model", "m", "--from-wav", tmp_path)


def spoken_take(words: str) -> bytes:
    """A take as the microphone gives it: quiet, the words, then 1.2 s of quiet."""
    speech = said(words, Voice("m3", 175), seed=1)
    noisy = speech + np.random.default_rng(0).normal(0, 0.0005, len(speech))
    return to_pcm16_bytes(np.concatenate([noisy, noisy[-TARGET_RATE // 5 :]]))


def test_calibrate_prompts_each_phrase_on_the_headset_and_records_the_takes(
    referee, korean_model_dir: Path, table_file: Path, tmp_path: Path, sound_devices
) -> None:
    spelled = PhraseTable(TABLE)
    phrases = [s for s in Vocabulary(PLACEHOLDER_PLAYERS, discipline("libre")).sentences
               if spelled.spell(s)]
    sound_devices.takes = [Take(spoken_take(spelled.spell(p)[0])) for p in phrases
                           for _ in range(2)]
    save = tmp_path / "takes"
    code, out, err = referee("calibrate", "--model", korean_model_dir, "--mic", "mic",
                             "--headset", "phones", "--takes", 2, "--save", save,
                             "--phrase-table", table_file)
    assert code == 0, err
    assert sorted(p.name for p in save.iterdir()) == sorted(phrases)
    assert sorted(p.name for p in (save / "πόντος έξω").iterdir()) == ["1.wav", "2.wav"]
    assert [device for device, _ in sound_devices.played] == [2] * len(phrases) * 2
    assert f"«{phrases[0]}», take 1 of 2: say it after the prompt\n" in err
    assert f"{len(phrases) * 2} takes saved in {save}\n" in err
    rows = out.splitlines()[1 : 1 + 2 * len(phrases)]
    assert sum(" right " in row for row in rows) >= len(rows) - 2, out
    samples, rate = read_wav(save / "άστοχο" / "1.wav")
    assert rate == TARGET_RATE and 1.5 < len(samples) / rate < 2.5  # ends 1 s after the speech


def test_a_microphone_that_dies_stops_the_recording_naming_the_take(
    referee, korean_model_dir: Path, table_file: Path, tmp_path: Path, sound_devices
) -> None:
    sound_devices.takes = [Take(b"\0" * 3200, end="die")]
    code, out, err = referee("calibrate", "--model", korean_model_dir, "--mic", "mic",
                             "--headset", "phones", "--save", tmp_path,
                             "--phrase-table", table_file)
    assert code == 2 and out == ""
    assert "«πόντος έξω», take 1: the microphone was lost (the input stream stopped)" in err


def test_recorded_takes_and_devices_do_not_mix(referee, tmp_path: Path) -> None:
    code, _, err = referee("calibrate", "--model", "m", "--from-wav", tmp_path, "--mic", "1")
    assert code == 2 and "--from-wav evaluates takes already recorded: drop --mic" in err
