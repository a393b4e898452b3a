"""The outputs' faults as the live loop tells them: a lost PA on the headset, a lost headset on
the panel and, in a neutral word, on the PA; repeated until the output is back, when the score
is said on it once."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace

from phrases.bank import Channel
from phrases.render import Utterance
from rules.command import Command, Kind
from voice.live.catch_up import catch_up
from voice.live.prompts import REPEAT_SECONDS, LoopCode, prompt
from voice.live.pulse import Pulse
from voice.match_record.ledger import Ledger
from voice.speaking.announcer import Announcer

# Says utterances ahead of routine speech; then runs the callable, if one is given.
Tell = Callable[[list[Utterance], Callable[[], None] | None], None]
# What each lost output's alert is, said on the other output.
ALERTS = {Channel.PA: LoopCode.PA_LOST, Channel.HEADSET: LoopCode.HEADSET_LOST}


class OutputNews:
    """Watches the announcer's outputs: a lost one is told at once and every REPEAT_SECONDS;
    while it is lost, and as soon as a play on it succeeds, the score is tried on it (ahead of
    routine speech): once that is heard, the output is back."""

    def __init__(
        self, announcer: Announcer, tell: Tell, ledger: Ledger, voiced: Callable[[int], None],
        pulse: Pulse, log: Callable[[str], None], notice: bool = True,
    ) -> None:
        self.announcer = announcer  # watched: which outputs are lost, which busy
        self.tell = tell  # says utterances ahead of routine speech, then runs `done`
        self.ledger = ledger
        self.voiced = voiced  # notes an event voiced, as the loop does
        self.pulse = pulse
        self.log = log
        self.notice = notice  # a lost headset gets its neutral word on the PA
        self.lost: dict[str, float] = {}  # each lost channel → when its alert is next repeated
        self._returned: set[str] = set()  # channels whose score was heard (announcer threads)

    def watch(self) -> None:
        """Between chunks: tell newly lost outputs, repeat the alerts due, try the score on each
        lost output that is free, and note those back."""
        for channel in list(self._returned):
            self._returned.discard(channel)
            if self.lost.pop(channel, None) is not None:
                self.log(f"{channel} back: the score said on it")
                self.pulse.outputs_lost.discard(channel)
                self.pulse.beat()
        now = time.monotonic()
        failing = self.announcer.lost()
        for channel in sorted(failing - self.lost.keys()):
            self.log(f"{channel} lost: its latest utterance failed or did not finish in time")
            self.lost[channel] = now + REPEAT_SECONDS
            self.pulse.outputs_lost.add(channel)
            self.pulse.beat()
            self._alert(channel)
        for channel, due in self.lost.items():
            if now >= due:
                self.lost[channel] = now + REPEAT_SECONDS
                self._alert(channel)
            elif channel in failing:
                continue
            if not self.announcer.busy(channel):
                self._try_score(channel)

    def _alert(self, channel: str) -> None:
        if channel == Channel.HEADSET and not self.notice:
            return
        self.tell([prompt(ALERTS[Channel(channel)])], None)

    def _try_score(self, channel: str) -> None:
        """The score on `channel`, ahead of routine speech; heard, the output is back. On the PA
        it stands for every event the hall missed (the catch-up summary)."""
        if channel == Channel.PA:
            catch_up(self.ledger, _Probe(self.tell, lambda: self._back(channel)),
                     self.voiced, summarise=True)
            return
        score = self.ledger.command(Command(Kind.SCORE))
        moved = [replace(u, channel=Channel(channel)) for u in score]
        self.tell(moved, lambda: self._back(channel))

    def _back(self, channel: str) -> None:
        self._returned.add(channel)


class _Probe:
    """A speaker for the catch-up: ahead of routine speech, noting when something was heard."""

    def __init__(self, tell: Tell, heard: Callable[[], None]) -> None:
        self.tell = tell
        self.heard = heard

    def say(
        self, utterances: list[Utterance], done: Callable[[], None] | None = None,
        alert: bool = True,
    ) -> None:
        def both() -> None:
            self.heard()
            if done is not None:
                done()

        self.tell(utterances, both)

    def close(self) -> None:
        """Nothing of its own to finish."""
