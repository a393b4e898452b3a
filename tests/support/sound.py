"""The one sound-device fake: stands in for the sounddevice module at the device boundary."""

from __future__ import annotations

import threading
import time

from voice.hearing.audio import TARGET_RATE


class FakeSoundDevice:
    """Stands in for the sounddevice module: three devices, a mic stream fed from bytes."""

    def __init__(self, pcm=b"", realtime=False):
        self.pcm, self.realtime = pcm, realtime
        self.played: list[tuple[int, int]] = []  # (device index, samples)

    def query_devices(self):
        return [
            {"name": "USB headset mic", "max_input_channels": 1, "max_output_channels": 0,
             "default_samplerate": 48000.0},
            {"name": "Hall PA", "max_input_channels": 0, "max_output_channels": 2,
             "default_samplerate": 48000.0},
            {"name": "USB headset phones", "max_input_channels": 0, "max_output_channels": 2,
             "default_samplerate": 48000.0},
        ]

    def play(self, samples, rate, device, blocking):
        assert blocking and rate > 0 and len(samples) > 1000
        self.played.append((device, len(samples)))

    def RawInputStream(self, samplerate, blocksize, channels, dtype, device, callback):  # noqa: N802
        assert (samplerate, channels, dtype, device) == (TARGET_RATE, 1, "int16", 0)
        return FakeStream(self.pcm, blocksize * 2, callback, self.realtime)


class FakeStream:
    def __init__(self, pcm, step, callback, realtime):
        self.pcm, self.step, self.callback, self.realtime = pcm, step, callback, realtime
        self.active = False
        self.callback_seconds = []

    def __enter__(self):
        self.active = True
        self.thread = threading.Thread(target=self._feed)
        self.thread.start()
        return self

    def _feed(self):
        for start in range(0, len(self.pcm), self.step):
            began = time.perf_counter()
            self.callback(memoryview(self.pcm[start : start + self.step]), self.step // 2, None,
                          None)
            self.callback_seconds.append(time.perf_counter() - began)
            if self.realtime:
                time.sleep(self.step / 2 / TARGET_RATE)
        self.active = False

    def __exit__(self, *exc):
        self.thread.join()
