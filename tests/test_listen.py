"""`referee listen` and its pipeline on the real Korean vosk model: espeak-ng Korean speech →
vosk → Korean text → the Greek phrase a table says it stands for → command."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import wave
from pathlib import Path

import numpy as np
import pytest

from rules.command import Command, Kind
from rules.discipline import discipline
from rules.vocabulary import Vocabulary
from voice import cli, listen
from voice.audio import read_wav
from voice.phrase_table import PhraseTable
from voice.pipeline import Listener, coverage_report, speed_report
from voice.recognise import LoadedModel

TABLE = {"엄마": "πόντος", "버스": "έξω", "라디오": "άστοχο", "할아버지": "σκορ",
         "어제": "διόρθωση"}
PLAYERS = ("Παπαδόπουλος", "Κωνσταντίνου")
# Said one after another with pauses: «πόντος» (not complete in libre, «πόντος έξω» may follow),
# then three phrases no longer phrase starts with, which are committed on a partial result.
SCRIPT = ["엄마", "라디오", "엄마 버스", "어제"]
HEARD = [("엄마", "point", False), ("라디오", "miss", True), ("엄마 버스", "point_out", True),
         ("어제", "undo", True)]


def speech(text: str, folder: Path) -> np.ndarray:
    """espeak-ng's Korean voice saying `text`, as float samples at 22050 Hz."""
    path = folder / "say.wav"
    subprocess.run(["espeak-ng", "-v", "ko", "-w", str(path), text], check=True)
    samples, rate = read_wav(path)
    assert rate == 22050
    return samples


def write_wav(path: Path, samples: np.ndarray, rate: int = 22050) -> Path:
    """16-bit mono WAV, with a microphone's faint noise floor (vosk misreads digital silence)."""
    noisy = samples + np.random.default_rng(0).normal(0, 0.0005, len(samples))
    with wave.open(str(path), "wb") as wav:
        wav.setnchannels(1)
        wav.setsampwidth(2)
        wav.setframerate(rate)
        wav.writeframes((np.clip(noisy, -1, 1) * 32767).astype("<i2").tobytes())
    return path


@pytest.fixture(scope="module")
def recording(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """SCRIPT spoken at 22050 Hz, each phrase after 0.8 s of quiet, then 1 s of quiet."""
    folder = tmp_path_factory.mktemp("listen")
    pause = np.zeros(int(22050 * 0.8), dtype=np.float32)
    parts = [part for text in SCRIPT for part in (pause, speech(text, folder))]
    return write_wav(folder / "script.wav", np.concatenate([*parts, pause, pause[:4410]]))


@pytest.fixture(scope="module")
def table_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("table") / "table.toml"
    path.write_text("".join(f'"{k}" = "{v}"\n' for k, v in TABLE.items()), encoding="utf-8")
    return path


@pytest.fixture
def referee(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture):
    """Run `referee ARGS...` in this process; returns (exit code, stdout, stderr)."""
    monkeypatch.setattr(cli, "COMMANDS", (listen,))

    def run(*args: str) -> tuple[int, str, str]:
        try:
            code = cli.main(list(args))
        except SystemExit as exit:  # argparse's usage errors
            code = exit.code
        out, err = capsys.readouterr()
        return code, out, err

    return run


def make_listener(model: LoadedModel, name: str = "libre", **options) -> Listener:
    return Listener(model, Vocabulary(PLAYERS, discipline(name)), table=PhraseTable(TABLE),
                    **options)


def early_listener(model: LoadedModel, **options) -> Listener:
    """Committing complete partials early, and ending utterances on vosk's own endpoint."""
    return make_listener(model, early=True, endpoint_ms=None, **options)


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
                          "(confidence 90; replaces the early miss)")
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


def test_a_confirmed_early_commit_is_not_returned_twice(
    korean_model: LoadedModel, recording: Path
) -> None:
    heard = listen.listen(early_listener(korean_model), *read_wav(recording))
    assert [(h.text, h.command.kind, h.early) for _, h in heard] == HEARD


def test_by_default_every_phrase_waits_for_its_final_result(
    korean_model: LoadedModel, recording: Path
) -> None:
    listener = make_listener(korean_model)
    heard = [h for _, h in listen.listen(listener, *read_wav(recording))]
    assert [(h.text, h.early) for h in heard] == [(text, False) for text in SCRIPT]


def test_a_final_that_contradicts_the_early_commit_replaces_it(
    korean_model: LoadedModel, tmp_path: Path
) -> None:
    # «άστοχο» is complete, so it is committed before «έξω» is heard in the same breath.
    clip = write_wav(tmp_path / "x.wav", speech("라디오 버스", tmp_path))
    heard = [h for _, h in listen.listen(early_listener(korean_model), *read_wav(clip))]
    assert [(h.command, h.early, h.replaces) for h in heard] == [
        (Command(Kind.MISS), True, None), (None, False, Command(Kind.MISS))]


