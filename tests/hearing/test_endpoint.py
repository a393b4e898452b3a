"""Our own endpointer: the voice-activity detector on synthetic audio, then the Listener ending
utterances with it on the real Korean vosk model (espeak-ng speech in white noise)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from rules.command import Command, Kind
from tests.support.korean import make_listener, speech
from voice.audio_signal import resample, to_pcm16_bytes
from voice.hearing.audio import CHUNK_MS, TARGET_RATE
from voice.hearing.endpoint import FIRST_MS, HOLD_DB, MIN_FLOOR_DB, ONSET_DB, Endpointer, Gate
from voice.hearing.listener import Listener, hear_recording
from voice.hearing.recognise import LoadedModel

MS = TARGET_RATE * 2 // 1000  # bytes of 16-bit audio per millisecond


def tone(ms: int, db: float, freq: float = 440.0) -> np.ndarray:
    """A sine of `ms` milliseconds whose RMS level is `db` dBFS."""
    t = np.arange(ms * TARGET_RATE // 1000) / TARGET_RATE
    return np.sqrt(2) * 10 ** (db / 20) * np.sin(2 * np.pi * freq * t)


def noise(ms: int, db: float, seed: int = 0) -> np.ndarray:
    """White noise of `ms` milliseconds at `db` dBFS RMS."""
    return np.random.default_rng(seed).normal(0, 10 ** (db / 20), ms * TARGET_RATE // 1000)


def endpoints(audio: np.ndarray | bytes, size: int = CHUNK_MS * MS, endpoint_ms: int = 150
              ) -> list[int]:
    """Milliseconds into `audio` of each endpoint, fed in `size`-byte chunks as the Listener
    does (what an endpoint leaves of a chunk is fed again)."""
    pcm = audio if isinstance(audio, bytes) else to_pcm16_bytes(audio)
    endpointer, found, at = Endpointer(endpoint_ms), [], 0
    for start in range(0, len(pcm), size):
        chunk = pcm[start : start + size]
        while (end := endpointer.feed(chunk)) is not None:
            at, chunk = at + end, chunk[end:]
            found.append(at / MS)
        at += len(chunk)
    return found


FLOOR = -66.0  # the bench's faint microphone noise, below MIN_FLOOR_DB


def test_an_utterance_ends_endpoint_ms_after_its_last_speech() -> None:
    audio = noise(1000, FLOOR)
    audio[3200:8000] += tone(300, -20)  # 200 to 500 ms
    assert endpoints(audio) == [650]
    assert endpoints(audio, endpoint_ms=100) == [600]
    assert endpoints(noise(1000, FLOOR)) == []  # no speech, no utterance to end


@pytest.mark.parametrize(("gap", "ends"), [(140, [990]), (150, [550, 1000])])
def test_a_pause_shorter_than_endpoint_ms_does_not_split_an_utterance(
    gap: int, ends: list[int]
) -> None:
    audio = np.concatenate([noise(200, FLOOR), tone(200, -20), noise(gap, FLOOR, seed=1),
                            tone(300, -25), noise(600, FLOOR, seed=2)])
    assert endpoints(audio) == ends


@pytest.mark.parametrize("db", [-45.0, -35.0, -25.0])
def test_steady_noise_alone_is_not_speech_at_any_level(db: float) -> None:
    # The floor starts at the first frame, so noise louder than MIN_FLOOR_DB is floor at once
    # (rising from the minimum, it would be speech for seconds, then end as an utterance).
    assert endpoints(noise(10000, db)) == []


def test_speech_is_found_in_steady_noise_and_its_quiet_consonants_hold() -> None:
    # -40 dBFS noise: a vowel at -20, then 200 ms of a nasal at -32 (8 dB above the noise:
    # too quiet to start speech, loud enough to go on with it), then a vowel again.
    assert HOLD_DB < 8 < ONSET_DB
    voiced = np.concatenate([tone(100, -20), tone(200, -32, 220), tone(100, -20)])
    audio = noise(1500, -40)
    audio[8000 : 8000 + len(voiced)] += voiced  # 500 to 900 ms
    assert endpoints(audio) == [1050]
    audio = noise(1500, -40)
    audio[8000:11200] += tone(200, -32, 220)  # the nasal alone is not speech
    assert endpoints(audio) == []


def test_the_floor_follows_louder_noise_slowly() -> None:
    # Two seconds of a steady vowel do not lift the floor into it: one endpoint, at its end.
    audio = noise(3000, FLOOR)
    audio[8000:40000] += tone(2000, -30)
    assert endpoints(audio) == [2650]
    # Noise that gets 25 dB louder is speech at first, until the floor has caught up with it
    # (about 8 s at 3 dB/s); after that, speech in it is found again.
    louder = noise(12000, -35, seed=1)
    louder[160000:164800] += tone(300, -12)  # 10.0 to 10.3 s
    ends = endpoints(np.concatenate([noise(1000, FLOOR), louder, noise(300, -35, seed=2)]))
    assert len(ends) == 2 and 6000 < ends[0] < 10000 and ends[1] == 11450


def test_digital_silence_keeps_the_floor_at_its_minimum() -> None:
    # Without MIN_FLOOR_DB, zeros would take the floor down to -120 dBFS, and this faint hum
    # would be speech.
    quiet = np.zeros(16000)
    assert MIN_FLOOR_DB + ONSET_DB > -52  # the hum is below speech over the minimum floor
    assert endpoints(np.concatenate([quiet, tone(300, -52), quiet])) == []
    assert endpoints(np.concatenate([quiet, tone(300, -40), quiet])) == [1450]


def test_chunk_sizes_do_not_move_the_endpoints() -> None:
    audio = noise(4000, -45)
    for start, ms, db in [(300, 250, -20), (600, 120, -28), (1500, 400, -15), (3000, 90, -25)]:
        audio[start * 16 : (start + ms) * 16] += tone(ms, db)
    pcm = to_pcm16_bytes(audio)
    expected = endpoints(pcm, size=len(pcm))
    assert len(expected) == 3  # 250 ms with a 50 ms pause, then 400 ms, then 90 ms
    for size in [1, 2, 319, 320, 321, 999, 1600, 3200, 4801]:
        assert endpoints(pcm, size=size) == expected, size


def test_restart_forgets_the_speech_but_keeps_the_floor() -> None:
    endpointer = Endpointer(150)
    endpointer.feed(to_pcm16_bytes(np.concatenate([noise(500, -45), tone(300, -20)])))
    floor = endpointer.floor
    endpointer.restart()
    assert endpointer.feed(to_pcm16_bytes(noise(1000, -45, seed=1))) is None
    assert floor is not None and abs(endpointer.floor - floor) < 3


def test_an_endpoint_shorter_than_a_frame_is_refused() -> None:
    with pytest.raises(ValueError, match="endpoint_ms must be at least one 10 ms frame"):
        Endpointer(5)


def gated(gate: Gate, pcm: bytes, size: int = CHUNK_MS * MS) -> list[tuple[int, int, bool]]:
    """What `gate` passes of `pcm` fed in `size`-byte chunks: (ms into `pcm` where the audio
    starts, its ms, whether an utterance ends after it), for each feed that passes audio."""
    passed, fed = [], 0
    for start in range(0, len(pcm), size):
        audio, ends = gate.feed(pcm[start : start + size])
        fed += len(pcm[start : start + size])
        if audio:
            at = pcm.find(audio, max(0, fed - len(audio) - size))
            passed.append((at // MS, len(audio) // MS, ends))
    return passed


def test_the_gate_passes_an_utterance_from_its_preroll_to_its_endpoint() -> None:
    audio = noise(2000, FLOOR)
    audio[16000:20800] += tone(300, -20)  # 1000 to 1300 ms: ends at 1450
    pcm = to_pcm16_bytes(audio)
    # The quiet up to the chunk where speech starts is held back but its last 300 ms; then each
    # chunk passes, up to the endpoint; the rest of that chunk and the quiet after are held.
    assert gated(Gate(150, 300), pcm) == [(700, 400, False), (1100, 100, False),
                                          (1200, 100, False), (1300, 100, False),
                                          (1400, 50, True)]
    assert gated(Gate(150, 50), pcm)[0] == (950, 150, False)
    early = to_pcm16_bytes(np.concatenate([noise(600, FLOOR), tone(100, -20), noise(500, FLOOR)]))
    assert gated(Gate(150, 300), early)[0] == (0, 700, False)  # within FIRST_MS: all of it
    # No pre-roll: everything passes, cut at the endpoint (the rest of its chunk comes next).
    assert gated(Gate(150, None), pcm) == [
        *[(t, 100, False) for t in range(0, 1400, 100)], (1400, 50, True), (1450, 150, False),
        *[(t, 100, False) for t in range(1600, 2000, 100)]]


def test_the_gate_passes_nothing_of_quiet_and_drop_forgets_what_it_held() -> None:
    gate = Gate(150, 300)
    assert gated(gate, to_pcm16_bytes(noise(3000, -45))) == []
    assert gate.finish() == b""
    speech = to_pcm16_bytes(np.concatenate([noise(500, FLOOR), tone(100, -20)]))
    gate.feed(speech[: 500 * MS])
    gate.drop()
    assert gate.feed(speech[500 * MS :]) == (speech[500 * MS :], False)  # no pre-roll left
    assert gate.finish() == b""  # the utterance was ended: nothing is left of it


def test_the_gate_says_how_much_quiet_came_before_an_utterance_within_its_preroll() -> None:
    # An utterance after 1 s of quiet, then one 200 ms after its endpoint (350 ms after it):
    # the quiet before the chunk it starts in, 150 ms, is held before it.
    audio = noise(2000, FLOOR)
    audio[16000:19200] += tone(200, -20)  # 1000 to 1200 ms: ends at 1350
    audio[24800:27200] += tone(150, -20)  # 1550 to 1700 ms
    gate, leads = Gate(150, 300), []
    pcm = to_pcm16_bytes(audio)
    for start in range(0, len(pcm), CHUNK_MS * MS):
        if gate.feed(pcm[start : start + CHUNK_MS * MS])[1]:
            leads.append(gate.lead_in // MS)
    assert leads == [300, 150]


def test_finish_passes_the_utterance_in_progress() -> None:
    # One chunk: an utterance, its endpoint at 450 ms, and the start of the next one, which
    # waits for the next feed; finish() passes it instead.
    pcm = to_pcm16_bytes(np.concatenate([noise(200, FLOOR), tone(100, -20),
                                         noise(150, FLOOR, seed=1), tone(40, -20)]))
    gate = Gate(150, 300)
    assert gate.feed(pcm) == (pcm[: 450 * MS], True)
    assert gate.finish() == pcm[450 * MS :]
    assert gate.finish() == b""


# The Listener on the real Korean model: «엄마» = «πόντος», «버스» = «έξω», «라디오» = «άστοχο».

LEAD_MS, TAIL_MS = 500, 1500


def clip(text: str, folder: Path, db: float = FLOOR, lead_ms: int = LEAD_MS
         ) -> tuple[np.ndarray, float]:
    """espeak-ng saying `text` at 16 kHz between `lead_ms` and TAIL_MS of white noise at `db`
    dBFS, and the seconds into it of its last speech sample."""
    said = resample(speech(text, folder), 22050, TARGET_RATE)
    loud = np.flatnonzero(np.abs(said) > 0.01)
    said = said[loud[0] : loud[-1] + 1]
    audio = np.concatenate([np.zeros(lead_ms * 16), said, np.zeros(TAIL_MS * 16)])
    audio += np.random.default_rng(0).normal(0, 10 ** (db / 20), len(audio))
    return audio, lead_ms / 1000 + len(said) / TARGET_RATE


def heard(model: LoadedModel, audio: np.ndarray, end: float, **options) -> list[tuple]:
    """(ms of audio after the end of speech, text, command, early, replaces) of each phrase
    acted on, fed in the live loop's 100 ms chunks."""
    found = hear_recording(make_listener(model, **options), audio, TARGET_RATE)
    return [(1000 * (at - end), h.text, h.command, h.early, h.replaces) for at, h in found]


