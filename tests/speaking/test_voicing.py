"""A whole match's announcements as the outputs play them: one loudness, no clipping at 48 kHz,
a pause between surname and number, a chime before what is not routine."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyloudnorm
import pytest

from phrases.render import Utterance
from rules.state import Setup, new_match
from voice.audio_signal import resample
from voice.live.transcript import transcript_phrases
from voice.session import Session
from voice.speaking.chime import NOTES_HZ
from voice.speaking.loudness import true_peak
from voice.speaking.synthesis import Synthesiser
from voice.speaking.voicing import Voicing, VoicingError, kept_size

HALL = 48000  # a PA device's usual rate
SETUP = Setup("cadre-47-2", 12, ("ΠΑΠΑΔΟΠΟΥΛΟΣ", "Jaspers"),
              spoken=("Παπαδόπουλος", "Γιάσπερς"))
SCRIPT = list(transcript_phrases(
    (Path(__file__).parents[2] / "tests" / "data" / "cadre_match.txt")
    .read_text(encoding="utf-8").splitlines()
))


@pytest.fixture(scope="module")
def match_said() -> list[Utterance]:
    session = Session(new_match(SETUP))
    said = [u for text in SCRIPT for u in session.hear(text)]
    assert {"extension", "break_start", "winner", "for_five", "a_cheval"} <= {u.code for u in said}
    return said


@pytest.fixture(scope="module")
def speech() -> Synthesiser:
    return Synthesiser()


def test_every_announcement_of_a_match_is_at_one_loudness_and_never_clips(
    match_said: list[Utterance], speech: Synthesiser
) -> None:
    voicing, meter = Voicing(speech), pyloudnorm.Meter(HALL)
    levels = []
    for utterance in match_said:
        audio = voicing.audio(utterance, HALL)
        levels.append(meter.integrated_loudness(audio.astype(np.float64)))
        assert np.abs(audio).max() < 1.0, utterance.text
        assert true_peak(audio, HALL) <= -1.0 + 0.01, utterance.text
    assert max(levels) - min(levels) <= 1.0
    assert all(-24 <= level <= -22 for level in levels)


def test_a_name_whose_peaks_meet_the_ceiling_is_as_loud_as_the_rest(speech: Synthesiser) -> None:
    # «Μπλόμνταλ»'s plosives peak first: by gain alone it came out 1.6 to 2.2 LU under.
    session = Session(new_match(Setup("libre", 20, ("Μπλόμνταλ", "Ζα"))))
    said = [u for text in ["πόντος", "πόντος", "άστοχο", "πόντος"] for u in session.hear(text)]
    voicing, meter = Voicing(speech), pyloudnorm.Meter(HALL)
    levels = [meter.integrated_loudness(voicing.audio(u, HALL).astype(np.float64)) for u in said
              if u.channel == "pa"]
    assert len(levels) >= 2 and max(levels) - min(levels) <= 1.0
    assert all(abs(level + 23) <= 0.6 for level in levels)


def test_the_raw_speech_of_the_same_match_is_uneven_and_clips_at_48_khz(
    match_said: list[Utterance], speech: Synthesiser
) -> None:
    # What the even PA mends: espeak-ng's own levels, resampled as the device would play them.
    meter, levels, clipped = pyloudnorm.Meter(HALL), [], 0
    for utterance in match_said:
        samples, rate = speech.render(utterance.text)
        audio = resample(samples / 32768.0, rate, HALL)
        levels.append(meter.integrated_loudness(audio.astype(np.float64)))
        clipped += bool(np.abs(audio).max() >= 1.0)
    assert max(levels) - min(levels) > 2.0 and clipped


def score(pieces: tuple[str, ...], chime: bool = False) -> Utterance:
    return Utterance("score", "pa", " ".join(pieces), " ".join(pieces), None, None, pieces, chime)


def silences(audio: np.ndarray, rate: int) -> list[float]:
    """The lengths in seconds of the quiet stretches (10 ms frames 50 dB below the peak)."""
    frame = rate // 100
    energy = np.sqrt(np.mean(audio[: len(audio) // frame * frame].reshape(-1, frame) ** 2, 1))
    quiet = energy < np.abs(audio).max() * 10 ** (-50 / 20)
    runs, count = [], 0
    for still in quiet:
        count = count + 1 if still else 0
        if count == 1:
            runs.append(0)
        if still:
            runs[-1] += 1
    return [n / 100 for n in runs]


def test_surname_and_number_are_parted_by_the_pause(speech: Synthesiser) -> None:
    pieces = ("Γιάσπερς", "είκοσι ένα")
    parted = Voicing(speech, pause_ms=250, cache=0).audio(score(pieces), HALL)
    together = Voicing(speech, cache=0).audio(score((" ".join(pieces),)), HALL)
    # Before espeak-ng's 300 ms of silence at the end: a gap of the pause's length, or none.
    assert max(silences(parted[: -int(0.3 * HALL)], HALL)) >= 0.24
    assert max(silences(together[: -int(0.3 * HALL)], HALL), default=0) < 0.1


def test_the_pause_is_as_long_as_asked(speech: Synthesiser) -> None:
    pieces = ("Γιάσπερς", "είκοσι ένα")
    short = Voicing(speech, pause_ms=100, cache=0).audio(score(pieces), HALL)
    long = Voicing(speech, pause_ms=400, cache=0).audio(score(pieces), HALL)
    assert (len(long) - len(short)) / HALL == pytest.approx(0.3, abs=0.002)


def peak_hz(audio: np.ndarray, rate: int) -> float:
    spectrum = np.abs(np.fft.rfft(audio * np.hanning(len(audio))))
    return float(np.fft.rfftfreq(len(audio), 1 / rate)[np.argmax(spectrum)])


def test_a_non_routine_announcement_opens_with_the_chime_when_it_is_on(
    speech: Synthesiser,
) -> None:
    winner = score(("νικητής: Γιάσπερς",), chime=True)
    chimed = Voicing(speech).audio(winner, HALL)
    plain = Voicing(speech, chime=False).audio(winner, HALL)
    routine = Voicing(speech).audio(score(("νικητής: Γιάσπερς",)), HALL)
    assert len(plain) == len(routine) < len(chimed) - HALL // 2
    opening = chimed[: int(0.2 * HALL)]
    assert peak_hz(opening, HALL) == pytest.approx(NOTES_HZ[0], abs=10)


def test_announcements_are_kept_ready_to_play(speech: Synthesiser) -> None:
    voicing = Voicing(speech)
    first = voicing.audio(score(("Γιάσπερς", "δύο")), HALL)
    assert voicing.audio(score(("Γιάσπερς", "δύο")), HALL) is first
    assert not first.flags.writeable
    assert len(voicing.audio(score(("Γιάσπερς", "δύο")), 44100)) < len(first)


@pytest.mark.parametrize(
    "setting,fault",
    [({"pause_ms": -1}, "the pause must be 0 to 2000 ms, not -1"),
     ({"target": -5.0}, "the loudness target must be -40 to -10 LUFS, not -5.0"),
     ({"ceiling": 1.0}, "the true-peak ceiling must be above the target and at most 0 dBTP")],
)
def test_a_setting_the_pa_cannot_use_is_refused_naming_it(
    speech: Synthesiser, setting: dict[str, float], fault: str
) -> None:
    with pytest.raises(VoicingError, match=fault):
        Voicing(speech, **setting)


def test_a_match_s_scores_are_not_kept_and_what_repeats_fits_in_the_cache(
    match_said: list[Utterance], speech: Synthesiser
) -> None:
    voicing = Voicing(speech)
    for utterance in match_said:
        voicing.audio(utterance, HALL)
    info = voicing.cache_info()
    repeating = {(u.spoken_pieces(), u.chime) for u in match_said if u.points is None}
    assert any(u.points is not None for u in match_said)  # scores were said …
    assert info.currsize == len(repeating) <= info.maxsize == kept_size()  # … and not kept
    assert info.hits == sum(u.points is None for u in match_said) - len(repeating)
