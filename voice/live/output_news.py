"""The outputs' faults as the live loop tells them: a lost PA on the headset, a lost headset on
the panel and, in a neutral word, on the PA; repeated until the output is back, when the score
is said on it once. And what an alert cut short, said again as the current state."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace

from phrases.bank import Channel
from phrases.render import Utterance
from voice.live.catch_up import catch_up
from voice.live.prompts import REPEAT_SECONDS, LoopCode, prompt
from voice.live.pulse import Pulse
from voice.match_record.ledger import Ledger
from voice.speaking.announcer import OUTPUTS, Announcer, Speaker
from voice.translation import N_, Line

# Says utterances ahead of routine speech; then runs the callable, if one is given.
Tell = Callable[[list[Utterance], Callable[[], None] | None], None]
# What each lost output's alert is, said on the other output.
ALERTS = {Channel.PA: LoopCode.PA_LOST, Channel.HEADSET: LoopCode.HEADSET_LOST}


class OutputNews:
    """Watches the announcer's outputs: a lost one is told at once and every REPEAT_SECONDS;
    while it is lost, and as soon as a play on it succeeds, the score is tried on it (ahead of
    routine speech, one try at a time): once that is heard, the output is back. Where an alert
    cut routine speech short, what waited there is dropped and the current state said."""

    def __init__(
        self, announcer: Announcer, tell: Tell, ledger: Ledger, voiced: Callable[[int], None],
        pulse: Pulse, log: Callable[[str], None], notice: bool = True,
    ) -> None:
        self.announcer = announcer  # watched: which outputs are lost, cut short, alerting
        self.tell = tell  # says utterances ahead of routine speech, then runs `done`
        self.ledger = ledger
        self.voiced = voiced  # notes an event voiced, as the loop does
        self.pulse = pulse
        self.log = log
        self.notice = notice  # a lost headset gets its neutral word on the PA
        self.lost: dict[str, float] = {}  # each lost channel → when its alert is next repeated
        self._returned: set[str] = set()  # channels whose score was heard (announcer threads)

    def watch(self) -> None:
        """Between chunks: say the current state where an alert cut routine speech short, tell
        newly lost outputs, repeat the alerts due, try the score on each lost output with no
        alert playing or waiting, and note those back."""
        for channel in sorted(self.announcer.interrupted()):
            self.log(Line(N_("{output}: routine speech cut short by an alert; the current "
                             "state said instead"), output=OUTPUTS[Channel(channel)]).shown())
            self.announcer.drop_routine(channel)  # as stale as what was cut
            if channel not in self.lost:  # on a lost output, the score tried says it
                catch_up(self.ledger, Moved(self.announcer, channel), self.voiced,
                         summarise=True, stale=True)
        for channel in list(self._returned):
            self._returned.discard(channel)
            if self.lost.pop(channel, None) is not None:
                self.log(Line(N_("{output} back: the score said on it"),
                              output=OUTPUTS[Channel(channel)]).shown())
                self.pulse.outputs_lost.discard(channel)
                self.pulse.beat()
        now = time.monotonic()
        failing = self.announcer.lost()
        for channel in sorted(failing - self.lost.keys()):
            self.log(Line(N_("{output} lost: its latest utterance failed or did not finish in "
                             "time"), output=OUTPUTS[Channel(channel)]).shown())
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
            if not self.announcer.alerting(channel):  # the score tried is an alert
                self._try_score(channel)

    def _alert(self, channel: str) -> None:
        if channel == Channel.HEADSET and not self.notice:
            return
        self.tell([prompt(ALERTS[Channel(channel)])], None)

    def _try_score(self, channel: str) -> None:
        """The score on `channel`, ahead of routine speech; heard, the output is back. It stands
        for every event that output missed: on the PA the catch-up, on the headset its summary
        (what an alert cut short there included)."""
        probe = _Probe(self.tell, lambda: self._back(channel))
        if channel == Channel.PA:
            catch_up(self.ledger, probe, self.voiced, summarise=True)
        else:
            catch_up(self.ledger, Moved(probe, channel), self.voiced, summarise=True,
                     stale=True)

    def _back(self, channel: str) -> None:
        self._returned.add(channel)


class Moved:
    """A speaker for the catch-up: `speaker`'s, all of it on one output."""

    def __init__(self, speaker: Speaker, channel: str) -> None:
        self.speaker = speaker
        self.channel = Channel(channel)

    def say(
        self, utterances: list[Utterance], done: Callable[[], None] | None = None,
        alert: bool = False,
    ) -> None:
        moved = [replace(u, channel=self.channel) for u in utterances]
        self.speaker.say(moved, done, alert)

    def close(self) -> None:
        """Nothing of its own to finish."""


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