@pytest.mark.parametrize("db", [FLOOR, -45.0])
def test_the_listener_ends_an_utterance_long_before_vosk_would(
    korean_model: LoadedModel, tmp_path: Path, db: float
) -> None:
    # «πόντος» cannot be committed early in libre («πόντος έξω» may follow): it waits for an
    # endpoint. In -45 dBFS noise (about 25 dB below the speech) as in the faint floor.
    audio, end = clip("엄마", tmp_path, db)
    [(after, *rest)] = heard(korean_model, audio, end, endpoint_ms=150)
    assert rest == ["엄마", Command(Kind.POINT), False, None]
    assert after < 150 + 200  # and nothing more in the 1.5 s of noise after it
    [(after_vosk, *rest_vosk)] = heard(korean_model, audio, end, endpoint_ms=None)
    assert rest_vosk == rest and after_vosk > 500  # vosk's own endpoint


@pytest.mark.parametrize("text", ["엄마", "엄마 버스"])
def test_a_recording_that_starts_with_speech_is_heard_whole(
    korean_model: LoadedModel, tmp_path: Path, text: str
) -> None:
    # The first frame is speech, so the noise floor starts there and the gate opens only once
    # the floor has dropped, late in «엄마»: a 50 ms pre-roll alone would lose the word (heard
    # as nothing, or «버스» alone); the gate keeps all of the first second until speech.
    audio, end = clip(text, tmp_path, lead_ms=0)
    [(after, said, *_)] = heard(korean_model, audio, end, preroll_ms=50)
    assert said == text and after < 350


