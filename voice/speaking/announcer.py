"""The announcer: one thread per output, each speaking its utterances in order, alerts first
(cutting a routine utterance short), each play watched against its deadline."""

from __future__ import annotations

import math
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Protocol

import numpy as np

from phrases.bank import Channel
from phrases.render import Utterance
from voice.translation import N_, Line

PA_KEPT = 16  # how many of the latest PA utterances are kept for the echo guard
FAILURES_KEPT = 32  # how many of the latest failures are kept for the log and the tests
DEADLINE_SLACK = 2.0  # seconds: a play not over this long after its length marks its output lost
# Each output, as a person reads its name (in device errors and the live loop's log).
OUTPUTS = {Channel.PA: N_("the PA"), Channel.HEADSET: N_("the headset")}


class Output(Protocol):
    """Somewhere speech can be played: the hall's PA or the referee's headset."""

    @property
    def rate(self) -> int:
        """The sample rate it plays at."""

    def play(self, samples: np.ndarray, rate: int, cut: threading.Event | None = None) -> None:
        """Play the samples, returning when they have been played, or soon after `cut` is set
        (the rest unheard)."""


class Voice(Protocol):
    """Utterance → samples at an output's rate, e.g. voice.speaking.voicing.Voicing."""

    def audio(self, utterance: Utterance, rate: int) -> np.ndarray:
        """The utterance's audio at `rate` samples per second."""


class Speaker(Protocol):
    """What voices utterances: the live `Announcer`, or a printer of text lines."""

    def say(
        self, utterances: list[Utterance], done: Callable[[], None] | None = None,
        alert: bool = False,
    ) -> None:
        """Voice `utterances`, ahead of routine ones when `alert`; `done` runs once they all
        have been."""

    def close(self) -> None:
        """Finish what is queued."""


@dataclass(frozen=True)
class Played:
    """One utterance on the PA, from `started` to `ended` (time.monotonic(); infinite while it
    plays): what the echo guard compares the referee's phrases with."""

    text: str
    started: float
    ended: float


@dataclass
class _Batch:
    """Utterances queued together; `done` runs once each output has played its part of them."""

    done: Callable[[], None] | None
    parts: int
    spoken: bool = True
    lock: threading.Lock = field(default_factory=threading.Lock)

    def finished(self, spoken: bool) -> None:
        with self.lock:
            self.parts -= 1
            self.spoken = self.spoken and spoken
            last = self.parts == 0
        if last and self.spoken and self.done is not None:
            self.done()


@dataclass
class _Part:
    """One batch's utterances for one output."""

    batch: _Batch
    utterances: list[Utterance]
    alert: bool
    cut: threading.Event = field(default_factory=threading.Event)  # set: cut short ...
    gave_way: bool = False  # ... for the referee speaking over it, not for an alert


class Announcer:
    """Speaks queued utterances, each on its channel's output: every output has its own thread,
    so a slow or hung one never holds up the other. On each output, alerts go before routine
    utterances, and an alert cuts short the routine one playing (the rest of its batch is not
    said, its `done` never runs: `interrupted()` tells), and so does the referee speaking over
    it (`give_way`); none is cut or reordered otherwise. An output whose play fails or overruns
    its deadline is `lost()` until a play on it succeeds."""

    def __init__(self, voice: Voice, outputs: Mapping[str, Output]) -> None:
        self._voice = voice
        self.failures: deque[str] = deque(maxlen=FAILURES_KEPT)
        self.on_pa: deque[Played] = deque(maxlen=PA_KEPT)  # the latest PA utterances, in order
        self._lanes = {channel: _Lane(self, channel, output) for channel, output in outputs.items()}

    def say(
        self, utterances: list[Utterance], done: Callable[[], None] | None = None,
        alert: bool = False,
    ) -> None:
        """Queue utterances (never blocks), ahead of routine ones when `alert`; `done` runs once
        every one of them has been played."""
        channels = list(dict.fromkeys(u.channel for u in utterances))
        batch = _Batch(done, len(channels))
        if not channels and done is not None:
            done()
        for channel in channels:
            part = _Part(batch, [u for u in utterances if u.channel == channel], alert)
            lane = self._lanes.get(channel)
            if lane is None:
                self._failed(part.utterances[0], Line(N_("no device is given for it")))
                batch.finished(False)
            else:
                lane.put(part)

    def backlog(self) -> int:
        """The most routine batches waiting on any one output."""
        return max((lane.routine() for lane in self._lanes.values()), default=0)

    def drop_routine(self, channel: str | None = None) -> None:
        """Drop every routine utterance still waiting, on `channel` or on every output (their
        batches' `done` never runs)."""
        for name, lane in self._lanes.items():
            if channel in (None, name):
                lane.drop_routine()

    def give_way(self, channel: str) -> bool:
        """Cut short the routine utterance playing on `channel` for the referee speaking over
        it, and drop the routine ones waiting there (their batches' `done` never runs); False
        when none was playing."""
        lane = self._lanes.get(channel)
        return lane is not None and lane.give_way()

    def interrupted(self) -> frozenset[str]:
        """The channels where an alert has cut a routine utterance short since last asked."""
        return frozenset(channel for channel, lane in self._lanes.items() if lane.interrupted())

    def lost(self) -> frozenset[str]:
        """The channels whose latest play failed, or whose play in progress is past its
        deadline."""
        now = time.monotonic()
        return frozenset(channel for channel, lane in self._lanes.items() if lane.lost(now))

    def alerting(self, channel: str) -> bool:
        """Whether the output of `channel` is playing an alert or has alerts waiting."""
        lane = self._lanes.get(channel)
        return lane is not None and lane.alerting()

    def close(self) -> None:
        """Speak whatever is queued, then stop the threads (a hung output is not waited for)."""
        for lane in self._lanes.values():
            lane.put(None)
        for lane in self._lanes.values():
            lane.join()

    def _play(self, channel: str, output: Output, utterance: Utterance,
              started: Callable[[float], None], cut: threading.Event) -> None:
        """Play one utterance unless `cut` is set first; `started(deadline)` is told when it
        will be overdue."""
        samples = self._voice.audio(utterance, output.rate)
        if cut.is_set():
            return
        started(time.monotonic() + len(samples) / output.rate + DEADLINE_SLACK)
        if channel == "pa":
            self.on_pa.append(Played(utterance.text, time.monotonic(), math.inf))
        try:
            output.play(samples, output.rate, cut)
        finally:
            if channel == "pa":
                self.on_pa[-1] = replace(self.on_pa[-1], ended=time.monotonic())

    def _failed(self, utterance: Utterance, error: object) -> None:
        self.failures.append(f"{utterance.channel}: {utterance.text}: {error}")
        sys.stderr.write(Line(N_("{output}: cannot speak {text!r}: {error}"),
                              output=OUTPUTS[utterance.channel], text=utterance.text,
                              error=error).shown() + "\n")


