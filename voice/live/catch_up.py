"""Catching up on a resumed match: what was recorded but never voiced, then the score."""

from __future__ import annotations

import functools
from collections.abc import Callable

from rules.command import Command, Kind
from voice.match_record.ledger import Ledger
from voice.speaking.announcer import Speaker


def catch_up(ledger: Ledger, voice: Speaker, voiced: Callable[[int], None]) -> None:
    """Voice what was recorded but never announced, then the score.

    `voiced(seq)` runs once an event's announcements have been voiced.
    """
    for seq, said in ledger.unannounced():
        voice.say(said, done=functools.partial(voiced, seq))
    voice.say(ledger.command(Command(Kind.SCORE)))
