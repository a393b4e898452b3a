"""voice.speaking.synthesis against the real pyttsx3 + espeak-ng Greek voice (no mocks)."""

import subprocess
import sys
import time
import wave
from pathlib import Path

import numpy as np
import pytest
import pyttsx3
from pyttsx3.voice import Voice

from voice.speaking.synthesis import (
    GREEK_VOICE_ID,
    SpeechError,
    Synthesiser,
    find_greek_voice,
    read_pcm16_wav,
)

SHORT = "αντρέ"
LONG = "Παπαδόπουλος 195, για πέντε"
PHRASES = [LONG, SHORT, "ντεντάν", "ρεστέ ντεντάν"]
REPO = Path(__file__).resolve().parents[2]
SILENCE_RMS = 500  # espeak-ng speech here is ~2300-3000 RMS; its silence is exactly 0

# Greek neuter cardinals, as a score is read out.
NUMBER_WORDS = {
    1: "ένα",
    2: "δύο",
    5: "πέντε",
    12: "δώδεκα",
    21: "είκοσι ένα",
    100: "εκατό",
    101: "εκατόν ένα",
    195: "εκατόν ενενήντα πέντε",
    200: "διακόσια",
    250: "διακόσια πενήντα",
    300: "τριακόσια",
}

# espeak-ng reads digits from its number dictionary but words through its spelling rules,
# which write the same Greek sounds differently: ντ as nt/nd (dictionary) or d (rules),
# and the -ια- of διακόσια as ;a (dictionary) or i;a / ja (rules).
SAME_SOUND = [("nt", "d"), ("nd", "d"), ("i;", ";"), ("sj", "s;")]


@pytest.fixture(scope="module")
def synth() -> Synthesiser:
    """A synthesiser that keeps nothing: every render is synthesised."""
    return Synthesiser(cache=0)


def wav_stats(path: Path) -> tuple[int, float, float]:
    """Read a WAV with the stdlib only and return (channels, seconds, RMS)."""
    with wave.open(str(path), "rb") as wav:
        assert wav.getsampwidth() == 2
        frames = wav.readframes(wav.getnframes())
        seconds = wav.getnframes() / wav.getframerate()
        channels = wav.getnchannels()
    samples = np.frombuffer(frames, dtype="<i2").astype(np.float64)
    rms = float(np.sqrt(np.mean(samples**2))) if samples.size else 0.0
    return channels, seconds, rms


def phonemes(text: str) -> str:
    """espeak-ng's Greek phoneme transcription of `text`."""
    result = subprocess.run(
        ["espeak-ng", "-v", "el", "-q", "-x", text], check=True, capture_output=True, text=True
    )
    return result.stdout.strip()


def sounds(text: str) -> str:
    """Phonemes without stress, pauses and word breaks, spelling variants unified."""
    bare = "".join(c for c in phonemes(text) if c not in "',_ \n")
    for variant, canonical in SAME_SOUND:
        bare = bare.replace(variant, canonical)
    return bare


def test_greek_voice_is_selected_and_active(synth: Synthesiser) -> None:
    assert synth.voice_id == GREEK_VOICE_ID
    assert "el" in synth.voice.languages
    synth.render(SHORT)
    # pyttsx3.init returns the same cached engine the synthesiser drives.
    assert pyttsx3.init("espeak").getProperty("voice") == GREEK_VOICE_ID


@pytest.mark.parametrize("text", PHRASES)
def test_render_wav_writes_audible_mono_speech(
    synth: Synthesiser, tmp_path: Path, text: str
) -> None:
    target = tmp_path / "phrase.wav"
    assert synth.render_wav(text, target) == target
    channels, seconds, rms = wav_stats(target)
    assert channels == 1
    assert 0.3 < seconds < 6.0
    assert rms > SILENCE_RMS


def test_longer_phrase_lasts_longer(synth: Synthesiser, tmp_path: Path) -> None:
    _, long_seconds, _ = wav_stats(synth.render_wav(LONG, tmp_path / "long.wav"))
    _, short_seconds, _ = wav_stats(synth.render_wav(SHORT, tmp_path / "short.wav"))
    assert long_seconds > 2 * short_seconds


def test_render_wav_overwrites_an_existing_file(synth: Synthesiser, tmp_path: Path) -> None:
    target = tmp_path / "phrase.wav"
    synth.render_wav(LONG, target)
    synth.render_wav(SHORT, target)
    _, seconds, _ = wav_stats(target)
    assert seconds < 1.5


