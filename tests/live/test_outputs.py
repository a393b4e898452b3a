"""The live loop's alerts and outputs on the sound-device fake: alerts first whatever is queued,
a failed or hung PA or headset told and watched until it is back, short gaps, repeated alerts."""

import time

import pytest

from rules.announcement import Code
from rules.command import Command, Kind
from tests.live.test_loop import heard, listen
from tests.support.heartbeats import beats
from tests.support.korean import spoken_pcm
from tests.support.live import make_loop, spied
from tests.support.sound import Take
from voice.live.give_way import GiveWay
from voice.live.prompts import REPEAT_SECONDS, LoopCode
from voice.speaking import announcer as announcing

PA, HEADSET = 1, 2  # the fake's output devices


def starts(sound_devices, device, after=0.0):
    """When each play on `device` started, from `after` on."""
    return [at for played, at in sound_devices.started if played == device and at >= after]


def settle(loop, seconds=0.3):
    """Run the loop's idle work for a while, as between chunks (the clock may be frozen)."""
    for _ in range(round(seconds / 0.02)):
        loop.idle()
        time.sleep(0.02)


def test_an_alert_starts_within_a_second_of_the_fault_whatever_is_queued(
    tmp_path, korean_model, sound_devices
):
    sound_devices.realtime = True  # each announcement takes its length to play
    loop, record = make_loop(tmp_path, korean_model, log=[].append)
    codes = spied(loop)
    for kind in [Kind.POINT, Kind.MISS] * 5:  # ten commands in a second: both outputs busy
        loop.act(heard(Command(kind)))
    fault = time.monotonic()
    loop.microphone_lost("no audio for 2 s")
    loop.idle()
    settle(loop, 1.2)
    assert starts(sound_devices, HEADSET, after=fault)[0] - fault <= 1.0
    assert codes.count(LoopCode.MIC_LOST) == 1
    loop.close()
    # The routine backlog was said as the current state, not event by event …
    assert len(starts(sound_devices, PA)) < 10
    # … and every event stands voiced by it.
    assert all(e.announced for e in record.load(1).events)
    assert loop.ledger.unannounced() == []


def queued(loop):
    """Every batch queued on the loop's announcer from now on, its parts' too: (channels, codes,
    alert)."""
    batches, say = [], loop.announcer.say

    def spy(utterances, done=None, alert=False):
        batches.append(({u.channel for u in utterances}, [u.code for u in utterances], alert))
        say(utterances, done, alert)

    loop.announcer.say = spy
    return batches


def test_an_alert_cuts_short_a_long_routine_announcement_on_the_headset(
    tmp_path, korean_model, sound_devices
):
    sound_devices.realtime = True
    lines = []
    loop, record = make_loop(tmp_path, korean_model, log=lines.append)
    batches = queued(loop)
    loop.act(heard(Command(Kind.TOUCHENT)))  # «τους» on the PA, a 4 s reminder on the headset
    settle(loop, 0.3)
    fault = time.monotonic()
    loop.microphone_lost("no audio for 2 s")
    settle(loop, 0.5)
    (alert, *after) = starts(sound_devices, HEADSET, after=fault)
    assert alert - fault <= 1.0
    assert [d for d, at in sound_devices.aborted if at >= fault] == [HEADSET]  # the reminder
    settle(loop, 3.0)
    loop.close()
    # What was cut is not replayed: the current state is said on the headset, after the alert.
    assert ("the headset: routine speech cut short by an alert; the current state said "
            "instead") in lines
    assert batches[1:] == [({"headset"}, [LoopCode.MIC_LOST], True),
                           ({"headset"}, [Code.REPEAT_SCORE, Code.TOUCHENT, Code.TOUCHENT], False)]
    assert len(starts(sound_devices, HEADSET, after=fault)) == 4  # the alert, then the state
    assert all(e.announced for e in record.load(1).events)