class _Lane:
    """One output's queue and thread: alerts first, cutting short the routine part playing,
    then routine parts in order."""

    def __init__(self, announcer: Announcer, channel: str, output: Output) -> None:
        self.announcer = announcer
        self.channel = channel
        self.output = output
        self._parts: deque[_Part | None] = deque()
        self._ready = threading.Condition()
        self._deadline: float | None = None  # of the play in progress
        self._failing = False  # the latest play failed
        self._working: _Part | None = None  # taken off the queue and not yet played
        self._cuttable: _Part | None = None  # the routine part playing, which an alert cuts
        self._cut_short = False  # a routine part was cut for an alert since last asked
        self._thread = threading.Thread(target=self._run, name=f"announcer-{channel}",
                                        daemon=True)
        self._thread.start()

    def put(self, part: _Part | None) -> None:
        with self._ready:
            if part is not None and part.alert:
                waiting = [p for p in self._parts if p is not None and p.alert]
                self._parts.insert(len(waiting), part)
                if self._cuttable is not None:
                    self._cuttable.cut.set()
            else:
                self._parts.append(part)
            self._ready.notify()

    def routine(self) -> int:
        with self._ready:
            return sum(1 for p in self._parts if p is not None and not p.alert)

    def drop_routine(self) -> None:
        with self._ready:
            dropped = [p for p in self._parts if p is not None and not p.alert]
            self._parts = deque(p for p in self._parts if p is None or p.alert)
        for part in dropped:
            part.batch.finished(False)

    def give_way(self) -> bool:
        with self._ready:
            part = self._cuttable
            if part is None or part.cut.is_set():
                return False
            part.gave_way = True
            part.cut.set()
        self.drop_routine()
        return True

    def interrupted(self) -> bool:
        """Whether a routine part was cut short for an alert since last asked."""
        with self._ready:
            cut, self._cut_short = self._cut_short, False
            return cut

    def lost(self, now: float) -> bool:
        return self._failing or self.hung(now)

    def hung(self, now: float) -> bool:
        deadline = self._deadline
        return deadline is not None and now > deadline

    def alerting(self) -> bool:
        with self._ready:
            parts = [*self._parts, self._working]
            return any(p is not None and p.alert for p in parts)

    def join(self) -> None:
        """Wait until the thread ends, unless its play in progress is past its deadline."""
        while self._thread.is_alive() and not self.hung(time.monotonic()):
            self._thread.join(timeout=0.05)

    def _next(self) -> _Part | None:
        with self._ready:
            while not self._parts:
                self._ready.wait()
            part = self._parts.popleft()
            self._working = part
            self._cuttable = part if part is not None and not part.alert else None
            return part

    def _run(self) -> None:
        while (part := self._next()) is not None:
            spoken = all([self._speak(u, part.cut) for u in part.utterances])
            with self._ready:  # played: no alert cuts it any more
                self._cuttable = None
                cut = part.cut.is_set()
                self._cut_short = self._cut_short or (cut and not part.gave_way)
            part.batch.finished(spoken and not cut)  # a probe heard is known before it is free
            with self._ready:
                self._working = None

    def _speak(self, utterance: Utterance, cut: threading.Event) -> bool:
        try:
            self.announcer._play(self.channel, self.output, utterance, self._started, cut)
        except Exception as error:  # a failed output must not stop the announcements
            self._failing = True
            self.announcer._failed(utterance, error)
            return False
        finally:
            self._deadline = None
        self._failing = False
        return True

    def _started(self, deadline: float) -> None:
        self._deadline = deadline