def test_render_returns_int16_mono_samples(synth: Synthesiser, tmp_path: Path) -> None:
    samples, rate = synth.render(SHORT)
    file_samples, file_rate = read_pcm16_wav(synth.render_wav(SHORT, tmp_path / "short.wav"))
    assert samples.dtype == np.int16
    assert samples.ndim == 1
    assert rate == file_rate == 22050
    assert abs(samples.size - file_samples.size) < 0.05 * file_samples.size


def test_fifty_renders_in_a_row_stay_whole_and_fast(synth: Synthesiser) -> None:
    lengths: dict[str, list[int]] = {LONG: [], SHORT: []}
    started = time.perf_counter()
    for i in range(50):
        text = LONG if i % 2 else SHORT
        samples, _ = synth.render(text)
        assert samples.any()
        lengths[text].append(samples.size)
    per_render = (time.perf_counter() - started) / 50
    # Each text keeps its own length (within 5%): no truncated, stale or merged renders.
    for sizes in lengths.values():
        assert max(sizes) < 1.05 * min(sizes)
    assert min(lengths[LONG]) > 2 * max(lengths[SHORT])
    assert per_render < 0.5  # measured ~0.012 s


def test_first_render_in_a_fresh_process_waits_for_the_whole_wav(tmp_path: Path) -> None:
    # Bare pyttsx3 2.99 returns from its first runAndWait before espeak-ng writes this WAV.
    target = tmp_path / "first.wav"
    script = (
        "import sys; from pathlib import Path; from voice.speaking.synthesis import Synthesiser; "
        "Synthesiser().render_wav(sys.argv[1], Path(sys.argv[2]))"
    )
    text = "Παπαδόπουλος εκατόν ενενήντα πέντε, για πέντε. " * 10
    subprocess.run([sys.executable, "-c", script, text, str(target)], check=True, cwd=REPO)
    _, seconds, rms = wav_stats(target)
    assert seconds > 15
    assert rms > SILENCE_RMS


def test_punctuation_only_text_raises_speech_error(synth: Synthesiser) -> None:
    with pytest.raises(SpeechError, match="no audible speech"):
        synth.render("...")


def test_blank_text_is_rejected(synth: Synthesiser) -> None:
    with pytest.raises(ValueError, match="empty"):
        synth.render("  ")


