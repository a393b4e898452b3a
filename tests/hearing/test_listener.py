"""The recognition pipeline on the real Korean vosk model: espeak-ng Korean speech →
vosk → Korean text → the Greek phrase a table says it stands for → command."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from rules.command import Command, Kind
from rules.discipline import discipline
from rules.vocabulary import Vocabulary
from tests.support.korean import (
    HEARD,
    PLAYERS,
    SCRIPT,
    early_listener,
    make_listener,
    speech,
    write_wav,
)
from voice.audio_signal import resample, to_pcm16_bytes
from voice.hearing.audio import TARGET_RATE, chunked, read_wav
from voice.hearing.endpoint import Endpointer
from voice.hearing.listener import (
    Heard,
    Listener,
    coverage_report,
    hear_recording,
    speed_report,
)
from voice.hearing.phrase_table import PhraseTable, PhraseTableError
from voice.hearing.recognise import LoadedModel, Recognised, Recogniser, Word


def test_a_confirmed_early_commit_is_not_returned_twice(
    korean_model: LoadedModel, recording: Path
) -> None:
    heard = hear_recording(early_listener(korean_model), *read_wav(recording))
    assert [(h.text, h.command.kind, h.early) for _, h in heard] == HEARD


def test_by_default_every_phrase_waits_for_its_final_result(
    korean_model: LoadedModel, recording: Path
) -> None:
    listener = make_listener(korean_model)
    heard = [h for _, h in hear_recording(listener, *read_wav(recording))]
    assert [(h.text, h.early) for h in heard] == [(text, False) for text in SCRIPT]


def test_a_final_that_contradicts_the_early_commit_replaces_it(
    korean_model: LoadedModel, tmp_path: Path
) -> None:
    # «άστοχο» is complete, so it is committed before «έξω» is heard in the same breath.
    clip = write_wav(tmp_path / "x.wav", speech("라디오 버스", tmp_path))
    heard = [h for _, h in hear_recording(early_listener(korean_model), *read_wav(clip))]
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
    heard = [h for _, h in hear_recording(listener, *read_wav(clip))]
    assert [(h.text, h.command) for h in heard] == [("라디오", Command(Kind.MISS))]


def test_free_form_text_needs_the_threshold(korean_model: LoadedModel) -> None:
    listener = make_listener(korean_model)
    assert listener.understand("엄마") == (Command(Kind.POINT), 100.0)
    assert listener.understand("그 라디오") == (None, 0.0)  # a word «άστοχο» lacks: not it
    assert listener.understand("άστοχα") == (Command(Kind.MISS), 83.33333333333334)
    assert make_listener(korean_model, threshold=90).understand("άστοχα") == (
        None, 83.33333333333334)
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
        with pytest.raises(PhraseTableError, match=error):
            PhraseTable.load(path)
    with pytest.raises(PhraseTableError, match="cannot read phrase table .*: No such file"):
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
    heard = [h for _, h in hear_recording(early_listener(korean_model), *read_wav(grandfather))]
    assert [(h.text, h.command, h.early, h.replaces) for h in heard] == [
        ("버스", Command(Kind.OUT), True, None),
        ("할아버지", Command(Kind.SCORE), False, Command(Kind.OUT))]


def test_a_partial_is_committed_once_it_has_settled(
    korean_model: LoadedModel, grandfather: Path
) -> None:
    listener = early_listener(korean_model, settle_ms=300)
    assert [(h.text, h.early) for _, h in hear_recording(listener, *read_wav(grandfather))] == [
        ("할아버지", True)]


def test_settling_delays_the_commit_by_that_much_audio(
    korean_model: LoadedModel, recording: Path
) -> None:
    at_once = hear_recording(early_listener(korean_model), *read_wav(recording))
    settled = hear_recording(early_listener(korean_model, settle_ms=300), *read_wav(recording))
    assert [h for _, h in settled] == [h for _, h in at_once]
    delays = [round(b[0] - a[0], 2) for a, b in zip(at_once, settled, strict=True)]
    assert delays == [0.0, 0.3, 0.3, 0.3]  # «πόντος» waits for the final either way


def test_a_phrase_says_how_long_its_utterance_was(
    korean_model: LoadedModel, tmp_path: Path
) -> None:
    # One word after 2 s of quiet: its length, with the pre-roll and the endpoint's quiet.
    word = np.trim_zeros(speech("라디오", tmp_path))  # at 22050 Hz
    quiet = np.random.default_rng(0).normal(0, 0.0005, 2 * 22050).astype(np.float32)
    samples = np.concatenate([quiet, word, quiet])
    heard = [h for _, h in hear_recording(make_listener(korean_model), samples, 22050)]
    spoken = len(word) / 22050
    assert len(heard) == 1 and spoken < heard[0].seconds < spoken + 0.3 + 0.15 + 0.2


def test_a_phrase_another_command_may_as_well_be_names_that_command(
    korean_model: LoadedModel, tmp_path: Path
) -> None:
    # «엄마» said over «라디오» at 70 % of its level: vosk's readings mean two commands.
    first, second = speech("라디오", tmp_path), speech("엄마", tmp_path)
    quiet = np.zeros(22050 // 4, np.float32)
    samples = np.concatenate([quiet, first, quiet, quiet])
    samples[len(quiet) : len(quiet) + len(second)] += 0.7 * second
    listener = make_listener(korean_model)
    (heard,) = [h for _, h in hear_recording(listener, samples, 22050)]
    assert heard.command is not None and heard.rival is not None
    assert listener.vocabulary.parse(heard.rival) not in (None, heard.command)
    assert heard.rival in map(listener.table.translate, heard.readings)  # kept for calibration


@pytest.mark.parametrize("rivals", [(), ("엄마 엄마",), ("엄마 <UNK>", "")],
                         ids=["none", "the same command", "not understood"])
def test_readings_that_mean_no_other_command_are_no_rival(
    korean_model: LoadedModel, monkeypatch: pytest.MonkeyPatch, rivals: tuple[str, ...]
) -> None:
    listener = make_listener(korean_model)
    monkeypatch.setattr(listener.recogniser, "finish",
                        lambda: Recognised("엄마", final=True, rivals=rivals))
    heard = listener.finish()
    assert heard is not None and heard.command == Command(Kind.POINT) and heard.rival is None


@pytest.mark.parametrize("rivals", [(), ("엄마",)], ids=["sure", "another command as likely"])
def test_an_early_commit_whose_final_is_unsure_is_returned_to_be_undone(
    korean_model: LoadedModel, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    rivals: tuple[str, ...]
) -> None:
    # No quiet after «라디오» (άστοχο, committed early): its final result comes from finish().
    listener = early_listener(korean_model)
    monkeypatch.setattr(listener.recogniser, "finish",
                        lambda: Recognised("라디오", final=True, rivals=rivals))
    samples = np.concatenate([np.zeros(22050 // 4, np.float32), speech("라디오", tmp_path)])
    heard = [(h.command, h.early, h.replaces, h.rival)
             for _, h in hear_recording(listener, samples, 22050)]
    miss = Command(Kind.MISS)
    assert heard == [(miss, True, None, None)] + (
        [(miss, False, miss, "πόντος")] if rivals else [])


def quiet_around(word: np.ndarray, seconds: float = 1.0) -> np.ndarray:
    """`word` (22050 Hz) with `seconds` of quiet before and after, in a microphone's faint
    noise (vosk misreads digital silence)."""
    quiet = np.zeros(int(seconds * 22050), np.float32)
    samples = np.concatenate([quiet, word, quiet])
    return samples + np.random.default_rng(0).normal(0, 0.0005, len(samples)).astype(np.float32)


def test_the_audio_heard_again_without_the_canceller_is_the_utterance_fed_to_vosk(
    korean_model: LoadedModel, tmp_path: Path
) -> None:
    samples = quiet_around(np.trim_zeros(speech("할아버지", tmp_path)))
    pcm = to_pcm16_bytes(resample(samples, 22050, TARGET_RATE))
    spans: list[tuple[float, float]] = []
    listener = make_listener(korean_model)

    def uncancelled(seconds: float, skip: float) -> None:
        spans.append((seconds, skip))

    listener.uncancelled = uncancelled
    ((at, heard),) = hear_recording(listener, samples, 22050)
    ((seconds, skip),) = spans
    endpoint = Endpointer(listener.endpoint_ms or 0).feed(pcm)  # bytes into the recording
    assert endpoint is not None and round((at - skip) * TARGET_RATE * 2) == endpoint
    assert seconds == heard.seconds and heard.rival is None and not heard.rival_uncancelled


@pytest.mark.parametrize(("before", "rival"), [
    ("어제", "διόρθωση"), ("버스 할아버지 엄마", None), ("", "…"), (None, None)],
    ids=["another command", "his words among the echo's", "nothing", "the canceller left it"])
def test_a_command_the_microphone_heard_otherwise_before_the_canceller_has_that_as_rival(
    korean_model: LoadedModel, tmp_path: Path, before: str | None, rival: str | None
) -> None:
    raw = None if before is None else to_pcm16_bytes(resample(quiet_around(
        speech(before, tmp_path) if before else np.zeros(0, np.float32), 0.5), 22050,
        TARGET_RATE))
    listener = make_listener(korean_model)
    listener.uncancelled = lambda seconds, skip: raw
    samples = quiet_around(speech("할아버지", tmp_path))
    ((_, heard),) = hear_recording(listener, samples, 22050)
    assert (heard.phrase, heard.rival) == ("σκορ", rival)
    assert heard.rival_uncancelled is (rival is not None)


@pytest.mark.parametrize(("said", "before", "rival"), [
    ("버스", "엄마 버스", "πόντος έξω"), ("엄마", "엄마 버스", None), ("버스", "버스 엄마", None)],
    ids=["its start cut by the canceller", "the echo's word after his", "another phrase"])
def test_another_command_with_words_before_his_without_the_canceller_is_its_rival(
    korean_model: LoadedModel, tmp_path: Path, said: str, before: str, rival: str | None
) -> None:
    # AEC3 cuts the start of a phrase said over the PA: «πόντος έξω» came out as «έξω».
    raw = to_pcm16_bytes(resample(quiet_around(speech(before, tmp_path), 0.5), 22050,
                                  TARGET_RATE))
    listener = make_listener(korean_model)
    listener.uncancelled = lambda seconds, skip: raw
    ((_, heard),) = hear_recording(listener, quiet_around(speech(said, tmp_path)), 22050)
    assert (heard.text, heard.rival, heard.rival_uncancelled) == (said, rival, rival is not None)


@pytest.mark.parametrize(("before", "louder", "lost"), [
    ("할아버지", True, ("σκορ", Command(Kind.SCORE))), ("버스 라디오", True, ("έξω άστοχο", None)),
    ("할아버지", False, None), ("", True, None)],
    ids=["a command louder than the echo", "words louder than the echo, no command",
         "no louder than the echo", "nothing there either"])
def test_a_phrase_the_canceller_left_nothing_of_is_heard_again_without_it(
    korean_model: LoadedModel, tmp_path: Path, before: str, louder: bool,
    lost: tuple[str, Command | None] | None
) -> None:
    raw = to_pcm16_bytes(resample(quiet_around(
        speech(before, tmp_path) if before else np.zeros(0, np.float32), 0.5), 22050,
        TARGET_RATE))
    listener = make_listener(korean_model)
    listener.uncancelled = lambda seconds, skip: raw
    listener.louder = lambda seconds: louder
    # The canceller's leftover, as a hum vosk reads as nothing (noise came out as a word in CI).
    residue = (0.2 * np.sin(2 * np.pi * 120 * np.arange(11025) / 22050)).astype(np.float32)
    heard = [(h.phrase, h.command, h.lost)
             for _, h in hear_recording(listener, quiet_around(residue), 22050)]
    assert heard == ([(*lost, True)] if lost else [])


@pytest.mark.parametrize(("best", "before", "clear", "heard"), [
    ("엄마", "엄마", True, ("πόντος", True, None, "άστοχο")),
    ("엄마", "엄마", False, ("πόντος", True, "άστοχο", None)),
    ("엄마", "라디오", True, ("πόντος", True, "άστοχο", None)),
    ("엄마 어제", "어제 엄마 버스", True, ("πόντος έξω", True, None, "πόντος διόρθωση")),
    ("엄마 어제", "어제", True, ("πόντος διόρθωση", False, None, None))],
    ids=["its words confirmed", "not clear of the echo", "not confirmed",
         "a lesser reading confirmed, the echo's word before", "no reading confirmed"])
def test_the_microphone_without_the_canceller_settles_its_doubt_when_he_is_clear_of_the_echo(
    korean_model: LoadedModel, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, best: str,
    before: str, clear: bool, heard: tuple[str, bool, str | None, str | None]
) -> None:
    # The canceller's readings: «엄마» with «라디오» nearly as likely, or «엄마 어제» (no
    # command) with «엄마 버스» (πόντος έξω); no quiet after the phrase: finish() ends it.
    raw = to_pcm16_bytes(resample(quiet_around(speech(before, tmp_path), 0.5), 22050,
                                  TARGET_RATE))
    listener = make_listener(korean_model)
    echo_stand_in(listener, raw, clear)  # none of its words his alone: the echo's
    rivals = ("라디오",) if best == "엄마" else ("엄마 버스",)
    monkeypatch.setattr(listener.recogniser, "finish",
                        lambda: Recognised(best, final=True, rivals=rivals))
    samples = np.concatenate([np.zeros(22050 // 4, np.float32),
                              np.trim_zeros(speech("엄마", tmp_path))])
    ((_, got),) = hear_recording(listener, samples, 22050)
    assert (got.phrase, got.command is not None, got.rival, got.doubted) == heard


def echo_stand_in(listener: Listener, raw: bytes, clear: bool,
                  his: tuple[float, float] = (0.0, 0.0), trace: int = 0,
                  known: bool = True) -> None:
    """Wire `listener` to a stand-in for the echo canceller: `raw`, its audio before the
    canceller; the phrase just ended `clear` of the echo or not; a word of `raw` all voice over
    the echo when it lies within `his` (seconds into `raw`, give or take 0.15 s), else `trace`
    frames of it; the echo's gain `known` or not."""
    waiting = [0.0]

    def uncancelled(seconds: float, skip: float) -> bytes:
        waiting[0] = skip
        return raw

    def voiced(seconds: float, skip: float) -> int:
        end = len(raw) / 2 / TARGET_RATE - (skip - waiting[0])  # in `raw`
        inside = his[0] - 0.15 <= end - seconds and end <= his[1] + 0.15
        return round(seconds * 100) if inside else trace

    listener.uncancelled, listener.voiced = uncancelled, voiced
    listener.clear_of_echo = lambda seconds: clear
    listener.echo_known = lambda: known