def test_an_alert_cuts_short_a_long_routine_announcement_on_the_pa(
    tmp_path, korean_model, sound_devices
):
    sound_devices.realtime = True
    sound_devices.failing = {HEADSET}
    lines = []
    loop, record = make_loop(tmp_path, korean_model, log=lines.append)
    batches = queued(loop)
    loop.act(heard(Command(Kind.SCORE)))  # «Παπαδόπουλος μηδέν, Κωνσταντίνου μηδέν»: 3 s
    time.sleep(0.3)
    loop.act(heard(Command(Kind.MISS)))  # the turn on the dead headset
    time.sleep(0.1)
    fault = time.monotonic()
    settle(loop, 1.0)  # the headset is found lost: a neutral word on the PA
    alert = starts(sound_devices, PA, after=fault)[0]
    assert alert - fault <= 1.0
    assert [d for d, at in sound_devices.aborted if at >= fault] == [PA]  # the score, cut
    settle(loop, 4.0)
    loop.close()
    # The score cut short is said as the current state once, after the alert, for the miss too.
    assert ("the PA: routine speech cut short by an alert; the current state said "
            "instead") in lines
    assert [b for b in batches if "pa" in b[0]][1:] == [
        ({"pa"}, [LoopCode.HEADSET_LOST], True), ({"pa"}, [Code.REPEAT_SCORE], False)]
    assert len(starts(sound_devices, PA, after=fault)) == 2
    assert all(e.announced for e in record.load(1).events)


def test_not_understood_and_refusals_go_before_routine_speech(
    tmp_path, korean_model, sound_devices
):
    loop, _ = make_loop(tmp_path, korean_model, log=[].append)
    queued = []
    loop.announcer.say = lambda utterances, done=None, alert=False: queued.append(
        ([u.code for u in utterances], alert))
    loop.act(heard(None))
    loop.act(heard(Command(Kind.RESPOT)))  # refused: no balls touching
    loop.act(heard(Command(Kind.POINT)))
    assert queued == [([Code.NOT_UNDERSTOOD], True), ([Code.REFUSED], True),
                      ([Code.SCORE], False)]
    loop.close()


@pytest.mark.parametrize("device,channel,state,alert_on", [
    (PA, "pa", "pa_lost", HEADSET), (HEADSET, "headset", "headset_lost", PA)])
def test_a_failing_output_is_told_at_once_on_the_other_and_in_the_heartbeat(
    tmp_path, korean_model, sound_devices, monkeypatch, device, channel, state, alert_on
):
    sound_devices.failing = {device}
    loop, record = make_loop(tmp_path, korean_model, log=[].append)
    codes, written = spied(loop), beats(monkeypatch)
    loop.act(heard(Command(Kind.POINT)))  # the score on the PA
    loop.act(heard(Command(Kind.MISS)))  # the turn and «άστοχο» on the headset
    settle(loop)
    alert = LoopCode.PA_LOST if channel == "pa" else LoopCode.HEADSET_LOST
    assert codes.count(alert) == 1 and state in written
    assert starts(sound_devices, alert_on)  # the alert played on the other output
    assert loop.pulse.liveness() == state
    loop.close()


def test_a_lost_headset_s_word_on_the_pa_can_be_turned_off(
    tmp_path, korean_model, sound_devices
):
    sound_devices.failing = {HEADSET}
    loop, _ = make_loop(tmp_path, korean_model, log=[].append, notice=False)
    codes = spied(loop)
    loop.act(heard(Command(Kind.MISS)))
    settle(loop)
    assert loop.pulse.liveness() == "headset_lost" and LoopCode.HEADSET_LOST not in codes
    loop.close()
    assert starts(sound_devices, PA) == []


@pytest.mark.parametrize("device,output,state", [
    (PA, "the PA", "pa_lost"), (HEADSET, "the headset", "headset_lost")])
