"""The recogniser and model check on the real Korean vosk model (a stand-in for Greek, which
CI cannot install) with espeak-ng speech; the code paths are the same."""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest

from tests.support.vosk_model import fake_static_model
from voice.audio_signal import resample, to_pcm16_bytes
from voice.cli.main import explain
from voice.hearing.audio import TARGET_RATE, chunked, read_wav
from voice.hearing.model import ModelError, check_model
from voice.hearing.recognise import (
    CLOSE_NATS,
    UNKNOWN,
    LoadedModel,
    Recognised,
    Recogniser,
    load_model,
)

# Words espeak-ng's Korean voice says well enough for the small Korean model, checked in both
# free-form and grammar mode; the numbers are distractors the grammar must choose against.
WORDS = ["엄마", "라디오", "버스", "할아버지", "어제"]
GRAMMAR = [*WORDS, "하나", "둘", "셋", "넷", "다섯"]
PHRASE = "엄마 버스 라디오"


def espeak(text: str, path: Path) -> Path:
    """Synthesise Korean `text` to a 22050 Hz mono WAV at `path`."""
    subprocess.run(["espeak-ng", "-v", "ko", "-w", str(path), text], check=True)
    return path


def sox(source: Path, target: Path, *effects: str, options: tuple[str, ...] = ()) -> Path:
    """Convert `source` with sox (an implementation independent of voice.hearing.audio)."""
    subprocess.run(["sox", str(source), *options, str(target), *effects], check=True)
    return target


