"""The live loop above the audio devices: heard phrases in, recorded commands, queued speech."""

from __future__ import annotations

import queue
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from phrases.render import Utterance, render
from rules.announcement import Announcement, Code
from rules.command import Command, Kind
from voice.match_record.ledger import Ledger
from voice.speaking.announcer import Speaker

if TYPE_CHECKING:  # the loop only passes them on; importing them loads vosk
    from voice.hearing.listener import Heard, Listener

TICK_SECONDS = 1.0  # how often the break clock is read while a break is on


class LiveLoop:
    """Everything above the audio devices: audio chunks in, recorded commands, queued speech.

    Runs on one thread; the announcer's thread only reports back which events it has voiced.
    """

    def __init__(
        self,
        listener: Listener,
        ledger: Ledger,
        announcer: Speaker,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.listener = listener
        self.ledger = ledger
        self.announcer = announcer
        self.clock = clock
        self._voiced: queue.Queue[int] = queue.Queue()  # events voiced, to mark in the record
        self._early_taken = False  # the early commit in progress was accepted by the rules
        self._break_started: float | None = None
        self._last_tick = 0.0

    def on_audio(self, pcm16: bytes) -> Heard | None:
        """Feed one chunk of microphone audio; act on what it completes."""
        heard = self.listener.feed(pcm16)
        if heard is not None:
            self.act(heard)
        self.idle()
        return heard

    def act(self, heard: Heard) -> None:
        """Take what the listener heard: undo a contradicted early commit, then the command."""
        if heard.replaces is not None and self._early_taken:
            self._take(Command(Kind.UNDO))
        self._early_taken = False
        if heard.command is None:
            self.announcer.say([render(Announcement(Code.NOT_UNDERSTOOD))])
            return
        accepted = self._take(heard.command)
        self._early_taken = heard.early and accepted

    def idle(self) -> None:
        """Between chunks: mark what has been voiced, and run the break clock (Article 5)."""
        while not self._voiced.empty():
            self.ledger.mark_announced(self._voiced.get())
        self.ledger.refresh()  # a control panel may have recorded events (a break) meanwhile
        if self.ledger.match.pause is None:
            self._break_started = None
            return
        now = self.clock()
        if self._break_started is None:
            self._break_started = self._last_tick = now
        elif now - self._last_tick >= TICK_SECONDS:
            self._last_tick = now
            self._take(Command(Kind.TICK, seconds=now - self._break_started))

    def close(self) -> None:
        """Let the announcer finish what is queued, and note what it voiced."""
        self.announcer.close()
        while not self._voiced.empty():
            self.ledger.mark_announced(self._voiced.get())

    def _take(self, command: Command) -> bool:
        """Apply and voice `command`; True when the rules accepted it."""
        utterances = self.ledger.command(command)
        self._say(utterances, self.ledger.written)
        return self.ledger.written is not None

    def voiced(self, seq: int) -> None:
        """Note, from any thread, that event `seq` has been voiced."""
        self._voiced.put(seq)

    def _say(self, utterances: list[Utterance], seq: int | None) -> None:
        done = None if seq is None else (lambda: self.voiced(seq))
        self.announcer.say(utterances, done=done)