def test_a_hung_output_is_lost_past_its_length_and_back_once_it_plays(
    tmp_path, korean_model, sound_devices, monkeypatch, device, output, state
):
    monkeypatch.setattr(announcing, "DEADLINE_SLACK", 0.3)
    sound_devices.hanging = {device}
    lines = []
    loop, record = make_loop(tmp_path, korean_model, log=lines.append)
    codes = spied(loop)
    loop.act(heard(Command(Kind.POINT)))
    loop.act(heard(Command(Kind.MISS)))
    settle(loop, 0.5)
    assert loop.pulse.liveness() == "listening"  # within its length and the slack
    settle(loop, 3.5)  # an announcement is under 3 s long
    assert loop.pulse.liveness() == state
    assert any(line.startswith(f"{output} lost") for line in lines)
    hung = len(starts(sound_devices, device))
    sound_devices.released.set()  # the device plays again
    settle(loop, 1.0)
    assert loop.pulse.liveness() == "listening"
    assert f"{output} back: the score said on it" in lines
    loop.close()
    # Back, it said the score once (on the PA: for the events the hall missed).
    assert codes.count(Code.REPEAT_SCORE) == 1 and len(starts(sound_devices, device)) > hung
    assert all(e.announced for e in record.load(1).events)


def test_a_pa_lost_and_back_says_the_score_once_and_its_alert_every_20_s_until_then(
    tmp_path, korean_model, sound_devices, monkeypatch
):
    sound_devices.failing = {PA}
    lines = []
    loop, record = make_loop(tmp_path, korean_model, log=lines.append)
    codes = spied(loop)
    loop.act(heard(Command(Kind.POINT)))
    loop.act(heard(Command(Kind.POINT)))
    settle(loop)
    assert codes.count(LoopCode.PA_LOST) == 1
    settle(loop)
    assert codes.count(LoopCode.PA_LOST) == 1  # not at every chunk
    now = time.monotonic()
    monkeypatch.setattr(time, "monotonic", lambda: now + REPEAT_SECONDS)
    settle(loop)
    assert codes.count(LoopCode.PA_LOST) == 2  # repeated 20 s on
    assert not any(e.announced for e in record.load(1).events)  # the hall heard nothing
    sound_devices.failing = set()  # the amplifier is on again
    monkeypatch.setattr(time, "monotonic", lambda: now + 2 * REPEAT_SECONDS)
    played = len(starts(sound_devices, PA))
    settle(loop)
    assert loop.pulse.liveness() == "listening" and "the PA back: the score said on it" in lines
    settle(loop)
    loop.close()
    assert len(starts(sound_devices, PA)) == played + 1  # the score, once
    assert codes.count(LoopCode.PA_LOST) == 3  # the last repeat went before it came back
    assert all(e.announced for e in record.load(1).events)


def test_a_long_microphone_outage_is_told_again_every_20_s(
    tmp_path, korean_model, sound_devices, monkeypatch
):
    loop, _ = make_loop(tmp_path, korean_model, log=[].append)
    codes = spied(loop)
    loop.microphone_lost("no audio for 2 s")
    now = time.monotonic()
    for seconds in range(0, 61, 5):  # a minute without the microphone
        monkeypatch.setattr(time, "monotonic", lambda s=seconds: now + s)
        loop.idle()
    assert codes.count(LoopCode.MIC_LOST) == 4  # at 0, 20, 40 and 60 s
    loop.microphone_back()
    monkeypatch.setattr(time, "monotonic", lambda: now + 90)
    loop.idle()
    loop.close()
    assert codes.count(LoopCode.MIC_LOST) == 4 and codes[-1] == LoopCode.MIC_BACK


def test_audio_missing_under_the_watchdog_s_two_seconds_asks_the_referee_to_repeat(
    tmp_path, korean_model, sound_devices
):
    pcm = spoken_pcm(tmp_path, ["엄마", "라디오"], gap=1.0)
    middle = len(pcm) // 2 // 3200  # the chunk (100 ms) in the middle of the take
    sound_devices.takes = [Take(pcm, pause_at=middle, pause=1.2)]
    lines = []
    loop, record = make_loop(tmp_path, korean_model, log=lines.append)
    codes = spied(loop)
    listen(loop, sound_devices)
    loop.close()
    assert codes.count(LoopCode.SAY_AGAIN) == 1 and LoopCode.MIC_LOST not in codes
    assert any(line.startswith("microphone: no audio for 1.") for line in lines)


