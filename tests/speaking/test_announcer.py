"""The announcer: order on each output, outputs apart, alerts first (cutting routine speech
short), failures and hangs seen."""

import threading
import time

import numpy as np

from phrases.render import Utterance
from voice.speaking import announcer as announcing
from voice.speaking.announcer import Announcer


def utterance(text, channel="pa"):
    return Utterance("score", channel, text, text, None, None)


class Voice:
    def audio(self, utterance, rate):
        assert rate == 16000  # the output's own rate
        return np.full(10, len(utterance.text), dtype=np.int16)


class Output:
    """Records what it played; each play takes `seconds`, to expose overlap or reordering."""

    rate = 16000

    def __init__(self, log, name, fail_on=None, seconds=0.01):
        self.log, self.name, self.fail_on, self.seconds = log, name, fail_on, seconds
        self.playing = threading.Lock()
        self.hang = threading.Event()  # set: plays block until `release` is set
        self.release = threading.Event()

    def play(self, samples, rate, cut=None):
        if self.fail_on is not None and int(samples[0]) == self.fail_on:
            raise OSError("device unplugged")
        assert self.playing.acquire(blocking=False), "two utterances at once"
        if self.hang.is_set():
            self.release.wait()
        if (cut or threading.Event()).wait(self.seconds):
            self.log.append((self.name, -int(samples[0]), time.monotonic()))  # cut short
        else:
            self.log.append((self.name, int(samples[0]), time.monotonic()))
        self.playing.release()


def played(log, name=None):
    return [(n, said) for n, said, _ in log if name in (None, n)]


def test_utterances_play_in_order_on_their_channel_without_cutting_each_other():
    log = []
    outputs = {"pa": Output(log, "pa"), "headset": Output(log, "headset")}
    announcer = Announcer(Voice(), outputs)
    announcer.say([utterance("a"), utterance("bb", "headset")])
    announcer.say([utterance("ccc")])
    announcer.close()
    assert played(log, "pa") == [("pa", 1), ("pa", 3)]
    assert played(log, "headset") == [("headset", 2)]


def test_a_slow_pa_never_holds_up_the_headset():
    log = []
    outputs = {"pa": Output(log, "pa", seconds=0.5), "headset": Output(log, "headset")}
    announcer = Announcer(Voice(), outputs)
    announcer.say([utterance("a"), utterance("bb")])
    announcer.say([utterance("ccc", "headset")])
    announcer.close()
    assert played(log)[0] == ("headset", 3)  # while the PA still said «a»


def test_say_does_not_wait_for_the_speech():
    log = []
    announcer = Announcer(Voice(), {"pa": Output(log, "pa")})
    start = time.perf_counter()
    announcer.say([utterance("x" * n) for n in range(1, 20)])
    queued = time.perf_counter() - start
    announcer.close()
    assert queued < 0.05 and len(log) == 19


def test_done_runs_after_the_batch_is_spoken_and_not_when_an_output_failed():
    log, done = [], []
    outputs = {"pa": Output(log, "pa", fail_on=2), "headset": Output(log, "headset")}
    announcer = Announcer(Voice(), outputs)
    announcer.say([utterance("a"), utterance("e", "headset")],
                  done=lambda: done.append(("first", played(log))))
    announcer.say([utterance("bb"), utterance("ccc")], done=lambda: done.append("second"))
    announcer.say([utterance("dddd")], done=lambda: done.append("third"))
    announcer.close()
    assert done[0][0] == "first" and set(done[0][1]) == {("pa", 1), ("headset", 1)}
    assert done[1:] == ["third"]
    assert played(log, "pa") == [("pa", 1), ("pa", 3), ("pa", 4)]  # the failure stopped no other
    assert list(announcer.failures) == ["pa: bb: device unplugged"]


def test_an_alert_goes_before_every_routine_utterance_waiting():
    log = []
    announcer = Announcer(Voice(), {"headset": Output(log, "headset", seconds=0.05)})
    for n in range(1, 8):
        announcer.say([utterance("x" * n, "headset")])
        time.sleep(0.02 if n == 1 else 0)  # the first is playing
    announcer.say([utterance("y" * 9, "headset")], alert=True)
    announcer.say([utterance("z" * 10, "headset")], alert=True)
    announcer.close()
    said = [n for _, n in played(log)]
    # The utterance playing is cut short; the alerts keep their own order, the rest waits.
    assert said[:3] == [-1, 9, 10] and said[3:] == [2, 3, 4, 5, 6, 7]