@pytest.mark.parametrize("db", [FLOOR, -35.0])
def test_a_two_word_phrase_is_not_split(
    korean_model: LoadedModel, tmp_path: Path, db: float
) -> None:
    # espeak-ng leaves about 40 ms between «엄마» and «버스»; in noise 15 dB below the speech
    # the quiet nasal of «엄마» still holds the utterance open.
    audio, end = clip("엄마 버스", tmp_path, db)
    [(after, *rest)] = heard(korean_model, audio, end)
    assert rest == ["엄마 버스", Command(Kind.POINT_OUT), False, None] and after < 350


def test_early_commits_work_alongside_the_endpointer(
    korean_model: LoadedModel, tmp_path: Path
) -> None:
    # «άστοχο» is complete: committed on a partial before «έξω», then replaced at our endpoint.
    audio, end = clip("라디오 버스", tmp_path)
    found = heard(korean_model, audio, end, early=True)
    assert [rest for _, *rest in found] == [
        ["라디오", Command(Kind.MISS), True, None],
        ["라디오 버스", None, False, Command(Kind.MISS)]]
    assert found[0][0] < 0 < found[1][0] < 350


class Watched:
    """The real recogniser, noting the audio fed to it and the utterances the listener ends."""

    def __init__(self, listener: Listener) -> None:
        self.inner, self.fed, self.count = listener.recogniser, [], 0
        self.partials: list[bool] = []  # whether each feed asked vosk for partial results
        listener.recogniser = self

    def __getattr__(self, name: str) -> object:
        return getattr(self.inner, name)

    def feed(self, pcm16: bytes, *, partials: bool = True) -> object:
        self.fed.append(pcm16)
        self.partials.append(partials)
        return self.inner.feed(pcm16, partials=partials)

    def finish(self) -> str:
        self.fed.append("finish")
        self.count += 1
        return self.inner.finish()