def test_the_hall_may_set_its_own_word_to_ask_again(tmp_path, korean_model, sound_devices):
    loop, _ = make_loop(tmp_path, korean_model, log=[].append, say_again="πες το ξανά")
    said = []
    loop.announcer.say = lambda utterances, done=None, alert=False: said.extend(utterances)
    loop.audio_gap(0.5)
    loop.close()
    assert [(u.code, u.text, u.channel) for u in said] == [
        (LoopCode.SAY_AGAIN, "πες το ξανά", "headset")]


def test_steady_audio_asks_for_nothing_again(tmp_path, korean_model, sound_devices):
    sound_devices.takes = [Take(spoken_pcm(tmp_path, ["엄마", "라디오"]))]
    sound_devices.realtime = True  # a chunk every 100 ms, as a sound card delivers them
    loop, record = make_loop(tmp_path, korean_model, log=[].append)
    codes = spied(loop)
    listen(loop, sound_devices)
    loop.close()
    assert LoopCode.SAY_AGAIN not in codes
    assert [e.command.kind for e in record.load(1).events] == [Kind.POINT, Kind.MISS]


class Speaking:
    """Stands in for the listener and the canceller where the referee speaks over the PA (the
    end-to-end case, with both real: tests/live/test_echo.py)."""

    speaking = True

    def voice_over(self, seconds):
        return self.speaking


def given_way(tmp_path, korean_model, sound_devices, kind):
    """A loop whose PA gives way to the referee over a point's score, `kind` heard when he stops;
    what it queued from then on, its log, its record and when the PA was cut."""
    sound_devices.realtime = True
    lines = []
    loop, record = make_loop(tmp_path, korean_model, log=lines.append)
    loop.act(heard(Command(Kind.POINT)))  # «Παπαδόπουλος ένα» on the PA
    settle(loop, 0.3)
    assert loop.ledger.unannounced()  # while the PA says it
    batches = queued(loop)
    referee = Speaking()
    give_way = GiveWay(referee, referee, loop.announcer, loop.ledger, loop.voiced, lines.append)
    give_way.hear(bytes(3200))
    cut = time.monotonic()
    give_way.hear(bytes(3200))  # once for his phrase
    settle(loop, 0.3)
    give_way.over(False)  # not over yet: he still speaks
    referee.speaking = False
    if kind is not None:
        loop.act(heard(Command(kind)))
    give_way.over(kind is not None)
    settle(loop, 3.0)
    loop.close()
    aborted = [at for device, at in sound_devices.aborted if device == PA]
    return batches, lines, record, [at - cut for at in aborted]


def test_the_pa_gives_way_to_the_referee_and_says_the_score_again_after_him(
    tmp_path, korean_model, sound_devices
):
    batches, lines, record, cut = given_way(tmp_path, korean_model, sound_devices, None)
    assert len(cut) == 1 and cut[0] < 0.1  # within the play's look (devices.CUT_SECONDS)
    assert lines == ["the PA: announcement cut short, the referee speaking over it",
                     "the PA: the current state said again after the referee's phrase"]
    assert batches == [({"pa"}, [Code.REPEAT_SCORE], False)]
    assert all(e.announced for e in record.load(1).events)


def test_what_the_pa_gave_way_in_is_said_by_the_command_he_said_over_it(
    tmp_path, korean_model, sound_devices
):
    batches, lines, record, cut = given_way(tmp_path, korean_model, sound_devices, Kind.POINT)
    assert len(cut) == 1
    assert lines == ["the PA: announcement cut short, the referee speaking over it"]
    assert [codes for channels, codes, _ in batches if "pa" in channels] == [
        [Code.SCORE, Code.FOR_THREE]]  # the second point's, in full
    assert all(e.announced for e in record.load(1).events)
