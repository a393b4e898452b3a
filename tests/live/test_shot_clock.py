"""The live loop's clock times the shot clock from the stroke that started it."""

import time

from rules.command import Command, Kind
from rules.state import Setup
from tests.support.live import make_loop
from tests.support.match import PLAYERS
from voice.match_record.database import Record
from voice.match_record.ledger import Ledger


def test_the_loop_warns_applies_a_time_out_and_ends_the_inning_at_zero(
    tmp_path, korean_model, sound_devices
):
    now = [0.0]
    setup = Setup("three-cushion", 15, PLAYERS, shot_clock=30, time_outs=1)
    started = time.time()
    loop, record = make_loop(tmp_path, korean_model, clock=lambda: started + now[0], setup=setup)
    panel = Ledger(Record.open(record.path), loop.ledger.match_id)
    panel.command(Command(Kind.POINT))
    for second in range(0, 62):
        now[0] = float(second)
        loop.idle()
    loop.close()
    events = record.load(1).events
    assert [e.command.kind for e in events] == [Kind.POINT, *[Kind.TICK] * 4]
    assert [round(e.command.seconds) for e in events[1:]] == [20, 30, 50, 60]
    match = loop.ledger.match
    assert match.at_table == 1 and match.players[0].time_outs == 1
