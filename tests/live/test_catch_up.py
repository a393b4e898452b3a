"""Catching up on a resumed match: the backlog said once, as what still holds."""

import pytest

from rules.announcement import Code
from rules.command import Command, Kind
from rules.state import Setup
from tests.support.match import PLAYERS
from voice.live.catch_up import catch_up
from voice.match_record.database import Record
from voice.match_record.ledger import Ledger


class Said:
    """A speaker that notes the codes it is given and voices them at once."""

    def __init__(self):
        self.codes = []

    def say(self, utterances, done=None):
        self.codes += [u.code for u in utterances]
        if done is not None:
            done()

    def close(self):
        pass


@pytest.fixture
def backlog(tmp_path):
    """A libre match whose last three events were recorded but never voiced (the PA failed)."""
    record = Record.open(tmp_path / "m.sqlite3")
    number = record.create_match(Setup("libre", 50, PLAYERS))
    for seq, kind in enumerate([Kind.POINT, Kind.POINT, Kind.POINT, Kind.ENTREES], start=1):
        record.append(number, seq, Command(kind))
    record.mark_announced(number, 1)
    yield record, number
    record.close()


def test_a_backlog_is_summed_up_once_the_score_then_the_zone_call_in_play(backlog):
    record, number = backlog
    ledger, said = Ledger(record, number), Said()
    catch_up(ledger, said, ledger.mark_announced, summarise=True)
    assert said.codes == [Code.REPEAT_SCORE, Code.ENTREES]
    assert all(e.announced for e in record.load(number).events)


def test_without_summing_up_each_event_is_voiced_then_the_score(backlog):
    record, number = backlog
    ledger, said = Ledger(record, number), Said()
    catch_up(ledger, said, ledger.mark_announced)
    assert said.codes == [Code.SCORE, Code.SCORE, Code.ENTREES, Code.REPEAT_SCORE]


def test_a_single_event_never_voiced_is_voiced_as_it_was(backlog):
    record, number = backlog
    for seq in (2, 3):
        record.mark_announced(number, seq)
    ledger, said = Ledger(record, number), Said()
    catch_up(ledger, said, ledger.mark_announced, summarise=True)
    assert said.codes == [Code.ENTREES, Code.REPEAT_SCORE]