def two_phrases(tmp_path: Path) -> tuple[bytes, list[float]]:
    """«라디오», then «엄마» 300 ms after its speech; the ms into it where each speech starts."""
    first, end = clip("라디오", tmp_path)
    second, _ = clip("엄마", tmp_path)
    cut = int((end + 0.3) * TARGET_RATE)
    return to_pcm16_bytes(np.concatenate([first[:cut], second])), [LEAD_MS, cut / 16 + LEAD_MS]


def decoded(listener: Listener, pcm: bytes) -> list[bytes]:
    """The audio vosk decoded for each utterance the listener ended, then after the last one;
    fed in 100 ms chunks (so each endpoint falls inside a chunk, whose rest starts the next
    utterance)."""
    vosk = Watched(listener)
    heard = [listener.feed(pcm[i : i + CHUNK_MS * MS]) for i in range(0, len(pcm), CHUNK_MS * MS)]
    assert [h.text for h in heard if h] == ["라디오", "엄마"]
    utterances = [b""]
    for fed in vosk.fed:
        if fed == "finish":
            utterances.append(b"")
        else:
            utterances[-1] += fed
    return utterances


def test_vosk_decodes_each_utterance_once_from_its_preroll_to_its_endpoint(
    korean_model: LoadedModel, tmp_path: Path
) -> None:
    # The quiet before each pre-roll, and after the last utterance, is never decoded.
    pcm, starts = two_phrases(tmp_path)
    *heard, after = decoded(make_listener(korean_model, preroll_ms=300), pcm)
    assert after == b""
    assert starts[0] < FIRST_MS < starts[1]  # the first second is all kept
    for audio, start, end in zip(heard, starts, endpoints(pcm), strict=True):
        at = pcm.find(audio) / MS
        assert at + len(audio) / MS == end
        if start < FIRST_MS:
            assert at == 0
        else:
            assert start - 300 - CHUNK_MS <= at <= start - 300  # whole chunks are held back
    assert sum(map(len, heard)) < len(pcm) * 0.6


