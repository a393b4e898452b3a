"""The double-talk check: a phrase no louder than the echo the PA's sound predicts is not taken
for the referee's; one clearly louder is."""

import numpy as np

from voice.hearing.audio import TARGET_RATE
from voice.hearing.echo_level import EchoLevel

CHUNK = TARGET_RATE // 10  # 100 ms, as the sound card hands them over
DELAY = TARGET_RATE * 60 // 1000  # the PA's sound reaches the microphone 60 ms late


def pcm(signal: np.ndarray) -> np.ndarray:
    return (np.clip(signal, -1, 1) * 32767).astype(np.int16)


def fed(mic: np.ndarray, far: np.ndarray) -> EchoLevel:
    """An EchoLevel that has heard `mic` while the PA played `far` (float, 16 kHz)."""
    level = EchoLevel()
    for start in range(0, len(mic), CHUNK):
        level.note(pcm(mic[start : start + CHUNK]), pcm(far[start : start + CHUNK]))
    return level


def hall(seconds: float, echo_db: float, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """The PA playing noise-like speech for `seconds`, heard `echo_db` against what it played,
    60 ms late, over the microphone's own noise."""
    rng = np.random.default_rng(seed)
    count = int(seconds * TARGET_RATE)
    far = rng.normal(0, 0.1, count) * (1 + np.sin(np.arange(count) / 800))  # syllables
    mic = rng.normal(0, 0.0005, count)
    mic[DELAY:] += far[:-DELAY] * 10 ** (echo_db / 20)
    return mic, far


def test_the_echos_own_sound_is_not_taken_for_the_referee():
    mic, far = hall(4.0, -6)
    level = fed(mic, far)
    assert level.gain is not None and abs(10 * np.log10(level.gain) + 6) < 1  # learnt: −6 dB
    assert level.masks(0.8)  # the last 0.8 s: the echo alone


def test_the_referee_over_an_announcement_is_taken_when_clearly_louder():
    mic, far = hall(4.0, -6)
    voice = np.random.default_rng(1).normal(0, 0.3, TARGET_RATE)  # 1 s, ~13 dB over the echo
    mic[-TARGET_RATE:] += voice
    assert not fed(mic, far).masks(1.0)
    mic, far = hall(4.0, -6)
    mic[-TARGET_RATE:] += voice / 4  # ~1 dB over the echo: maybe the echo, asked again
    assert fed(mic, far).masks(1.0)


def test_only_a_phrase_well_above_the_echo_is_clear_of_it():
    mic, far = hall(4.0, -6)
    assert not EchoLevel().clear_of_echo(1.0)  # nothing heard yet: the echo is not known
    voice = np.random.default_rng(1).normal(0, 0.3, TARGET_RATE)
    levels = []
    for share in (1, 2):  # ~9.5 and ~4.4 dB over the echo, his voice and the echo together
        mixed = mic.copy()
        mixed[-TARGET_RATE:] += voice / share
        level = fed(mixed, far)
        levels.append((level.masks(1.0), level.clear_of_echo(1.0)))
    assert levels == [(False, True), (False, False)]  # louder than the echo both, clear once


def test_a_words_voice_over_the_echo_is_counted_in_frames_clear_of_it():
    mic, far = hall(4.0, -6)
    voice = np.random.default_rng(1).normal(0, 0.3, TARGET_RATE // 5)  # 200 ms of his voice
    mic[-TARGET_RATE - len(voice) : -TARGET_RATE] += voice  # ended 1 s ago
    level = fed(mic, far)
    assert level.voiced(0.5, skip=0.8) == level.voiced(0.2, skip=1.0) == 20  # around it, on it
    assert level.voiced(0.5, skip=0.2) == 0  # the echo alone, after it
    assert level.voiced(0.3, skip=1.15) == 5  # a word ending 50 ms into it
    assert EchoLevel().voiced(0.5, skip=0.0) == 0  # the echo not known yet


def test_after_the_echo_has_died_away_or_before_the_pa_played_nothing_is_masked():
    mic, far = hall(3.0, -6)
    quiet = np.random.default_rng(2).normal(0, 0.0005, 2 * TARGET_RATE)
    voice = np.random.default_rng(3).normal(0, 0.02, TARGET_RATE // 2)  # a soft phrase
    mic = np.concatenate([mic, quiet, voice])
    far = np.concatenate([far, np.zeros(len(quiet) + len(voice))])
    assert not fed(mic, far).masks(0.5)  # 2 s after the PA stopped
    silent = np.zeros(len(voice))
    assert fed(voice, silent).gain is None and not fed(voice, silent).masks(0.5)


def test_the_referee_over_the_first_announcement_is_taken_when_one_block_was_free_of_him():
    mic, far = hall(1.5, -13)  # the session's first announcement: three blocks measured
    voice = np.random.default_rng(4).normal(0, 0.1, TARGET_RATE)  # over its last second
    mic[-TARGET_RATE:] += voice
    level = fed(mic, far)
    assert abs(10 * np.log10(level.gain or 1) + 13) < 1  # the free block's gain, not his voice's
    assert not level.masks(1.0)


def test_a_known_echo_lets_the_referee_over_the_sessions_first_announcement_be_taken():
    mic, far = hall(1.5, -13)  # the session's first announcement, his voice over all of it
    mic += np.random.default_rng(6).normal(0, 0.1, len(mic))  # ~11 dB over its echo
    assert fed(mic, far).masks(1.5)  # every block measured holds his voice: asked again
    known = EchoLevel(10 ** (-13 / 10))  # as an earlier session with these devices measured it
    for start in range(0, len(mic), CHUNK):
        known.note(pcm(mic[start : start + CHUNK]), pcm(far[start : start + CHUNK]))
    assert not known.masks(1.5)


def test_only_a_gain_measured_over_enough_blocks_is_learned_for_the_next_session():
    level = fed(*hall(2.0, -13))  # four blocks
    assert level.gain is not None and level.learned is None
    level = EchoLevel(10 ** (-3 / 10))  # a known gain is not counted as measured
    mic, far = hall(4.5, -13)
    for start in range(0, len(mic), CHUNK):
        level.note(pcm(mic[start : start + CHUNK]), pcm(far[start : start + CHUNK]))
    assert level.measured == 9 and abs(10 * np.log10(level.learned or 1) + 13) < 1


def test_once_the_echos_delay_is_measured_a_soft_phrase_right_after_the_pa_is_taken():
    # Until its delay is known the echo is looked for anywhere in the 250 ms before, so it is
    # taken to last that long at full strength after the PA stops.
    mic, far = hall(4.0, -6)
    after = np.random.default_rng(2).normal(0, 0.0005, TARGET_RATE * 85 // 100)
    voice = np.random.default_rng(3).normal(0, 0.035, TARGET_RATE * 6 // 10)  # ~5 dB under it
    after[TARGET_RATE * 15 // 100 : TARGET_RATE * 75 // 100] += voice  # 0.15 s after the PA
    level = fed(np.concatenate([mic, after]), np.concatenate([far, np.zeros(len(after))]))
    assert level.delay == DELAY // (TARGET_RATE // 100)  # 60 ms, in 10 ms frames
    assert not level.masks(0.7)
    assert fed(mic, far).masks(0.7)  # the echo's own sound, just before, still is its echo


def test_the_echos_delay_is_not_guessed_from_too_little():
    assert fed(*hall(2.0, -6)).delay is None  # four blocks measured
    level = fed(*hall(4.5, -6))
    assert level.delay == DELAY // (TARGET_RATE // 100)
    assert fed(np.zeros(5 * TARGET_RATE), np.zeros(5 * TARGET_RATE)).delay is None  # no PA


def test_a_phrase_far_quieter_than_the_referees_phrases_so_far_is_not_his_voice():
    rng = np.random.default_rng(7)
    voice = rng.normal(0, 0.3, TARGET_RATE // 2)  # his phrase, 0.5 s
    level = fed(voice, np.zeros(len(voice)))
    assert not level.under_voice(0.5)  # his voice not noted yet: nothing is judged by it
    level.note_referee(0.5)
    for under_db, under in ((10, False), (20, True)):
        residue = voice * 10 ** (-under_db / 20)
        level.note(pcm(residue), pcm(np.zeros(len(residue))))
        assert level.under_voice(0.5) is under


def test_a_phrase_after_the_pa_stopped_is_judged_against_the_echo_just_before_it():
    # 1 s of his voice once the PA has stopped (it gave way to him): louder than what is left of
    # the echo there; clear of the echo of the 1 s before it only when 6 dB above it.
    mic, far = hall(4.0, -6)
    rng = np.random.default_rng(2)
    far = np.concatenate([far, np.zeros(TARGET_RATE)])
    for voice_db, clear in ((-6, False), (3, False), (8, True)):  # −4, +5 and +10 dB over it
        voice = rng.normal(0, 0.12 * 10 ** (voice_db / 20), TARGET_RATE)
        level = fed(np.concatenate([mic, voice]), far)
        assert not level.masks(1.0)
        assert level.clear_of_echo_before(1.0, 1.0) == clear
    assert EchoLevel().clear_of_echo_before(1.0, 1.0)  # nothing heard yet: no echo known
