"""What the live loop does with a heard phrase, in the order it checks: the PA's echo, a phrase
no louder than the echo (far quieter than the referee's voice too: the echo's residue), a
reading it is unsure of, one not understood, or a command to take; and whether what follows it
within a pre-roll is the rest of its phrase (Listener.asked)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

from voice.live.echo import EchoGuard
from voice.speaking.announcer import Played

if TYPE_CHECKING:  # the verdict only asks them; importing them loads vosk
    from voice.hearing.canceller import EchoCanceller
    from voice.hearing.listener import Heard


class Way(Enum):
    """How a heard phrase is dealt with."""

    ECHO = "echo"  # the PA's own words: not taken
    RESIDUE = "residue"  # no louder than the PA's echo, far quieter than his voice: not taken
    DROWNED = "drowned"  # no louder than the PA's echo: not taken; if understood, asked again
    UNSURE = "unsure"  # another command as likely, or heard only without the canceller: asked again
    NOT_UNDERSTOOD = "not_understood"  # «δεν κατάλαβα»
    TAKEN = "taken"  # its command goes to the rules


@dataclass(frozen=True)
class Verdict:
    """A heard phrase's way, the PA utterance it echoes (ECHO only), and whether the referee,
    asked to say it again, may not be done with it (`rest`: unsure, or drowned with its start
    cut, Heard.start_cut)."""

    way: Way
    echoed: Played | None = None
    rest: bool = False


def judge(heard: Heard, echo: EchoGuard | None, canceller: EchoCanceller | None,
          now: float | None = None) -> Verdict:
    """How the loop deals with `heard`, heard at `now` (time.monotonic() unless given)."""
    echoed = None if echo is None else echo.echoed(
        heard.phrase, heard.command, time.monotonic() if now is None else now)
    if echoed is not None:
        return Verdict(Way.ECHO, echoed)
    if canceller is not None and canceller.masks(heard.seconds):
        if canceller.level.under_voice(heard.seconds):
            return Verdict(Way.RESIDUE)
        return Verdict(Way.DROWNED, rest=heard.start_cut)
    if heard.lost or heard.rival is not None:
        return Verdict(Way.UNSURE, rest=True)
    return Verdict(Way.NOT_UNDERSTOOD if heard.command is None else Way.TAKEN)
