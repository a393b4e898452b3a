"""Measured recognition of one referee: takes of each phrase run through the live pipeline,
judged against the phrase said; the pauses inside phrases; a profile learned and tested on
takes it was not learned from."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from enum import StrEnum
from pathlib import Path

from rules.normalise import normalise
from voice.audio_signal import from_pcm16_bytes, resample, to_pcm16_bytes
from voice.hearing.audio import CHUNK_MS, TARGET_RATE, chunked, read_wav
from voice.hearing.endpoint import DEFAULT_ENDPOINT_MS, MAX_ENDPOINT_MS, Endpointer
from voice.hearing.listener import Heard, Listener, hear_recording
from voice.hearing.profile import Profile
from voice.hearing.understanding import UNKNOWN
from voice.translation import N_, Line

PAUSE_MARGIN_MS = 50  # the recommended endpoint waits this much longer than the longest pause
THRESHOLDS = tuple(range(50, 100, 5))  # the thresholds a profile may choose among
MIN_HEARD = 2  # takes that must be heard alike before their text becomes an alias


class Outcome(StrEnum):
    """How the pipeline took one take."""

    RIGHT = N_("right")
    WRONG = N_("wrong")  # a command other than the phrase's was acted on
    NOT_UNDERSTOOD = N_("not understood")  # or asked again: no command acted on


@dataclass(frozen=True)
class Take:
    """One recording of a phrase: 16 kHz PCM, and which take of the phrase it is (1, 2 …)."""

    phrase: str
    number: int
    pcm16: bytes
    path: Path | None = None


@dataclass(frozen=True)
class Judged:
    """A take as the pipeline heard it, and what that comes to."""

    take: Take
    heard: tuple[Heard, ...]
    outcome: Outcome
    decode_seconds: float

    @property
    def text(self) -> str:
        """What the model heard, utterance by utterance."""
        return " | ".join(h.text for h in self.heard)

    @property
    def confidence(self) -> float:
        """The lowest confidence of what was acted on (0 when nothing was heard)."""
        return min((h.confidence for h in self.heard), default=0.0)


@dataclass(frozen=True)
class Refused:
    """An alias not learned: the heard text, the phrase, and why."""

    heard: str
    phrase: str
    reason: Line


@dataclass(frozen=True)
class Learned:
    """A profile learned from takes, and the aliases refused."""

    profile: Profile
    refused: tuple[Refused, ...] = field(default=())


def read_takes(folder: Path) -> list[Take]:
    """Every `<folder>/<phrase>/<n>.wav`, at 16 kHz; WavError naming a file it cannot decode."""
    takes = []
    for directory in sorted(p for p in folder.iterdir() if p.is_dir()):
        for number, path in enumerate(sorted(directory.glob("*.wav"), key=_take_order), 1):
            samples, rate = read_wav(path)
            pcm = to_pcm16_bytes(resample(samples, rate, TARGET_RATE))
            takes.append(Take(directory.name, number, pcm, path))
    return takes


def _take_order(path: Path) -> tuple[int, str]:
    """Takes in their numbers' order (`2.wav` before `10.wav`), other names after."""
    return (int(path.stem) if path.stem.isdigit() else 1 << 30), path.stem


def judge(listener: Listener, take: Take) -> Judged:
    """Run `take` through the live pipeline and judge what it acted on against the phrase."""
    started = time.perf_counter()
    samples = from_pcm16_bytes(take.pcm16)
    heard = hear_recording(listener, samples, TARGET_RATE)
    seconds = time.perf_counter() - started
    found = tuple(h for _, h in heard)
    return Judged(take, found, outcome(listener, take.phrase, found), seconds)


def outcome(listener: Listener, phrase: str, heard: Sequence[Heard]) -> Outcome:
    """Right when the phrase's command alone was acted on, once; wrong when another was (a
    phrase with a rival reading is asked again, not acted on)."""
    expected = listener.vocabulary.parse(phrase)
    commands = [h.command for h in heard if h.command is not None and h.rival is None]
    if any(command != expected for command in commands):
        return Outcome.WRONG
    return Outcome.RIGHT if len(heard) == 1 and commands else Outcome.NOT_UNDERSTOOD


