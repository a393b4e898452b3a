"""The one sound-device fake: stands in for the sounddevice module at the device boundary.

Its microphone can deliver audio, stall, pause, die (unplugged for a while), refuse to open and
report overflows; its outputs can fail or hang, and a play can be aborted.
"""

from __future__ import annotations

import _thread
import threading
import time
from dataclasses import dataclass
from types import SimpleNamespace

import numpy as np

from voice.audio_signal import resample, to_pcm16_bytes
from voice.hearing.audio import TARGET_RATE


class PortAudioError(Exception):
    """sounddevice's error, as the fake raises it."""


class CallbackStop(Exception):
    """sounddevice's signal that an output's callback has given its last samples."""


@dataclass
class Take:
    """What one opened microphone stream does: delivers `pcm`, then `end`s.

    "stall": stays active and delivers nothing more; "die": goes inactive (closing it raises),
    its device unplugged for `away` seconds. Chunks at `overflow_at` come flagged as overflows.
    """

    pcm: bytes
    end: str = "stall"
    away: float = 0.0
    overflow_at: tuple[int, ...] = ()
    pause_at: int | None = None  # before this chunk, nothing comes for `pause` seconds
    pause: float = 0.0


class FakeSoundDevice:
    """Stands in for the sounddevice module: three devices, a mic stream fed from bytes."""

    PortAudioError = PortAudioError
    CallbackStop = CallbackStop

    def __init__(self, pcm=b"", realtime=False):
        self.pcm, self.realtime = pcm, realtime
        self.takes: list[Take] = []  # one per stream opened; none: one that delivers `pcm`
        self.refusals = 0  # opens refused with PortAudioError before one succeeds
        self.unplugged_until = 0.0  # time.monotonic() until which the mic is gone
        self.finished = threading.Event()  # the last take has delivered all its audio
        self.signal_at_end: int | None = None  # then this signal is raised in the main thread
        self.played: list[tuple[int, int]] = []  # (device index, samples) of each whole play
        self.aborted: list[tuple[int, float]] = []  # (device index, time.monotonic()) of each cut
        self.started: list[tuple[int, float]] = []  # (device index, time.monotonic()) of each
        self.failing: set[int] = set()  # output devices whose play raises
        self.hanging: set[int] = set()  # output devices whose play blocks until `released`
        self.released = threading.Event()
        self.opens: list[float] = []  # time.monotonic() of each successful open
        self.hall = None  # the PA's 16 kHz sound → what of it reaches the mic (None: nothing)
        self.streams: list[FakeStream] = []

    def query_devices(self):
        mic_inputs = 0 if time.monotonic() < self.unplugged_until else 1
        return [
            {"name": "USB headset mic", "max_input_channels": mic_inputs,
             "max_output_channels": 0, "default_samplerate": 48000.0},
            {"name": "Hall PA", "max_input_channels": 0, "max_output_channels": 2,
             "default_samplerate": 48000.0},
            {"name": "USB headset phones", "max_input_channels": 0, "max_output_channels": 2,
             "default_samplerate": 48000.0},
        ]

    def OutputStream(self, samplerate, device, channels, dtype, callback=None,
                     finished_callback=None):
        assert channels == 1 and dtype == "float32"
        if device in self.failing:
            raise PortAudioError(f"Error opening OutputStream: device {device} unavailable")
        return FakeOutput(self, samplerate, device, callback, finished_callback)

    def RawInputStream(self, samplerate, blocksize, channels, dtype, device, callback):
        assert (samplerate, channels, dtype, device) == (TARGET_RATE, 1, "int16", 0)
        if self.refusals or time.monotonic() < self.unplugged_until:
            self.refusals = max(0, self.refusals - 1)
            raise PortAudioError("Error opening RawInputStream: Device unavailable")
        if not self.takes:  # the first stream delivers `pcm`; one opened after the last, nothing
            self.takes = [Take(b"" if self.opens else self.pcm)]
        take = self.takes.pop(0)
        self.opens.append(time.monotonic())
        self.streams.append(FakeStream(self, take, blocksize * 2, callback, last=not self.takes))
        return self.streams[-1]

    def _finish(self):
        self.finished.set()
        if self.signal_at_end is not None:
            _thread.interrupt_main(self.signal_at_end)