def test_an_alert_cuts_short_the_routine_utterance_playing_and_the_rest_of_its_batch():
    log, done = [], []
    announcer = Announcer(Voice(), {"pa": Output(log, "pa", seconds=1.0),
                                    "headset": Output(log, "headset", seconds=1.0)})
    announcer.say([utterance("a"), utterance("bb"), utterance("e", "headset")],
                  done=lambda: done.append("routine"))
    time.sleep(0.1)  # «a» is playing on the PA, «e» on the headset
    started = time.monotonic()
    announcer.say([utterance("y" * 9)], alert=True)
    announcer.say([utterance("z" * 10)], alert=True)  # an alert never cuts another
    time.sleep(0.1)
    assert announcer.interrupted() == {"pa"} and announcer.interrupted() == set()  # told once
    announcer.say([utterance("ccc", "headset")], alert=True)
    time.sleep(0.1)
    assert announcer.interrupted() == {"headset"}
    announcer.close()
    cut_at = next(at for name, said, at in log if said == -1)
    assert cut_at - started < 0.1  # not after its second
    # «bb», after «a» in the batch cut, is never said; the batch's `done` never runs.
    assert played(log, "pa") == [("pa", -1), ("pa", 9), ("pa", 10)]
    assert played(log, "headset") == [("headset", -1), ("headset", 3)]
    assert done == [] and list(announcer.failures) == [] and announcer.lost() == set()


def test_giving_way_cuts_the_routine_utterance_playing_and_drops_the_routine_waiting():
    log, done = [], []
    announcer = Announcer(Voice(), {"pa": Output(log, "pa", seconds=1.0),
                                    "headset": Output(log, "headset", seconds=0.3)})
    assert not announcer.give_way("pa")  # nothing playing
    announcer.say([utterance("a"), utterance("bb"), utterance("e", "headset")],
                  done=lambda: done.append("first"))
    announcer.say([utterance("ccc")], done=lambda: done.append("second"))
    time.sleep(0.1)  # «a» is playing on the PA, «e» on the headset
    started = time.monotonic()
    assert announcer.give_way("pa") and not announcer.give_way("pa")  # once
    announcer.say([utterance("dddd")])  # after it: said
    announcer.close()
    cut_at = next(at for name, said, at in log if said == -1)
    assert cut_at - started < 0.1
    # «bb» and the batch waiting are never said, nor done; the headset plays on, uncut; it is
    # no alert's cut: nothing is said again for it.
    assert played(log, "pa") == [("pa", -1), ("pa", 4)]
    assert played(log, "headset") == [("headset", 1)]
    assert done == [] and announcer.interrupted() == set()


def test_an_alert_never_gives_way():
    log = []
    announcer = Announcer(Voice(), {"pa": Output(log, "pa", seconds=0.3)})
    announcer.say([utterance("a")], alert=True)
    time.sleep(0.1)
    assert not announcer.give_way("pa")
    announcer.close()
    assert played(log) == [("pa", 1)]


def test_routine_speech_can_be_dropped_on_one_output_only():
    log = []
    outputs = {"pa": Output(log, "pa", seconds=0.2), "headset": Output(log, "headset",
                                                                      seconds=0.2)}
    announcer = Announcer(Voice(), outputs)
    announcer.say([utterance("a"), utterance("bb", "headset")])
    announcer.say([utterance("ccc"), utterance("dddd", "headset")])
    time.sleep(0.05)  # the first batch is playing
    announcer.drop_routine("pa")
    announcer.close()
    assert played(log, "pa") == [("pa", 1)] and played(log, "headset") == [("headset", 2),
                                                                          ("headset", 4)]


def test_a_routine_backlog_can_be_dropped_alerts_kept_and_its_batches_never_done():
    log, done = [], []
    output = Output(log, "pa")
    output.hang.set()
    announcer = Announcer(Voice(), {"pa": output})
    for n in range(1, 5):
        announcer.say([utterance("x" * n)], done=lambda n=n: done.append(n))
        time.sleep(0.05 if n == 1 else 0)  # the first is playing
    announcer.say([utterance("y" * 9)], done=lambda: done.append(9), alert=True)
    assert announcer.backlog() == 3  # the first is playing
    announcer.drop_routine()
    assert announcer.backlog() == 0
    output.release.set()
    announcer.close()
    # The first, playing, was cut short by the alert: none of the routine batches is done.
    assert [n for _, n in played(log)] == [-1, 9] and done == [9]


def test_a_failed_play_leaves_its_output_lost_until_one_succeeds():
    log = []
    announcer = Announcer(Voice(), {"pa": Output(log, "pa", fail_on=2)})
    announcer.say([utterance("bb")])
    time.sleep(0.05)
    assert announcer.lost() == {"pa"}
    announcer.say([utterance("a")])
    announcer.close()
    assert announcer.lost() == set()


def test_a_play_past_its_length_and_the_slack_leaves_its_output_lost_while_it_hangs(monkeypatch):
    monkeypatch.setattr(announcing, "DEADLINE_SLACK", 0.2)
    log = []
    output = Output(log, "headset")
    output.hang.set()
    announcer = Announcer(Voice(), {"headset": output, "pa": Output(log, "pa")})
    announcer.say([utterance("a", "headset")], alert=True)
    time.sleep(0.1)
    assert announcer.lost() == set() and announcer.alerting("headset")  # not overdue yet
    time.sleep(0.2)
    assert announcer.lost() == {"headset"}
    announcer.say([utterance("bb")])
    started = time.monotonic()
    announcer.close()  # the PA finishes; the hung headset is not waited for
    assert time.monotonic() - started < 0.5 and played(log) == [("pa", 2)]
    output.release.set()
    time.sleep(0.1)
    assert announcer.lost() == set() and not announcer.alerting("headset")