def rejudge(listener: Listener, judged: Judged, profile: Profile) -> Judged:
    """`judged` as the listener takes the same heard texts and readings with the profile's
    aliases and threshold (what vosk decodes does not depend on them, so the audio is not
    decoded again)."""
    with _taking(listener, profile):
        heard = []
        for h in judged.heard:
            command, confidence = listener.understand(h.text)
            heard.append(replace(h, command=command, confidence=confidence,
                                 rival=listener.rival(command, h.readings)))
        return replace(judged, heard=tuple(heard),
                       outcome=outcome(listener, judged.take.phrase, heard))


@contextmanager
def _taking(listener: Listener, profile: Profile) -> Iterator[None]:
    """The listener with the profile's aliases and threshold, as it was again afterwards."""
    kept = listener.aliases, listener.threshold
    listener.aliases = dict(profile.aliases)
    listener.threshold = listener.threshold if profile.threshold is None else profile.threshold
    try:
        yield
    finally:
        listener.aliases, listener.threshold = kept


def error_rate(judged: Iterable[Judged]) -> float:
    """The share of takes not taken right (wrong or not understood), 0–1."""
    outcomes = [j.outcome for j in judged]
    return sum(o != Outcome.RIGHT for o in outcomes) / len(outcomes) if outcomes else 0.0


def longest_pause_ms(pcm16: bytes) -> int:
    """The longest pause inside the speech of a take, as the endpointer hears it: 10 ms less
    than the shortest endpoint that keeps the take one utterance."""
    if _utterances(pcm16, 10) <= 1:
        return 0
    low, high = 10, MAX_ENDPOINT_MS  # splits at `low`; at `high` assumed not to
    while high - low > 10:
        middle = (low + high) // 20 * 10
        low, high = (middle, high) if _utterances(pcm16, middle) > 1 else (low, middle)
    return low


def _utterances(pcm16: bytes, endpoint_ms: int) -> int:
    """How many utterances the endpointer finds in `pcm16`, fed as the sound card would."""
    endpointer = Endpointer(endpoint_ms)
    count = 0
    for chunk in chunked(pcm16, CHUNK_MS):
        while (taken := endpointer.feed(chunk)) is not None:
            count += 1
            chunk = chunk[taken:]
    return count + endpointer.speaking


def recommended_endpoint(takes: Iterable[Take]) -> tuple[int, int]:
    """The longest pause inside a multi-word phrase, and the endpoint that waits it out (never
    below the default)."""
    longest = max((longest_pause_ms(t.pcm16) for t in takes if len(t.phrase.split()) > 1),
                  default=0)
    endpoint = max(DEFAULT_ENDPOINT_MS, math.ceil((longest + PAUSE_MARGIN_MS) / 10) * 10)
    return longest, min(endpoint, MAX_ENDPOINT_MS)


def learn(listener: Listener, judged: Sequence[Judged], endpoint_ms: int) -> Learned:
    """A profile from takes judged at `endpoint_ms`: an alias for each heard text a phrase was
    not taken right from, unless it is unsafe (see _unsafe) or sounds like another alias of
    another command; then the threshold that takes the most takes right (wrong ones counting
    double) with those aliases."""
    candidates: dict[str, list[str]] = {}
    for j in judged:
        if j.outcome != Outcome.RIGHT and len(j.heard) == 1:
            candidates.setdefault(normalise(j.heard[0].phrase), []).append(j.take.phrase)
    vocabulary = listener.vocabulary
    aliases: dict[str, str] = {}
    refused = []
    for heard, phrases in sorted(candidates.items()):
        reason = _unsafe(listener, heard, phrases)
        if reason is None:
            aliases[heard] = phrases[0]
        else:
            refused += [Refused(heard, phrase, reason) for phrase in sorted(set(phrases))]
    sounds = {heard: " ".join(map(vocabulary.fold, heard.split())) for heard in aliases}
    for heard, phrase in list(aliases.items()):
        alike = [other for other in aliases if other != heard and sounds[other] == sounds[heard]
                 and vocabulary.parse(aliases[other]) != vocabulary.parse(phrase)]
        if alike:
            refused.append(Refused(heard, phrase, Line(
                N_("it sounds like «{other}», learned for another command"), other=alike[0])))
    aliases = {h: p for h, p in aliases.items() if h not in {r.heard for r in refused}}
    threshold = min((*THRESHOLDS, listener.threshold), key=lambda t: (
        _cost(listener, judged, Profile(aliases, threshold=t)), abs(t - listener.threshold)))
    return Learned(Profile(aliases, endpoint_ms, float(threshold)), tuple(refused))


