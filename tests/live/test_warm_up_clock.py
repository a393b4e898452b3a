"""The live loop's clock times a warm-up as it times a break."""

import time

from rules.command import Command, Kind
from tests.support.live import make_loop
from voice.match_record.database import Record
from voice.match_record.ledger import Ledger


def test_a_warm_up_started_from_the_panel_is_warned_and_ended_by_the_loop_clock(
    tmp_path, korean_model, sound_devices
):
    now = [0.0]
    loop, record = make_loop(tmp_path, korean_model, clock=lambda: started + now[0])
    panel = Ledger(Record.open(record.path), loop.ledger.match_id)
    panel.command(Command(Kind.WARM_UP))
    started = time.time()
    for second in range(0, 302):
        now[0] = float(second)
        loop.idle()
    loop.close()
    events = record.load(1).events
    assert [e.command.kind for e in events] == [Kind.WARM_UP, Kind.TICK, Kind.TICK]
    assert [round(e.command.seconds) for e in events[1:]] == [240, 300]
    assert loop.ledger.match.warm_up is None
