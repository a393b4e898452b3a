"""The announcer thread: order, one at a time, PA and headset apart, failures reported."""

import threading
import time

import numpy as np

from phrases.render import Utterance
from voice.speaking.announcer import Announcer


def utterance(text, channel="pa"):
    return Utterance("score", channel, text, text, None, None)


class Voice:
    def audio(self, utterance, rate):
        assert rate == 16000  # the output's own rate
        return np.full(10, len(utterance.text), dtype=np.int16)


class Output:
    """Records what it played; each play takes a while, to expose overlap or reordering."""

    rate = 16000

    def __init__(self, log, name, fail_on=None):
        self.log, self.name, self.fail_on = log, name, fail_on
        self.playing = threading.Lock()

    def play(self, samples, rate):
        if self.fail_on is not None and int(samples[0]) == self.fail_on:
            raise OSError("device unplugged")
        assert self.playing.acquire(blocking=False), "two utterances at once"
        time.sleep(0.01)
        self.log.append((self.name, int(samples[0])))
        self.playing.release()


def test_utterances_play_in_order_on_their_channel_without_cutting_each_other():
    log = []
    outputs = {"pa": Output(log, "pa"), "headset": Output(log, "headset")}
    announcer = Announcer(Voice(), outputs)
    announcer.say([utterance("a"), utterance("bb", "headset")])
    announcer.say([utterance("ccc")])
    announcer.close()
    assert log == [("pa", 1), ("headset", 2), ("pa", 3)]


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
    announcer = Announcer(Voice(), {"pa": Output(log, "pa", fail_on=2)})
    announcer.say([utterance("a")], done=lambda: done.append(("first", list(log))))
    announcer.say([utterance("bb"), utterance("ccc")], done=lambda: done.append("second"))
    announcer.say([utterance("dddd")], done=lambda: done.append("third"))
    announcer.close()
    assert done == [("first", [("pa", 1)]), "third"]
    assert log == [("pa", 1), ("pa", 3), ("pa", 4)]  # the failure did not stop the others
    assert announcer.failures == ["pa: bb: device unplugged"]