def _unsafe(listener: Listener, heard: str, phrases: list[str]) -> Line | None:
    """Why an alias from `heard` to `phrases` is not safe to learn (None: it is): heard for
    several commands or only once, nothing but unknown words, another command's phrase, or
    holding a word of another command's phrases that the phrase lacks."""
    vocabulary = listener.vocabulary
    commands = {vocabulary.parse(phrase) for phrase in phrases}
    if len(commands) > 1:
        return Line(N_("heard for {count} different commands"), count=len(commands))
    if not set(heard.split()) - {normalise(UNKNOWN)}:
        return Line(N_("nothing but unknown words: any speech not understood would become this "
                       "command"))
    exact = vocabulary.parse(heard)
    if exact is not None and exact not in commands:
        return Line(N_("it is a phrase of another command ({kind})"), kind=exact.kind)
    own = {vocabulary.fold(w) for p in phrases for w in normalise(p).split()}
    for word in heard.split():
        others = vocabulary.commands_of_word(vocabulary.fold(word))
        if vocabulary.fold(word) not in own and others and not others & commands:
            return Line(N_("«{word}» is a word of another command ({kinds})"), word=word,
                        kinds=tuple(sorted({c.kind for c in others})))
    if len(phrases) < MIN_HEARD:
        return Line(N_("heard only once (an alias needs {count} takes heard alike)"),
                    count=MIN_HEARD)
    return None


def _cost(listener: Listener, judged: Sequence[Judged], profile: Profile) -> int:
    outcomes = [rejudge(listener, j, profile).outcome for j in judged]
    return 2 * outcomes.count(Outcome.WRONG) + outcomes.count(Outcome.NOT_UNDERSTOOD)


@dataclass(frozen=True)
class Report:
    """A calibration: the takes at the settings in force, the pauses, and the profile."""

    before: tuple[Judged, ...]  # each take at the settings in force
    longest_pause_ms: int  # inside a multi-word phrase, over every take
    endpoint_ms: int  # the endpoint recommended
    held_out: tuple[Judged, ...]  # each take judged by a profile learned from the other takes
    learned: Learned  # from every take: the profile to keep


def calibrate(listener_at: Callable[[int], Listener], takes: Sequence[Take],
              endpoint_ms: int) -> Report:
    """Judge `takes` with the listener `listener_at(endpoint_ms)` gives, then learn a profile
    from all but one take number at a time and judge the takes of that number with it (none
    held out when each phrase has one take)."""
    decoded: dict[tuple[int, int], Judged] = {}

    def at(endpoint: int, chosen: Iterable[int]) -> list[Judged]:
        listener = listener_at(endpoint)
        for i in chosen:
            if (endpoint, i) not in decoded:
                decoded[endpoint, i] = judge(listener, takes[i])
        return [decoded[endpoint, i] for i in chosen]

    before = at(endpoint_ms, range(len(takes)))
    held_out: dict[int, Judged] = {}
    numbers = sorted({t.number for t in takes})
    for number in numbers if len(numbers) > 1 else ():
        train = [i for i, t in enumerate(takes) if t.number != number]
        test = [i for i, t in enumerate(takes) if t.number == number]
        _, endpoint = recommended_endpoint(takes[i] for i in train)
        learned = learn(listener_at(endpoint), at(endpoint, train), endpoint)
        held_out.update(zip(test, (rejudge(listener_at(endpoint), j, learned.profile)
                                   for j in at(endpoint, test)), strict=True))
    longest, endpoint = recommended_endpoint(takes)
    learned = learn(listener_at(endpoint), at(endpoint, range(len(takes))), endpoint)
    return Report(tuple(before), longest, endpoint,
                  tuple(held_out[i] for i in sorted(held_out)), learned)

