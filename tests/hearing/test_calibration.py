"""voice/hearing/calibration.py on the Korean model: synthesised takes in several voices and
speeds, hall noise at 20, 10 and 5 dB SNR, judged by the live pipeline; the profile learned."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from rules.command import Command, Kind
from tests.support.korean import make_listener
from tests.support.takes import Voice, referee_takes, said
from voice.audio_signal import to_pcm16_bytes
from voice.hearing import calibration
from voice.hearing.calibration import Judged, Outcome, Take
from voice.hearing.listener import Heard, Listener
from voice.hearing.profile import Profile
from voice.hearing.recognise import LoadedModel


@pytest.fixture(scope="module")
def takes(tmp_path_factory: pytest.TempPathFactory) -> list[Take]:
    return calibration.read_takes(referee_takes(tmp_path_factory.mktemp("takes")))


@pytest.fixture(scope="module")
def report(korean_model: LoadedModel, takes: list[Take]) -> calibration.Report:
    made: dict[int, Listener] = {}

    def at(endpoint_ms: int) -> Listener:
        return made.setdefault(endpoint_ms, make_listener(korean_model, endpoint_ms=endpoint_ms))

    return calibration.calibrate(at, takes, 150)


def test_takes_are_read_per_phrase_in_their_numbers_order(takes: list[Take]) -> None:
    assert [(t.phrase, t.number, t.path.name) for t in takes[:3]] == [
        ("άστοχο", 1, "1.wav"), ("άστοχο", 2, "2.wav"), ("άστοχο", 3, "3.wav")]
    assert len(takes) == 12


def test_a_pause_inside_a_phrase_is_measured_as_the_endpointer_hears_it() -> None:
    quiet = Voice("m3", 175)
    paused = said("엄마 버스", Voice("m3", 175, pause_ms=250), seed=1)
    pcm = to_pcm16_bytes(paused + np.random.default_rng(0).normal(0, 0.0005, len(paused)))
    assert 230 <= calibration.longest_pause_ms(pcm) <= 260
    assert calibration.longest_pause_ms(to_pcm16_bytes(said("엄마 버스", quiet, seed=1))) < 150


def test_every_take_is_judged_against_the_phrase_said(report: calibration.Report) -> None:
    by_take = {(j.take.phrase, j.take.number): j for j in report.before}
    assert by_take["άστοχο", 1].outcome == Outcome.RIGHT
    assert by_take["άστοχο", 1].text == "라디오" and by_take["άστοχο", 1].confidence == 100
    assert all(j.decode_seconds > 0 for j in report.before)
    # At the default 150 ms endpoint the referee's pause splits «πόντος | έξω»: a wrong point.
    split = by_take["πόντος έξω", 1]
    assert [h.command.kind.value for h in split.heard] == ["point", "out"]
    assert split.outcome == Outcome.WRONG
    # His «σκορ» is heard as «σκορ έξω»: two commands as likely, so not understood.
    assert by_take["σκορ", 2].outcome == Outcome.NOT_UNDERSTOOD


def test_the_endpoint_recommended_waits_out_the_longest_pause(report: calibration.Report) -> None:
    assert 200 <= report.longest_pause_ms <= 300  # 250 ms said, in noise
    assert report.endpoint_ms == report.longest_pause_ms + calibration.PAUSE_MARGIN_MS
    assert report.learned.profile.endpoint_ms == report.endpoint_ms


def test_the_profile_lowers_the_error_rate_on_held_out_takes(report: calibration.Report) -> None:
    assert len(report.held_out) == len(report.before)  # every take held out once
    before, after = (calibration.error_rate(j) for j in (report.before, report.held_out))
    assert after < before, (before, after)
    # «σκορ έξω» holds «έξω», a word of other commands: no alias, the threshold does the work.
    assert "σκορ εξω" not in report.learned.profile.aliases
    assert [str(r.reason) for r in report.learned.refused if r.heard == "σκορ εξω"][0] == (
        "«εξω» is a word of another command (out, point out)")


def test_a_take_with_a_rival_reading_is_asked_again_not_acted_on(
    korean_model: LoadedModel,
) -> None:
    listener = make_listener(korean_model)
    sure = Heard("엄마", "πόντος", Command(Kind.POINT), 100.0, early=False)
    wrong = Heard("라디오", "άστοχο", Command(Kind.MISS), 100.0, early=False)
    assert calibration.outcome(listener, "πόντος", (sure,)) == Outcome.RIGHT
    assert calibration.outcome(listener, "πόντος", (wrong,)) == Outcome.WRONG
    for take in (sure, wrong):  # the live loop would ask him again: nothing acted on
        unsure = replace(take, rival="πόντος έξω")
        assert calibration.outcome(listener, "πόντος", (unsure,)) == Outcome.NOT_UNDERSTOOD


@pytest.mark.parametrize("alias", [None, "άστοχο", "πόντος"],
                         ids=["no alias", "another command's", "the same command's"])
def test_a_take_is_rejudged_with_its_readings_understood_as_the_profile_would(
    korean_model: LoadedModel, alias: str | None
) -> None:
    # The take was heard as «πόντος», and as «μπλα» nearly as likely: no phrase without aliases.
    listener = make_listener(korean_model)
    listener.table = None
    take = Take("πόντος", 1, b"")
    first = Heard("πόντος", "πόντος", Command(Kind.POINT), 100.0, early=False,
                  readings=("μπλα",))
    judged = Judged(take, (first,), calibration.outcome(listener, "πόντος", (first,)), 0.1)
    assert judged.outcome == Outcome.RIGHT
    profile = Profile(aliases={} if alias is None else {"μπλα": alias})
    again = calibration.rejudge(listener, judged, profile)
    assert again.heard[0].rival == ("άστοχο" if alias == "άστοχο" else None)
    assert again.outcome == (Outcome.NOT_UNDERSTOOD if alias == "άστοχο" else Outcome.RIGHT)


def heard(text: str, phrase: str) -> Judged:
    """A take of `phrase` the model heard as `text` (Greek: no phrase table)."""
    take = Take(phrase, 1, b"")
    return Judged(take, (Heard(text, text, None, 0.0, early=False),), Outcome.NOT_UNDERSTOOD, 0.1)


def test_an_alias_that_would_make_commands_ambiguous_is_refused(
    korean_model: LoadedModel,
) -> None:
    listener = make_listener(korean_model)
    listener.table = None
    learned = calibration.learn(listener, [
        heard("πόντος βγήκε", "πόντος έξω"), heard("πόντος βγήκε", "πόντος έξω"),  # learned
        heard("άστοχο", "πόντος"),  # already another command's phrase
        heard("καλό", "σκορ"), heard("καλό", "άστοχο"),  # heard for two commands
        heard("[unk]", "διόρθωση"),  # nothing recognisable
        heard("φάουλα", "φάουλ"),  # heard once
        heard("αστοχο διορθωση", "πόντος έξω"), heard("αστοχο διορθωση", "πόντος έξω"),
        heard("μπλα", "σκορ"), heard("μπλα", "σκορ"),  # and «βλα» for another command
        heard("βλα", "στήσιμο"), heard("βλα", "στήσιμο"),
    ], 150)
    assert learned.profile.aliases == {"ποντοσ βγηκε": "πόντος έξω"}
    assert sorted((r.heard, r.phrase, str(r.reason)) for r in learned.refused) == [
        ("unk", "διόρθωση",
         "nothing but unknown words: any speech not understood would become this command"),
        ("αστοχο", "πόντος", "it is a phrase of another command (miss)"),
        ("αστοχο διορθωση", "πόντος έξω", "«αστοχο» is a word of another command (miss)"),
        ("βλα", "στήσιμο", "it sounds like «μπλα», learned for another command"),
        ("καλο", "άστοχο", "heard for 2 different commands"),
        ("καλο", "σκορ", "heard for 2 different commands"),
        ("μπλα", "σκορ", "it sounds like «βλα», learned for another command"),
        ("φαουλα", "φάουλ", "heard only once (an alias needs 2 takes heard alike)"),
    ]
