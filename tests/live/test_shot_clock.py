"""The live loop's clock times the shot clock from the stroke that started it."""

import time
from collections import Counter

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


def test_the_pa_sounds_a_tone_as_the_shot_clock_warns_unless_the_hall_turns_it_off(
    tmp_path, korean_model, sound_devices
):
    from voice import devices
    from voice.speaking.chime import bell

    pa = devices.find("PA", "output", "--pa")
    plays = {}
    now = [0.0]
    started = time.time()
    for tone in (True, False):
        now[0] = 0.0
        folder = tmp_path / str(tone)
        folder.mkdir()
        loop, record = make_loop(folder, korean_model, clock=lambda: started + now[0],
                                 setup=Setup("three-cushion", 15, PLAYERS, shot_clock=30),
                                 tone=tone)
        Ledger(Record.open(record.path), loop.ledger.match_id).command(Command(Kind.POINT))
        sound_devices.played.clear()
        for second in range(0, 22):  # the warning at 20 s
            now[0] = float(second)
            loop.idle()
        loop.close()
        assert [e.command.kind for e in record.load(1).events] == [Kind.POINT, Kind.TICK]
        plays[tone] = Counter(n for device, n in sound_devices.played if device == pa.index)
    # Off, the headset alone warns; on, the PA plays one thing more: the tone (the fake plays
    # whole 10 ms blocks).
    (extra,) = (plays[True] - plays[False]).elements()
    block = round(pa.default_rate) // 100
    assert 0 <= extra - len(bell(round(pa.default_rate))) < block
    assert plays[False] - plays[True] == Counter()