def test_without_a_preroll_vosk_gets_all_the_audio_once_cut_at_the_endpoints(
    korean_model: LoadedModel, tmp_path: Path
) -> None:
    pcm, _ = two_phrases(tmp_path)
    heard = decoded(make_listener(korean_model, preroll_ms=None), pcm)
    assert b"".join(heard) == pcm
    assert [len(b"".join(heard[: i + 1])) / MS for i in range(len(heard) - 1)] == endpoints(pcm)


def test_partial_results_are_asked_for_only_while_an_early_commit_can_come(
    korean_model: LoadedModel, tmp_path: Path
) -> None:
    audio, _ = clip("라디오 버스", tmp_path)
    pcm = to_pcm16_bytes(audio)
    chunks = [pcm[i : i + CHUNK_MS * MS] for i in range(0, len(pcm), CHUNK_MS * MS)]
    late = make_listener(korean_model)
    asked = Watched(late).partials
    assert [h.text for h in map(late.feed, chunks) if h] == ["라디오 버스"]
    assert asked and not any(asked)
    early = make_listener(korean_model, early=True)
    asked = Watched(early).partials
    heard, fed = [], []  # what each chunk brought; how many feeds vosk had had after it
    for chunk in chunks * 2:  # the phrase twice
        heard.append(early.feed(chunk))
        fed.append(len(asked))
    commits = [i for i, h in enumerate(heard) if h and h.early]
    finals = [i for i, h in enumerate(heard) if h and not h.early]
    assert len(commits) == len(finals) == 2
    # until the commit, not from it to the end of the utterance, again for the next one
    for start, commit, final in zip([0, finals[0]], commits, finals, strict=True):
        assert fed[start] < fed[commit] < fed[final]
        assert all(asked[fed[start] : fed[commit]])
        assert not any(asked[fed[commit] : fed[final]])
    assert len(asked) == fed[finals[1]]  # the quiet after the phrase is not decoded


@pytest.mark.parametrize("end", ["finish", "reset"])
def test_an_utterance_ended_otherwise_is_not_ended_again(
    korean_model: LoadedModel, tmp_path: Path, end: str
) -> None:
    # The speech stops 50 ms before the recording does: finish() (or reset()) ends the
    # utterance, so the quiet that follows ends none. (Only the count is asserted after reset:
    # vosk's Reset keeps the audio its decoder lags behind, and hears «라디오» from it.)
    audio, stop = clip("라디오", tmp_path)
    pcm = to_pcm16_bytes(audio[: int((stop + 0.05) * TARGET_RATE)])
    listener = make_listener(korean_model)
    counter = Watched(listener)
    for start in range(0, len(pcm), CHUNK_MS * MS):
        assert listener.feed(pcm[start : start + CHUNK_MS * MS]) is None
    if end == "finish":
        assert listener.finish().command == Command(Kind.MISS)
    else:
        listener.reset()
    before = counter.count
    quiet = to_pcm16_bytes(noise(1000, FLOOR, seed=3))
    after = [listener.feed(quiet[start : start + CHUNK_MS * MS])
             for start in range(0, len(quiet), CHUNK_MS * MS)]
    assert counter.count == before
    assert end == "reset" or after == [None] * len(after)