@pytest.fixture(scope="module")
def speech(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """espeak-ng clips of each word, of PHRASE, and of 하나 (outside the two-word grammar)."""
    folder = tmp_path_factory.mktemp("speech")
    clips = {text: espeak(text, folder / f"{i}.wav") for i, text in enumerate([*WORDS, "하나"])}
    clips[PHRASE] = espeak(PHRASE, folder / "phrase.wav")
    return clips


@pytest.fixture(scope="module")
def grammar_recogniser(korean_model: LoadedModel) -> Recogniser:
    return Recogniser(korean_model, GRAMMAR)


@pytest.fixture(scope="module")
def free_recogniser(korean_model: LoadedModel) -> Recogniser:
    return Recogniser(korean_model)


def test_check_model_describes_the_korean_model(korean_model_dir: Path) -> None:
    info = check_model(korean_model_dir)
    assert info.runtime_grammars
    assert info.words_source.name == "Gr.fst"  # this model has no words.txt
    assert set(GRAMMAR) <= info.vocabulary
    assert "ένα" not in info.vocabulary


@pytest.mark.parametrize("word", WORDS)
def test_grammar_recognises_each_word(
    grammar_recogniser: Recogniser, speech: dict[str, Path], word: str
) -> None:
    assert grammar_recogniser.grammar == tuple(GRAMMAR)
    assert grammar_recogniser.transcribe(*read_wav(speech[word])) == [word]


@pytest.mark.parametrize(
    ("options", "effects", "rate"),
    [
        ((), ("rate", "8000"), 8000),
        ((), ("rate", "44100"), 44100),
        ((), ("channels", "2"), 22050),
        (("-b", "24"), ("rate", "48000"), 48000),
    ],
    ids=["8kHz", "44.1kHz", "stereo", "48kHz-24bit"],
)
def test_same_words_from_other_formats(
    grammar_recogniser: Recogniser,
    speech: dict[str, Path],
    tmp_path: Path,
    options: tuple[str, ...],
    effects: tuple[str, ...],
    rate: int,
) -> None:
    samples, found_rate = read_wav(
        sox(speech[PHRASE], tmp_path / "x.wav", *effects, options=options)
    )
    assert found_rate == rate
    assert grammar_recogniser.transcribe(samples, rate) == [PHRASE]


@pytest.mark.parametrize("chunk_ms", [20, 100, 250, 1000])
def test_chunk_size_does_not_change_the_result(
    grammar_recogniser: Recogniser, speech: dict[str, Path], chunk_ms: int
) -> None:
    samples, rate = read_wav(speech[PHRASE])
    assert grammar_recogniser.transcribe(samples, rate, chunk_ms=chunk_ms) == [PHRASE]


def test_feed_gives_partials_then_a_final_at_the_pause(
    grammar_recogniser: Recogniser, speech: dict[str, Path], tmp_path: Path
) -> None:
    clip = sox(speech[PHRASE], tmp_path / "16k.wav", "rate", "16000", "pad", "0", "1.5")
    samples, rate = read_wav(clip)
    assert rate == 16000
    pcm = to_pcm16_bytes(samples)
    events = [grammar_recogniser.feed(pcm[i : i + 3200]) for i in range(0, len(pcm), 3200)]
    events = [e for e in events if e is not None]
    assert events[-1].text == PHRASE and events[-1].final  # endpoint after 1.5 s of silence
    assert [e.final for e in events[:-1]] == [False] * (len(events) - 1)
    assert len(events) >= 2
    assert grammar_recogniser.finish().text == ""


def test_out_of_grammar_speech_is_unknown(
    korean_model: LoadedModel, speech: dict[str, Path]
) -> None:
    recogniser = Recogniser(korean_model, ["엄마", "라디오"])
    assert recogniser.transcribe(*read_wav(speech["하나"])) == [UNKNOWN]  # the model says <UNK>


@pytest.mark.parametrize("gap", [0.2, 0.3])
def test_a_click_before_a_word_is_no_unknown_word(
    korean_model: LoadedModel, speech: dict[str, Path], gap: float
) -> None:
    # 10 ms of noise `gap` s before «어제»: vosk reads it as an unknown word 30 ms long.
    rng = np.random.default_rng(0)
    word, rate = read_wav(speech["어제"])
    word = np.trim_zeros(resample(word, rate, TARGET_RATE)).astype(np.float32)
    quiet = np.zeros(int(0.3 * TARGET_RATE), np.float32)
    click = rng.normal(0, 0.3, TARGET_RATE // 100).astype(np.float32)
    samples = np.concatenate([quiet, click, np.zeros(int(gap * TARGET_RATE), np.float32), word,
                              quiet])
    samples += rng.normal(0, 0.0005, len(samples)).astype(np.float32)
    recogniser = Recogniser(korean_model, WORDS)
    assert recogniser.transcribe(samples, TARGET_RATE) == ["어제"]
    alone = samples[: len(quiet) + len(click) + int(gap * TARGET_RATE)]
    assert recogniser.transcribe(alone, TARGET_RATE) == []  # nothing heard, not «[unk]»


def test_missing_words_are_reported_and_their_phrases_left_out(korean_model: LoadedModel) -> None:
    recogniser = Recogniser(korean_model, ["엄마", "ένα", "엄마  πόντος", "라디오 ένα"])
    assert recogniser.missing_words() == ["ένα", "πόντος"]
    assert recogniser.grammar == ("엄마",)


def test_no_usable_phrase_is_an_error(korean_model: LoadedModel) -> None:
    with pytest.raises(ValueError, match="ένα"):
        Recogniser(korean_model, ["ένα", "δύο"])


def test_grammar_decoding_keeps_up(grammar_recogniser: Recogniser) -> None:
    assert 0 < grammar_recogniser.time_decode(1.0) < 1.0


def test_free_form_recognises_one_word(
    free_recogniser: Recogniser, grammar_recogniser: Recogniser, speech: dict[str, Path]
) -> None:
    assert free_recogniser.grammar is None
    assert free_recogniser.time_decode(1.0) > grammar_recogniser.time_decode(1.0)
    assert free_recogniser.transcribe(*read_wav(speech["라디오"])) == ["라디오"]


def test_check_model_names_a_missing_directory(tmp_path: Path) -> None:
    path = tmp_path / "vosk-model-el"
    with pytest.raises(ModelError, match="no vosk model at .*vosk-model-el$") as error:
        check_model(path)
    assert "; download vosk-model-el-gr-0.7" in explain(error.value)
    assert "referee model fetch" in explain(error.value)


def test_check_model_lists_missing_parts(tmp_path: Path) -> None:
    (tmp_path / "am").mkdir()
    (tmp_path / "am" / "final.mdl").write_bytes(b"x")
    with pytest.raises(ModelError, match=str(tmp_path)) as error:
        check_model(tmp_path)
    message = str(error.value)
    for part in ["conf/mfcc.conf", "conf/model.conf", "graph/HCLr.fst", "graph/Gr.fst"]:
        assert part in message
    assert "am/final.mdl" not in message


def test_check_model_reads_words_txt_of_a_static_graph(tmp_path: Path) -> None:
    info = check_model(fake_static_model(tmp_path, "<eps> 0\nένα 1\nπόντος 2\n"))
    assert not info.runtime_grammars
    assert info.vocabulary == {"<eps>", "ένα", "πόντος"}


def test_check_model_rejects_a_graph_without_words(tmp_path: Path) -> None:
    fake_static_model(tmp_path, "")
    with pytest.raises(ModelError, match="no graph/words.txt and HCLG.fst carries no word"):
        check_model(tmp_path)


def test_check_model_rejects_a_graph_that_is_not_an_fst(tmp_path: Path) -> None:
    fake_static_model(tmp_path, "<eps> 0\n")
    (tmp_path / "graph" / "HCLG.fst").write_bytes(b"junk")
    with pytest.raises(ModelError, match="HCLG.fst is not an OpenFst file"):
        check_model(tmp_path)


def test_load_model_turns_a_vosk_failure_into_a_model_error(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match="vosk could not load the model"):
        load_model(fake_static_model(tmp_path, "<eps> 0\nένα 1\n"))


def test_reset_forgets_audio_the_decoder_had_not_caught_up_with(
    grammar_recogniser: Recogniser, speech: dict[str, Path], tmp_path: Path
) -> None:
    import numpy as np

    samples, _ = read_wav(sox(speech["라디오"], tmp_path / "16k.wav", "rate", "16000"))
    pcm = to_pcm16_bytes(samples)
    grammar_recogniser.feed(pcm + bytes(1600))  # the word and 50 ms after it
    grammar_recogniser.reset()
    noise = to_pcm16_bytes(np.random.default_rng(1).normal(0, 0.0005, 16000 * 2))
    events = [grammar_recogniser.feed(noise[i : i + 3200]) for i in range(0, len(noise), 3200)]
    heard = [e.text for e in events if e is not None] + [grammar_recogniser.finish().text]
    assert "라디오" not in " ".join(heard)


def test_feed_without_partials_gives_only_the_final(
    grammar_recogniser: Recogniser, speech: dict[str, Path], tmp_path: Path
) -> None:
    clip = sox(speech[PHRASE], tmp_path / "16k.wav", "rate", "16000", "pad", "0", "1.5")
    pcm = to_pcm16_bytes(read_wav(clip)[0])
    events = [grammar_recogniser.feed(pcm[i : i + 3200], partials=False)
              for i in range(0, len(pcm), 3200)]
    # Its rival readings aside: one near the 3 nats may come or not from one decode to the next.
    assert [(e.text, e.final) for e in events if e is not None] == [(PHRASE, True)]


def blend(model: LoadedModel, clips: dict[str, Path], word: str, other: str,
          share: float, close_nats: float = CLOSE_NATS) -> list[Recognised]:
    """The final results of a recogniser on the listener's grammar, its rivals within
    `close_nats`, hearing `word` with `other` said over it at `share` of its level."""
    (first, rate), (second, _) = read_wav(clips[word]), read_wav(clips[other])
    mixed = np.zeros(rate // 4 + max(len(first), len(second)) + rate // 2, np.float32)
    mixed[rate // 4 : rate // 4 + len(first)] += first
    mixed[rate // 4 : rate // 4 + len(second)] += share * second
    recogniser = Recogniser(model, ["엄마", "엄마 버스", "라디오", "할아버지", "어제"])
    recogniser.close_nats = close_nats
    pcm = to_pcm16_bytes(resample(mixed, rate, TARGET_RATE))
    events = [recogniser.feed(chunk, partials=False) for chunk in chunked(pcm, 100)]
    return [e for e in [*events, recogniser.finish()] if e is not None and e.text]


def test_a_word_said_alone_has_no_rival_reading(
    korean_model: LoadedModel, speech: dict[str, Path]
) -> None:
    assert [(heard.text, heard.rivals) for heard in blend(korean_model, speech, "라디오", "엄마",
                                                          0.0)] == [("라디오", ())]


def test_a_word_with_another_over_it_has_that_one_as_a_rival_reading(
    korean_model: LoadedModel, speech: dict[str, Path]
) -> None:
    # «엄마» said over «라디오» at 70 % of its level: whichever reading vosk puts first, the
    # other word said comes within CLOSE_NATS of it.
    (heard,) = blend(korean_model, speech, "라디오", "엄마", 0.7)
    assert {"라디오", "엄마"} <= {heard.text, *heard.rivals}


def test_a_reading_further_than_close_nats_from_the_best_is_no_rival(
    korean_model: LoadedModel, speech: dict[str, Path]
) -> None:
    (near,) = blend(korean_model, speech, "라디오", "엄마", 0.7)
    (far,) = blend(korean_model, speech, "라디오", "엄마", 0.7, close_nats=-1.0)
    # Which of the near readings vosk puts first can change from one decode to the next.
    assert near.rivals and far.rivals == () and far.text in {near.text, *near.rivals}


@pytest.mark.parametrize("after", [0.2, 2.0], ids=["short quiet", "vosk's endpoint"])
def test_a_reading_is_the_whole_audio_as_one_utterance(
    grammar_recogniser: Recogniser, speech: dict[str, Path], after: float
) -> None:
    (first, rate), (second, _) = read_wav(speech["어제"]), read_wav(speech["할아버지"])
    quiet = np.random.default_rng(0).normal(0, 0.0005, int(after * rate)).astype(np.float32)
    pcm = to_pcm16_bytes(resample(np.concatenate([quiet[:rate // 10], first, second, quiet]),
                                  rate, TARGET_RATE))
    assert grammar_recogniser.reading(pcm).text == "어제 할아버지"


def test_a_readings_words_are_timed_in_its_own_audio_whatever_was_heard_before(
    korean_model: LoadedModel, speech: dict[str, Path]
) -> None:
    # «엄마» at 0.5 s, «라디오» 0.4 s after it; vosk's times count from its first audio.
    (first, rate), (second, _) = read_wav(speech["엄마"]), read_wav(speech["라디오"])
    first, second = (np.trim_zeros(resample(word, rate, TARGET_RATE)) for word in (first, second))
    quiet = np.random.default_rng(0).normal(0, 0.0005, TARGET_RATE // 10).astype(np.float32)
    samples = np.concatenate([*[quiet] * 5, first, *[quiet] * 4, second, *[quiet] * 3])
    starts = (0.5, 0.9 + len(first) / TARGET_RATE)
    recogniser = Recogniser(korean_model, WORDS)
    recogniser.time_decode()  # 2 s of babble heard first
    for _ in range(2):
        words = recogniser.reading(to_pcm16_bytes(samples)).words
        assert [word.text for word in words] == ["엄마", "라디오"]
        for word, start in zip(words, starts, strict=True):
            assert abs(word.start - start) < 0.15 and word.start < word.end