def test_missing_directory_is_reported(synth: Synthesiser, tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        synth.render_wav(SHORT, tmp_path / "absent" / "phrase.wav")


def test_read_pcm16_wav_rejects_a_non_wav_file(tmp_path: Path) -> None:
    bogus = tmp_path / "bogus.wav"
    bogus.write_bytes(b"not a wav file at all")
    with pytest.raises(SpeechError, match="not a valid WAV"):
        read_pcm16_wav(bogus)


def test_find_greek_voice_picks_grk_el_from_espeak_voices() -> None:
    voices = pyttsx3.init("espeak").getProperty("voices")
    assert find_greek_voice(voices).id == GREEK_VOICE_ID


def test_find_greek_voice_ignores_lookalikes_and_says_how_to_fix() -> None:
    voices = pyttsx3.init("espeak").getProperty("voices")
    non_greek = [v for v in voices if "el" not in v.languages]
    ids = {v.id for v in non_greek}
    assert {"cel/cy", "grk/grc"} <= ids  # "el" in the id, Ancient Greek: both wrong
    with pytest.raises(SpeechError, match="apt-get install espeak-ng libespeak-ng1"):
        find_greek_voice(non_greek)


def test_find_greek_voice_falls_back_to_language_el() -> None:
    welsh = Voice(id="cel/cy", name="Welsh", languages=["cy"])
    greek = Voice(id="el-variant", name="Greek variant", languages=["el-gr"])
    assert find_greek_voice([welsh, greek]) is greek


@pytest.mark.parametrize(("number", "words"), NUMBER_WORDS.items())
def test_espeak_reads_digits_as_greek_number_words(number: int, words: str) -> None:
    assert sounds(str(number)) == sounds(words)


def test_espeak_reads_digits_as_neuter_even_before_masculine_nouns() -> None:
    assert phonemes("3 πόντοι").startswith(phonemes("τρία"))
    assert not phonemes("3 πόντοι").startswith(phonemes("τρεις"))


@pytest.mark.parametrize(
    ("number", "words", "from_digits", "from_words"),
    [(70, "εβδομήντα", "ebdom", "evDom"), (80, "ογδόντα", "ogd", "oQD")],
)
def test_espeak_number_dictionary_says_stops_where_words_get_fricatives(
    number: int, words: str, from_digits: str, from_words: str
) -> None:
    # Digits give a learned [ebdoˈminda], [oɡˈdonda]; words the spoken [evðoˈmida], [oɣˈðoda].
    assert from_digits in phonemes(str(number))
    assert from_words in phonemes(words)


def test_a_render_that_lost_its_audio_is_retried(
    synth: Synthesiser, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The first pass is made silent, as when pyttsx3 drops espeak-ng's audio; the retry speaks.
    engine = synth.driver.engine
    real = engine.save_to_file
    passes: list[str] = []

    def save_to_file(text: str, filename: str) -> None:
        passes.append(text)
        real("..." if len(passes) == 1 else text, filename)

    monkeypatch.setattr(engine, "save_to_file", save_to_file)
    samples, _ = synth.render(SHORT)
    assert passes == [SHORT, SHORT]
    assert samples.any()


def counted(voice: Synthesiser, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The texts `voice` synthesises from now on (each pass, retries included)."""
    real, texts = voice._synthesise, []

    def synthesise(text: str, path: Path) -> tuple[np.ndarray, int]:
        texts.append(text)
        return real(text, path)

    monkeypatch.setattr(voice, "_synthesise", synthesise)
    return texts


def test_a_text_said_again_comes_from_the_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    voice = Synthesiser(cache=2)
    synthesised = counted(voice, monkeypatch)
    first, rate = voice.render(SHORT)
    again, again_rate = voice.render(SHORT)
    assert synthesised == [SHORT]
    assert again is first and again_rate == rate and first.any()
    assert not again.flags.writeable  # shared, so nobody may change it
    assert (voice.cache_info().hits, voice.cache_info().misses) == (1, 1)


def test_the_cache_keeps_the_texts_said_last(monkeypatch: pytest.MonkeyPatch) -> None:
    voice = Synthesiser(cache=2)
    synthesised = counted(voice, monkeypatch)
    for text in [SHORT, LONG, SHORT, "ντεντάν", LONG]:  # LONG was the least recent: dropped
        voice.render(text)
    assert synthesised == [SHORT, LONG, "ντεντάν", LONG]


def test_a_failed_render_is_not_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    voice = Synthesiser(cache=2)

    def lost(text: str, path: Path) -> tuple[np.ndarray, int]:
        raise SpeechError(f"espeak-ng wrote no audio for {text!r}")

    monkeypatch.setattr(voice, "_synthesise", lost)
    with pytest.raises(SpeechError):
        voice.render(SHORT)
    monkeypatch.undo()
    samples, _ = voice.render(SHORT)
    assert samples.any() and voice.cache_info().misses == 2


def test_a_rate_espeak_did_not_take_is_set_again_and_the_text_said_again(
    synth: Synthesiser, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The race forced: before the first pass espeak-ng's rate is set to pyttsx3's own 200 words
    # per minute behind the synthesiser's back, as when its queued rate is lost.
    from pyttsx3.drivers import _espeak

    right, _ = synth.render(LONG)
    engine = synth.driver.engine
    real = engine.save_to_file
    passes: list[str] = []

    def save_to_file(text: str, filename: str) -> None:
        passes.append(text)
        if len(passes) == 1:
            _espeak.SetParameter(_espeak.RATE, 200, 0)
            _espeak.Synchronize()  # applied before the text, as espeak-ng's queue would
        real(text, filename)

    monkeypatch.setattr(engine, "save_to_file", save_to_file)
    samples, _ = synth.render(LONG)
    assert passes == [LONG, LONG]  # checked, set again, said again
    assert abs(samples.size - right.size) < 0.01 * right.size  # at 175, not 200 (12 % shorter)
    assert synth.driver.settings() == (GREEK_VOICE_ID, 175)



def test_two_synthesisers_each_speak_at_their_own_rate() -> None:
    slow, usual = Synthesiser(cache=0, rate=120), Synthesiser(cache=0)
    for _ in range(2):  # each render finds the other's rate set, and sets its own again
        slow_samples, _ = slow.render(LONG)
        usual_samples, _ = usual.render(LONG)
        assert slow_samples.size / usual_samples.size == pytest.approx(175 / 120, rel=0.08)


def test_a_rate_espeak_cannot_take_is_refused() -> None:
    with pytest.raises(SpeechError, match="1000 words per minute is not 80 to 450"):
        Synthesiser(rate=1000)


def test_a_greek_voice_that_is_not_installed_is_named_with_those_that_are() -> None:
    with pytest.raises(SpeechError, match="no Greek voice 'mb/mb-gr9'; its Greek voices: grk/el"):
        Synthesiser(voice="mb/mb-gr9")