class FakeOutput:
    """An output stream with a sound card's callback: at its start it takes all the samples at
    once (a buffer without end), then plays them (their length in real time), or hangs; an abort
    stops it where it is."""

    def __init__(self, fake, rate, device, callback, finished):
        self.fake, self.rate, self.device = fake, rate, device
        self.callback, self.finished = callback, finished
        self.stopped = threading.Event()  # aborted
        self.heard = None  # (the mic stream, where its echo was mixed in, the PA's 16 kHz sound)

    def __enter__(self):
        if self.callback is not None:  # opened to play, not to check
            self.start()
        return self

    def __exit__(self, *exc):
        return False

    def start(self):
        pieces = []
        while True:
            out = np.zeros((480, 1), np.float32)  # 10 ms a call
            try:
                self.callback(out, len(out), None, None)
            except CallbackStop:
                pieces.append(out[:, 0])
                break
            pieces.append(out[:, 0])
        samples = np.concatenate(pieces)
        assert self.rate > 0 and len(samples) > 1000
        if self.device == 1 and self.fake.hall and self.fake.streams:  # the PA, heard by the mic
            sound, stream = resample(samples, self.rate, TARGET_RATE), self.fake.streams[-1]
            self.heard = stream, stream.mix(self.fake.hall(sound)), sound
        self.began = time.monotonic()
        self.fake.started.append((self.device, self.began))
        threading.Thread(target=self._play, args=(len(samples),), daemon=True).start()

    def _play(self, count):
        if self.device in self.fake.hanging:
            self.fake.released.wait()
        if self.stopped.wait(count / self.rate if self.fake.realtime else 0):
            return
        self.fake.played.append((self.device, count))
        self.finished()

    def abort(self):
        self.stopped.set()
        self.fake.aborted.append((self.device, time.monotonic()))
        if self.heard is not None:  # the rest of the PA's sound never reaches the mic
            stream, at, sound = self.heard
            played = round((time.monotonic() - self.began) * TARGET_RATE)
            stream.mix(-self.fake.hall.unheard(sound, played), at)


class FakeStream:
    def __init__(self, fake, take, step, callback, last):
        self.fake, self.take, self.step, self.callback, self.last = fake, take, step, callback, last
        self.audio = np.frombuffer(take.pcm, "<i2").astype(np.float32) / 32768
        self.position, self.lock = 0, threading.Lock()
        self.fed_at = time.monotonic()  # when the last chunk was handed over
        self.active = False
        self.closed = False
        self.callback_seconds = []
        self.ended: float | None = None  # time.monotonic() when the take's audio ran out

    def start(self):
        self.active = True
        self.thread = threading.Thread(target=self._feed, daemon=True)
        self.thread.start()

    def mix(self, sound, at=None):
        """Add float samples at 16 kHz to the audio still to be delivered, from now on (the
        next chunk holds what is heard from the last one handed over to its own handing over),
        or from sample `at` on, of which what was delivered stays as it was; where they start."""
        with self.lock:
            now = self.position
            if at is not None:
                now = at
            elif self.fake.realtime:
                elapsed = int((time.monotonic() - self.fed_at) * TARGET_RATE)
                now += min(self.step // 2 - 1, elapsed)
            first, end = max(now, self.position), min(len(self.audio), now + len(sound))
            self.audio[first:end] += sound[first - now : max(first - now, end - now)]
            return now

    def _feed(self):
        for number, start in enumerate(range(0, len(self.audio), self.step // 2)):
            if self.closed:
                return
            if number == self.take.pause_at:
                time.sleep(self.take.pause)
            began = time.perf_counter()
            status = SimpleNamespace(input_overflow=number in self.take.overflow_at)
            with self.lock:
                self.position = start + self.step // 2
                chunk = to_pcm16_bytes(self.audio[start : self.position])
                self.fed_at = time.monotonic()
            self.callback(memoryview(chunk), self.step // 2, None, status)
            self.callback_seconds.append(time.perf_counter() - began)
            if self.fake.realtime:
                time.sleep(self.step / 2 / TARGET_RATE)
        self.ended = time.monotonic()
        if self.take.end == "die":
            self.fake.unplugged_until = self.ended + self.take.away
            self.active = False
        if self.last:
            self.fake._finish()

    def close(self):
        if not hasattr(self, "thread"):  # opened to check, never started: its take is still to come
            self.fake.takes.insert(0, self.take)
        self.closed = True
        if not self.active and self.take.end == "die":
            raise PortAudioError("Error stopping stream: Unanticipated host error")
        self.active = False
