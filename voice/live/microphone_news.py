"""The microphone's faults as the live loop tells them: on the headset, and in the log."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from phrases.render import Utterance
from voice.live.prompts import REPEAT_SECONDS, LoopCode, prompt
from voice.live.pulse import Pulse
from voice.translation import N_, Line, _

if TYPE_CHECKING:  # importing it loads vosk
    from voice.hearing.listener import Listener

OVERFLOW_LOG_SECONDS = 10.0  # at most one line about overflows this often


class MicrophoneNews:
    """A lost microphone told on the headset, again every REPEAT_SECONDS until it is back; its
    return, and audio that went missing for a moment, told too; dropped audio logged now and
    then."""

    def __init__(
        self, listener: Listener, say: Callable[[list[Utterance]], None], pulse: Pulse,
        log: Callable[[str], None], say_again: str | None = None,
    ) -> None:
        self.listener = listener
        self.say_again = say_again  # the hall's own word for the bank's SAY_AGAIN, if any
        self.say = say  # on the headset
        self.pulse = pulse
        self.log = log
        self.overflows = 0  # input overflows the microphone reported
        self._overflow_logged = -OVERFLOW_LOG_SECONDS
        self._repeat_at = 0.0  # while the microphone is lost: when its alert is said again

    def lost(self, fault: Line) -> None:
        """Tell the referee that he is not heard, and forget the phrase cut short."""
        self.log(Line(N_("microphone lost: {fault}; reopening it"), fault=fault).shown())
        self.listener.reset()
        self.pulse.mic_lost = True
        self.pulse.beat()
        self._repeat_at = time.monotonic() + REPEAT_SECONDS
        self.say([prompt(LoopCode.MIC_LOST)])

    def repeat(self) -> None:
        """While the microphone is lost, say so again every REPEAT_SECONDS."""
        if self.pulse.mic_lost and time.monotonic() >= self._repeat_at:
            self._repeat_at = time.monotonic() + REPEAT_SECONDS
            self.say([prompt(LoopCode.MIC_LOST)])

    def gap(self, seconds: float) -> None:
        """Audio went missing for `seconds`, too short for the watchdog: the phrase that may
        have been said in it is lost, so the referee is asked to say it again."""
        self.log(Line(N_("microphone: no audio for {seconds:.2f} s; asking the referee to "
                         "repeat"), seconds=seconds).shown())
        self.listener.reset()
        self.ask_again()

    def ask_again(self) -> None:
        """Ask the referee to say again what he may have said (the hall's word, if it has one)."""
        asked = prompt(LoopCode.SAY_AGAIN)
        if self.say_again is not None:
            asked = replace(asked, text=self.say_again, display=self.say_again, pieces=())
        self.say([asked])

    def back(self) -> None:
        """Tell the referee that he is heard again."""
        self.log(_("microphone back: listening"))
        self.pulse.mic_lost = False
        self.pulse.beat()
        self.say([prompt(LoopCode.MIC_BACK)])

    def overflowed(self, total: int) -> None:
        """Count the audio the sound card dropped; log it now and then."""
        self.overflows = total
        now = time.monotonic()
        if now - self._overflow_logged >= OVERFLOW_LOG_SECONDS:
            self._overflow_logged = now
            self.log(Line(N_("microphone: {count} input overflows so far (audio was dropped)"),
                          count=total).shown())