def taken(listener: Listener, monkeypatch: pytest.MonkeyPatch,
          through: Callable[[], Recognised], folder: Path) -> tuple[str, str | None]:
    """What `listener` makes of «엄마» when the canceller's audio reads `through`: the phrase
    taken, and what the canceller read if the microphone without it settled that."""
    got = taken_heard(listener, monkeypatch, through, folder)
    return got.phrase, got.doubted


def words_apart(first: str, second: str,
                folder: Path) -> tuple[bytes, list[tuple[float, float]]]:
    """`first`, then `second` 0.1 s after it, in quiet (16 kHz PCM), and where each is."""
    words = [np.trim_zeros(resample(speech(word, folder), 22050, TARGET_RATE))
             for word in (first, second)]
    quiet = np.zeros(TARGET_RATE // 10, np.float32)
    samples = np.concatenate([*[quiet] * 5, words[0], quiet, words[1], *[quiet] * 5])
    samples += np.random.default_rng(0).normal(0, 0.0005, len(samples)).astype(np.float32)
    ends = np.cumsum([0.5, len(words[0]) / TARGET_RATE, 0.1, len(words[1]) / TARGET_RATE])
    return to_pcm16_bytes(samples), [(ends[0], ends[1]), (ends[2], ends[3])]


@pytest.mark.parametrize(("his", "trace", "rival"), [
    (True, 0, "πόντος έξω"), (False, 0, None), (False, 7, "πόντος έξω")],
    ids=["his «έξω», cut by the canceller", "the echo's «έξω» after his",
         "more than a trace of his voice in «έξω»"])
def test_a_word_of_his_besides_the_commands_without_the_canceller_makes_it_a_rival(
    korean_model: LoadedModel, tmp_path: Path, his: bool, trace: int, rival: str | None
) -> None:
    # «πόντος έξω» through the canceller «πόντος»: «έξω» louder than the echo there is his, and
    # may be with more than a trace of his voice, less than a syllable (bench/echo.py, draw 5
    # at −13 dB: his «σκορ» read «διόρθωση», without the canceller «άστοχο διόρθωση», 8 frames).
    raw, (_, second) = words_apart("엄마", "버스", tmp_path)
    listener = make_listener(korean_model)
    echo_stand_in(listener, raw, clear=True, his=second if his else (0.0, 0.0), trace=trace)
    ((_, heard),) = hear_recording(listener, quiet_around(speech("엄마", tmp_path)), 22050)
    assert (heard.phrase, heard.rival, heard.rival_uncancelled) == ("πόντος", rival,
                                                                    rival is not None)


@pytest.mark.parametrize(("before", "his", "known", "clear", "rival"), [
    ("라디오", False, True, False, "…"), ("라디오", True, True, False, None),
    ("라디오", False, False, False, "…"), ("어제", False, False, False, "διόρθωση"),
    ("라디오", False, True, True, None)],
    ids=["the echo's voice alone in its words", "his voice in them",
         "the echo's gain not known: nothing tells them apart",
         "the echo's gain not known, another command without the canceller",
         "clear of the echo"])
def test_a_command_whose_words_hold_no_voice_of_his_without_the_canceller_is_unsure(
    korean_model: LoadedModel, tmp_path: Path, before: str, his: bool, known: bool, clear: bool,
    rival: str | None
) -> None:
    # Through the canceller «άστοχο», and without it too, with no more than a trace of his voice
    # over the echo in its word (bench/echo.py, −13 dB on draw 4: the PA's echo taken as
    # «άστοχο»; on draw 7 at +7 dB, before a block of the echo was measured, his «πόντος» as
    # «έξω»), or without it another command, the rival whether the echo is known or not.
    word = np.trim_zeros(speech(before, tmp_path))
    raw = to_pcm16_bytes(resample(quiet_around(word, 0.5), 22050, TARGET_RATE))
    listener = make_listener(korean_model)
    echo_stand_in(listener, raw, clear=clear, his=(0.5, 0.5 + len(word) / 22050) if his
                  else (0.0, 0.0), trace=3, known=known)
    ((_, heard),) = hear_recording(listener, quiet_around(speech("라디오", tmp_path)), 22050)
    assert (heard.phrase, heard.rival, heard.rival_uncancelled) == ("άστοχο", rival,
                                                                    rival is not None)


@pytest.mark.parametrize(("rivals", "his", "trace", "heard"), [
    ((), "엄마 버스", 0, ("πόντος έξω", "πόντος διόρθωση")),
    ((), "엄마 버스", 7, ("πόντος διόρθωση", None)), ((), "all", 0, ("πόντος διόρθωση", None)),
    ((), "none", 0, ("πόντος διόρθωση", None)),
    (("엄마 버스",), "none", 0, ("πόντος έξω", "πόντος διόρθωση")),
    (("엄마 버스",), "어제", 0, ("διόρθωση", "πόντος διόρθωση"))],
    ids=["his words a command", "a trace of voice in the echo's word",
         "the echo's word in his voice too", "no word in his voice",
         "a lesser reading confirmed, the echo's word before his",
         "a word of his besides it, his words alone"])
def test_his_words_without_the_canceller_settle_a_phrase_it_heard_as_no_command(
    korean_model: LoadedModel, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    rivals: tuple[str, ...], his: str, trace: int, heard: tuple[str, str | None]
) -> None:
    # Through the canceller «엄마 어제», no command, and maybe «엄마 버스» nearly as likely;
    # without it «어제 엄마 버스».
    raw, (first, second) = words_apart("어제", "엄마 버스", tmp_path)
    listener = make_listener(korean_model)
    spans = {"엄마 버스": second, "어제": first, "all": (first[0], second[1]), "none": (0.0, 0.0)}
    echo_stand_in(listener, raw, clear=True, his=spans[his], trace=trace)
    through = Recognised("엄마 어제", final=True, rivals=rivals)
    assert taken(listener, monkeypatch, lambda: through, tmp_path) == heard


@pytest.mark.parametrize(("at", "heard"), [("his", ("πόντος", "πόντος διόρθωση")),
                                           ("after", ("πόντος διόρθωση", None))],
                         ids=["its words where his are", "a word of it where the echo's is"])
def test_his_words_settle_nothing_when_the_canceller_let_a_word_through_elsewhere(
    korean_model: LoadedModel, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, at: str,
    heard: tuple[str, str | None]
) -> None:
    # His «πόντος έξω», «έξω» under the echo: through the canceller «엄마 어제», without it
    # «엄마 버스» with no voice of his in «버스». «어제» where «버스» is: his word, not the echo's.
    raw, (first, second) = words_apart("엄마", "버스", tmp_path)
    listener = make_listener(korean_model)
    echo_stand_in(listener, raw, clear=True, his=first)
    middle = (first[0] + first[1]) / 2
    spans = {"his": [(first[0] + 0.1, middle), (middle, first[1] - 0.1)],
             "after": [first, second]}[at]

    def finish() -> Recognised:  # its words timed in the recogniser's stream, which ends now
        shift = listener.recogniser.fed_seconds - len(raw) / 2 / TARGET_RATE
        return Recognised("엄마 어제", final=True, words=tuple(
            Word(text, start + shift, end + shift)
            for text, (start, end) in zip(["엄마", "어제"], spans, strict=True)))

    assert taken(listener, monkeypatch, finish, tmp_path) == heard


@pytest.mark.parametrize(("through", "his", "heard"), [
    ("엄마", "both", ("πόντος έξω", None, "πόντος")),
    ("버스", "second", ("έξω", "πόντος έξω", None))],
    ids=["his words a command", "his «έξω» alone, «πόντος» under the echo"])
def test_his_words_without_the_canceller_settle_a_command_it_cut(
    korean_model: LoadedModel, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, through: str,
    his: str, heard: tuple[str, str | None, str | None]
) -> None:
    # His «πόντος έξω»; without the canceller «엄마 버스». Through it only one of the words, a
    # command, heard where that word is: another word in his voice makes the second hearing
    # its rival, unless his words there alone make a command, and no other with words before.
    raw, (first, second) = words_apart("엄마", "버스", tmp_path)
    listener = make_listener(korean_model)
    echo_stand_in(listener, raw, clear=True, his=(first[0], second[1]) if his == "both" else second)
    decoded = []
    reading = Recogniser.reading
    monkeypatch.setattr(Recogniser, "reading",
                        lambda self, audio: decoded.append(audio) or reading(self, audio))
    span = first if through == "엄마" else second
    got = taken_heard(listener, monkeypatch, through_at(listener, raw, through, span), tmp_path)
    assert (got.phrase, got.rival, got.doubted) == heard
    assert decoded == [raw]  # heard again once, however many rules ask how


def through_at(listener: Listener, raw: bytes, text: str,
               span: tuple[float, float]) -> Callable[[], Recognised]:
    """The canceller's reading `text`, one word heard where `span` of `raw` is."""
    def finish() -> Recognised:  # timed in the recogniser's stream, which ends now
        shift = listener.recogniser.fed_seconds - len(raw) / 2 / TARGET_RATE
        return Recognised(text, final=True, words=(Word(text, span[0] + shift, span[1] + shift),))

    return finish


def unsure_of(monkeypatch: pytest.MonkeyPatch, reading: str) -> None:
    """The second hearing finds `reading` nearly as likely as its best, besides its own rivals."""
    hear = Recogniser.reading

    def unsure(self: Recogniser, audio: bytes) -> Recognised:
        heard = hear(self, audio)
        return dataclasses.replace(heard, rivals=(*heard.rivals, reading))

    monkeypatch.setattr(Recogniser, "reading", unsure)


@pytest.mark.parametrize(("unsure", "heard"), [
    (False, ("διόρθωση", None, "πόντος")), (True, ("πόντος", "διόρθωση", None))],
    ids=["the second hearing sure", "the canceller's reading nearly as likely there"])
def test_his_words_overrule_the_canceller_only_where_the_second_hearing_is_sure(
    korean_model: LoadedModel, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, unsure: bool,
    heard: tuple[str, str | None, str | None]
) -> None:
    # His «διόρθωση» read «πόντος» through the canceller (bench/echo.py, the PA cut short for
    # him): without it «διόρθωση», all his voice.
    word = np.trim_zeros(speech("어제", tmp_path))
    raw = to_pcm16_bytes(resample(quiet_around(word, 0.5), 22050, TARGET_RATE))
    span = (0.5, 0.5 + len(word) / 22050)
    listener = make_listener(korean_model)
    echo_stand_in(listener, raw, clear=True, his=span)
    if unsure:
        unsure_of(monkeypatch, "엄마")
    got = taken_heard(listener, monkeypatch, through_at(listener, raw, "엄마", span), tmp_path)
    assert (got.phrase, got.rival, got.doubted) == heard


def test_a_word_of_his_making_another_command_where_the_canceller_heard_none_is_its_rival(
    korean_model: LoadedModel, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # His «σκορ» read «διόρθωση» through the canceller; without it «έξω σκορ», the echo's «έξω»
    # before his «σκορ», «διόρθωση» nearly as likely: not taken, asked again.
    raw, (_, second) = words_apart("버스", "할아버지", tmp_path)
    listener = make_listener(korean_model)
    echo_stand_in(listener, raw, clear=True, his=second)
    unsure_of(monkeypatch, "어제")
    got = taken_heard(listener, monkeypatch, through_at(listener, raw, "어제", second), tmp_path)
    assert (got.phrase, got.rival, got.rival_uncancelled) == ("διόρθωση", "έξω σκορ", True)


@pytest.mark.parametrize(("gap", "asked", "heard"), [
    (0.2, True, [("πόντος", "άστοχο")]),
    (0.5, True, [("πόντος", "άστοχο"), ("άστοχο", None)]),
    (0.2, False, [("πόντος", "άστοχο"), ("άστοχο", None)])],
    ids=["right after: the rest of the phrase", "after quiet: a phrase of its own",
         "the first not asked again"])
def test_what_follows_a_phrase_asked_again_without_quiet_is_its_rest_not_acted_on(
    korean_model: LoadedModel, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, gap: float,
    asked: bool, heard: list[tuple[str, str | None]]
) -> None:
    # The first utterance read «엄마» with «라디오» nearly as likely (the loop asks again);
    # the next, `gap` s after it ended, «라디오»: within a pre-roll (0.3 s) the rest of it.
    readings = iter([Recognised("엄마", final=True, rivals=("라디오",)),
                     Recognised("라디오", final=True)])
    listener = make_listener(korean_model)
    monkeypatch.setattr(listener.recogniser, "finish",
                        lambda: next(readings, Recognised("", final=True)))
    monkeypatch.setattr(listener.recogniser, "feed", lambda pcm16, partials=True: None)
    word = np.trim_zeros(speech("엄마", tmp_path))
    samples = quiet_around(np.concatenate([word, np.zeros(int(gap * 22050), np.float32), word]))
    got = []
    for chunk in chunked(to_pcm16_bytes(resample(samples, 22050, TARGET_RATE)), 100):
        found = listener.feed(chunk)
        if found is not None:
            got.append((found.phrase, found.rival))
            if asked:
                listener.asked()
    assert got == heard


def taken_heard(listener: Listener, monkeypatch: pytest.MonkeyPatch,
                through: Callable[[], Recognised], folder: Path) -> Heard:
    """What `listener` returns for a phrase the canceller's audio reads `through`."""
    monkeypatch.setattr(listener.recogniser, "finish", through)
    samples = np.concatenate([np.zeros(22050 // 4, np.float32),
                              np.trim_zeros(speech("엄마", folder))])
    ((_, got),) = hear_recording(listener, samples, 22050)
    return got


@pytest.mark.parametrize(("tail", "heard"), [
    (False, [("πόντος", False, "")]), (True, [("πόντος", False, ""), ("πόντος", True, None)])],
    ids=["after quiet", "right after another"])
def test_his_words_settle_a_phrase_the_canceller_left_nothing_of_unless_it_may_be_a_tail(
    korean_model: LoadedModel, tmp_path: Path, tail: bool,
    heard: list[tuple[str, bool, str | None]]
) -> None:
    # Each utterance the canceller's hum; without it «엄마» (πόντος), all his voice. The second
    # begins 0.2 s after the first: it may be the end of a phrase the endpointer cut in two (at
    # +7 dB in bench/echo.py, the last 0.18 s of his «σκορ» read «διόρθωση», all his voice).
    word = np.trim_zeros(speech("엄마", tmp_path))
    raw = to_pcm16_bytes(resample(quiet_around(word, 0.5), 22050, TARGET_RATE))
    listener = make_listener(korean_model)
    echo_stand_in(listener, raw, clear=True, his=(0.5, 0.5 + len(word) / 22050))
    listener.louder = lambda seconds: True
    hum = (0.2 * np.sin(2 * np.pi * 120 * np.arange(11025) / 22050)).astype(np.float32)
    residue = np.concatenate([hum, np.zeros(22050 // 5, np.float32), hum]) if tail else hum
    assert [(h.phrase, h.lost, h.doubted)
            for _, h in hear_recording(listener, quiet_around(residue), 22050)] == heard


def test_an_early_commit_the_microphone_heard_otherwise_is_returned_to_be_undone(
    korean_model: LoadedModel, tmp_path: Path
) -> None:
    raw = to_pcm16_bytes(resample(quiet_around(speech("어제", tmp_path), 0.5), 22050,
                                  TARGET_RATE))
    listener = early_listener(korean_model)
    listener.uncancelled = lambda seconds, skip: raw
    samples = np.concatenate([np.zeros(22050 // 4, np.float32), speech("라디오", tmp_path)])
    heard = [(h.command, h.early, h.replaces, h.rival)
             for _, h in hear_recording(listener, samples, 22050)]
    miss = Command(Kind.MISS)
    assert heard == [(miss, True, None, None), (miss, False, miss, "διόρθωση")]


@pytest.mark.parametrize(("before", "doubted"), [("라디오", False), ("어제", True)],
                         ids=["the same words", "other words"])
def test_without_a_grammar_the_second_hearing_is_free_form_too(
    korean_model: LoadedModel, tmp_path: Path, before: str, doubted: bool
) -> None:
    static = LoadedModel(dataclasses.replace(korean_model.info, runtime_grammars=False),
                         korean_model.vosk)  # the real model, decoding without a grammar
    raw = to_pcm16_bytes(resample(quiet_around(speech(before, tmp_path), 0.5), 22050,
                                  TARGET_RATE))
    listener = make_listener(static)
    listener.uncancelled = lambda seconds, skip: raw
    ((_, heard),) = hear_recording(listener, quiet_around(speech("라디오", tmp_path)), 22050)
    assert heard.command == Command(Kind.MISS)
    assert (heard.rival is not None, heard.rival_uncancelled) == (doubted, doubted)


def after_nothing(listener: Listener, gap: float, folder: Path) -> list[Heard]:
    """What `listener` returns when the canceller's audio is its hum (vosk reads nothing
    there, and it is no louder than the echo: dropped), then «어제» (διόρθωση) `gap` s after
    the hum ends."""
    listener.louder = lambda seconds: False
    hum = (0.2 * np.sin(2 * np.pi * 120 * np.arange(11025) / 22050)).astype(np.float32)
    word = np.trim_zeros(speech("어제", folder))
    samples = quiet_around(np.concatenate([hum, np.zeros(int(gap * 22050), np.float32), word]))
    return [heard for _, heard in hear_recording(listener, samples, 22050)]


def heard_with_its_start(korean_model: LoadedModel, whole: str, frames: int,
                         folder: Path) -> Listener:
    """A listener whose second hearing reads «어제» over an utterance alone and `whole` over it
    with the one before, each word `frames` of voice over the echo, the phrase clear of it."""
    alone, joined = (to_pcm16_bytes(resample(quiet_around(speech(text, folder), 0.2), 22050,
                                              TARGET_RATE)) for text in ("어제", whole))

    def uncancelled(seconds: float, skip: float) -> bytes:
        return joined if seconds > 1.1 else alone  # the rest alone: 0.7 s; with the hum's, 1.4

    listener = make_listener(korean_model)
    listener.uncancelled, listener.voiced = uncancelled, lambda seconds, skip: frames
    listener.clear_of_echo, listener.echo_known = (lambda seconds: True), (lambda: True)
    return listener


@pytest.mark.parametrize(("gap", "rival"), [(0.16, "πόντος έξω"), (0.5, None)],
    ids=["right after: the rest of his phrase", "after quiet: a phrase of its own"])
def test_a_command_right_after_an_utterance_that_came_to_nothing_is_heard_again_with_it(
    korean_model: LoadedModel, tmp_path: Path, gap: float, rival: str | None
) -> None:
    # His «πόντος έξω» over the PA (bench/echo.py, draw 8 at −3 dB): the canceller left
    # nothing of «πόντος», no louder than the echo; the rest, begun with no quiet, read
    # «διόρθωση» in both hearings, all his voice. Heard again with the utterance before it,
    # without the canceller «엄마 버스» (πόντος έξω): its rival, not overruled by the rest alone.
    listener = heard_with_its_start(korean_model, "엄마 버스", 100, tmp_path)
    (heard,) = after_nothing(listener, gap, tmp_path)
    assert (heard.phrase, heard.rival, heard.doubted) == ("διόρθωση", rival, None)


@pytest.mark.parametrize(("clear", "rival"), [(False, "έξω διόρθωση"), (True, None)],
    ids=["not clear of the echo its start was under: that may be his", "clear of it"])
def test_a_word_before_the_rest_of_a_phrase_makes_it_a_rival_where_its_start_was_drowned(
    korean_model: LoadedModel, tmp_path: Path, clear: bool, rival: str | None
) -> None:
    # His «πόντος έξω» over the PA (bench/echo.py, draw 8 at +7 dB): the canceller left
    # nothing of its start; the rest, begun with no quiet once the PA stopped for him, read
    # «διόρθωση» in both hearings, and with the utterance before it «έξω διόρθωση», «έξω» a
    # trace of voice: the echo's word, or his start at a level not clear of the echo there.
    listener = heard_with_its_start(korean_model, "버스 어제", 5, tmp_path)
    listener.clear_before = lambda seconds, before: clear
    (heard,) = after_nothing(listener, 0.16, tmp_path)
    assert (heard.phrase, heard.rival, heard.doubted) == ("διόρθωση", rival, None)


@pytest.mark.parametrize(("trace", "heard"), [
    (0, ("διόρθωση", None, "σκορ")), (7, ("διόρθωση", "σκορ", None))],
    ids=["the echo's word before his", "more than a trace of his voice in it"])
def test_the_second_hearing_settles_no_doubt_with_a_word_that_may_be_his_besides(
    korean_model: LoadedModel, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, trace: int,
    heard: tuple[str, str | None, str | None]
) -> None:
    # His «σκορ» said over «τους» (bench/echo.py, draw 5 at −13 dB): through the canceller
    # «διόρθωση» with «σκορ» nearly as likely; without it «άστοχο διόρθωση», «διόρθωση» all his
    # voice, «άστοχο» 8 frames of it: maybe his, so it confirms nothing.
    raw, (_, second) = words_apart("라디오", "어제", tmp_path)
    listener = make_listener(korean_model)
    echo_stand_in(listener, raw, clear=True, his=second, trace=trace)
    through = Recognised("어제", final=True, rivals=("할아버지",))
    got = taken_heard(listener, monkeypatch, lambda: through, tmp_path)
    assert (got.phrase, got.rival, got.doubted) == heard
