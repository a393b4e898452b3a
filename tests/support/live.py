"""A live loop for the tests: the real Korean model, record, voice and announcer, faked devices."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rules.command import Kind
from rules.state import Setup
from rules.vocabulary import Vocabulary
from tests.support.match import PLAYERS
from voice import devices
from voice.hearing.listener import Heard, Listener
from voice.hearing.phrase_table import PhraseTable
from voice.hearing.recognise import LoadedModel
from voice.live.loop import LiveLoop, log_to_stderr
from voice.match_record.database import Record
from voice.match_record.ledger import LiveLedger
from voice.speaking.announcer import Announcer
from voice.speaking.synthesis import Synthesiser
from voice.speaking.voicing import Voicing

# Korean words the Korean test model hears from espeak-ng, standing for Greek phrases.
TABLE = PhraseTable({"엄마": "πόντος", "라디오": "άστοχο"})


def make_loop(
    tmp_path: Path,
    korean_model: LoadedModel,
    discipline: str = "three-cushion",
    clock: Callable[[], float] = time.time,
    setup: Setup | None = None,
    **options: Any,
) -> tuple[LiveLoop, Record]:
    """A loop on a new match (`setup`, else to 5 in `discipline`), on the sound-device fake's PA
    and headset."""
    record = Record.open(tmp_path / "matches.sqlite3")
    setup = setup or Setup(discipline, 5, PLAYERS)
    ledger = LiveLedger(record, record.create_match(setup), options.get("log", log_to_stderr))
    listener = Listener(korean_model, Vocabulary(PLAYERS, setup.rules), table=TABLE)
    outputs = {"pa": devices.DeviceOutput(devices.find("PA", "output", "--pa")),
               "headset": devices.DeviceOutput(devices.find("phones", "output", "--headset"))}
    announcer = Announcer(Voicing(Synthesiser()), outputs)
    return LiveLoop(listener, ledger, announcer, clock, **options), record


class SpokenCodes:
    """The real announcer, noting the code of every utterance queued on it."""

    def __init__(self, announcer):
        self.announcer, self.codes = announcer, []

    def say(self, utterances, done=None, alert=False):
        self.codes += [u.code for u in utterances]
        self.announcer.say(utterances, done, alert)

    def close(self):
        self.announcer.close()


def spied(loop):
    loop.announcer = SpokenCodes(loop.announcer)
    return loop.announcer.codes


def act_once(loop: LiveLoop, record: Record, heard: Heard) -> tuple[list[Kind], list[Any]]:
    """The loop acting on `heard` alone, then closed: the kinds recorded and what it said."""
    codes = spied(loop)
    loop.act(heard)
    loop.close()
    return [e.command.kind for e in record.load(1).events], codes
