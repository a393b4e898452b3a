"""Catching up on a resumed match: the backlog said once, as what still holds."""

import pytest

from rules.announcement import Code
from rules.command import Command, Kind
from rules.state import Setup
from tests.support.match import PLAYERS, A
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


def summed_up(tmp_path, setup, kinds):
    """The codes a summed-up backlog of `kinds` (none of them voiced) is said as."""
    with Record.open(tmp_path / "r.sqlite3") as record:
        number = record.create_match(setup)
        for seq, kind in enumerate(kinds, start=1):
            record.append(number, seq, kind if isinstance(kind, Command) else Command(kind))
        ledger, said = Ledger(record, number), Said()
        catch_up(ledger, said, ledger.mark_announced, summarise=True)
    return said.codes


POINT, MISS = Kind.POINT, Kind.MISS


def test_every_set_won_in_a_backlog_is_said_after_the_score(tmp_path):
    # Set 1: A to 1, B misses his equalising inning; set 2 (B breaks) to B; set 3 to A.
    codes = summed_up(tmp_path, Setup("libre", 1, PLAYERS, sets=3),
                      [POINT, MISS, POINT, MISS, POINT, MISS])
    assert codes == [Code.REPEAT_SCORE, Code.SET, Code.SET, Code.SET]


def test_a_tie_in_a_backlog_keeps_its_extension_and_who_starts_while_nobody_has(tmp_path):
    setup = Setup("libre", 1, PLAYERS)
    assert summed_up(tmp_path, setup, [POINT, POINT]) == [
        Code.REPEAT_SCORE, Code.EXTENSION, Code.TURN]


def test_an_extension_played_out_in_a_backlog_keeps_its_call_and_the_winner(tmp_path):
    setup = Setup("libre", 1, PLAYERS)
    played = [POINT, POINT, Command(Kind.STARTS, player=A), POINT, MISS]
    assert summed_up(tmp_path, setup, played) == [
        Code.REPEAT_SCORE, Code.EXTENSION, Code.WINNER]


def test_a_draw_and_a_play_off_in_a_backlog_are_kept(tmp_path):
    drawn = Setup("libre", 1, PLAYERS, on_tie="draw")
    assert summed_up(tmp_path / "d", drawn, [POINT, POINT]) == [Code.REPEAT_SCORE, Code.DRAW]
    playoff = Setup("libre", 1, PLAYERS, on_tie="playoff")
    assert summed_up(tmp_path / "p", playoff, [POINT, POINT]) == [
        Code.REPEAT_SCORE, Code.PLAYOFF, Code.TURN]


def test_the_last_inning_being_played_is_kept_from_a_backlog(tmp_path):
    setup = Setup("libre", 50, PLAYERS, innings_limit=2)
    assert summed_up(tmp_path, setup, [MISS, MISS, POINT]) == [
        Code.REPEAT_SCORE, Code.LAST_INNING]