def test_free_form_decoding_matches_the_nearest_command(
    korean_model: LoadedModel, tmp_path: Path
) -> None:
    static = LoadedModel(dataclasses.replace(korean_model.info, runtime_grammars=False),
                         korean_model.vosk)  # the real model, decoding without a grammar
    listener = make_listener(static)
    assert listener.free_form and listener.recogniser.grammar is None
    pause = np.zeros(8820, dtype=np.float32)
    clip = write_wav(tmp_path / "x.wav", np.concatenate([pause, speech("라디오", tmp_path)]))
    heard = [h for _, h in listen.listen(listener, *read_wav(clip))]
    assert [(h.text, h.command) for h in heard] == [("라디오", Command(Kind.MISS))]


def test_free_form_text_needs_the_threshold(korean_model: LoadedModel) -> None:
    listener = make_listener(korean_model)
    assert listener.understand("엄마") == (Command(Kind.POINT), 100.0)
    assert listener.understand("그 라디오") == (Command(Kind.MISS), 90.0)  # one extra word
    assert make_listener(korean_model, threshold=95).understand("그 라디오") == (None, 90.0)
    assert make_listener(korean_model, threshold=0).understand("[unk]") == (None, 0.0)


def test_the_report_names_missing_words_and_what_is_left(korean_model: LoadedModel) -> None:
    table = PhraseTable({"엄마": "πόντος", "ζζζ": "καραμπόλα", "ψψψ": "άστοχο"})
    listener = Listener(korean_model, Vocabulary(PLAYERS, discipline("three-cushion")),
                        table=table)
    assert listener.recogniser.missing_words() == ["ζζζ", "ψψψ"]
    report = coverage_report(listener)
    assert report[0] == ("the model's vocabulary lacks 2 grammar word(s), so vosk cannot hear "
                         "them: ζζζ, ψψψ")
    assert "  point: still recognisable as «πόντος»" in report
    assert "  miss: UNREACHABLE, none of its phrases can be recognised" in report
    assert listener.phrases()[Kind.POINT] == {"πόντος": True, "καραμπόλα": False, "πόντο": False}


def test_a_slow_decode_is_a_warning() -> None:
    assert speed_report(0.3, free_form=False) == ["grammar decoding takes 0.30× real time"]
    slow = speed_report(0.95, free_form=True)
    assert slow[0] == "free-form decoding takes 0.95× real time"
    assert slow[1].startswith("WARNING: free-form recognition cannot keep up with live speech")


def test_a_phrase_table_spells_sentences_and_translates_back(tmp_path: Path) -> None:
    table = PhraseTable({"a": "πόντος", "b": "έξω", "c": "Πόντος Έξω", "d": "έξω"})
    assert table.spell("πόντος έξω") == ["a b", "a d", "c"]
    assert table.spell("άστοχο") == []
    assert table.translate("a x b") == "πόντος x έξω"
    path = tmp_path / "t.toml"
    for text, error in [("", "is empty"), ('a = 1\n', "value for 'a' must be non-empty text"),
                        ("a = [", "phrase table"), ('"a b" = "x"\n', "exactly one word")]:
        path.write_text(text, encoding="utf-8")
        with pytest.raises(ValueError, match=error):
            PhraseTable.load(path)
    with pytest.raises(ValueError, match="cannot read phrase table .*: No such file"):
        PhraseTable.load(tmp_path / "none.toml")


@pytest.fixture(scope="module")
def grandfather(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """«할아버지» (= «σκορ»), whose first partial result is «버스» (= «έξω», complete too)."""
    folder = tmp_path_factory.mktemp("settle")
    pause = np.zeros(int(22050 * 0.8), dtype=np.float32)
    return write_wav(folder / "x.wav", np.concatenate([pause, speech("할아버지", folder), pause,
                                                       pause]))


def test_an_unsettled_partial_can_be_a_false_commit(
    korean_model: LoadedModel, grandfather: Path
) -> None:
    heard = [h for _, h in listen.listen(early_listener(korean_model), *read_wav(grandfather))]
    assert [(h.text, h.command, h.early, h.replaces) for h in heard] == [
        ("버스", Command(Kind.OUT), True, None),
        ("할아버지", Command(Kind.SCORE), False, Command(Kind.OUT))]


def test_a_partial_is_committed_once_it_has_settled(
    korean_model: LoadedModel, grandfather: Path
) -> None:
    listener = early_listener(korean_model, settle_ms=300)
    assert [(h.text, h.early) for _, h in listen.listen(listener, *read_wav(grandfather))] == [
        ("할아버지", True)]


def test_settling_delays_the_commit_by_that_much_audio(
    korean_model: LoadedModel, recording: Path
) -> None:
    at_once = listen.listen(early_listener(korean_model), *read_wav(recording))
    settled = listen.listen(early_listener(korean_model, settle_ms=300), *read_wav(recording))
    assert [h for _, h in settled] == [h for _, h in at_once]
    delays = [round(b[0] - a[0], 2) for a, b in zip(at_once, settled, strict=True)]
    assert delays == [0.0, 0.3, 0.3, 0.3]  # «πόντος» waits for the final either way


def test_listen_with_a_match_applies_what_it_hears_to_the_recorded_match(
    referee, korean_model_dir: Path, recording: Path, table_file: Path, tmp_path: Path
) -> None:
    from rules.state import Setup
    from voice.record import Record

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
