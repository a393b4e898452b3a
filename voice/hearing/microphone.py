"""The microphone: 16 kHz mono captured from a sound device, chunk by chunk, watched over.

A stream that stops delivering (no audio for `stall_seconds`, inactive, or raising) is closed
and the device is reopened by its name, with backoff, until it is heard again. Audio missing
for a shorter while (GAP_SECONDS or more between chunks) is reported as a gap.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol

from voice import devices
from voice.hearing.audio import CHUNK_MS, TARGET_RATE
from voice.translation import N_, Foreign, Line

STALL_SECONDS = 2.0  # no audio for this long: the microphone is lost
GAP_SECONDS = 0.3  # audio missing this long beyond a chunk's own length may have held a word
BACKOFF_SECONDS = (0.25, 0.5, 1.0)  # waits between attempts to reopen it, the last repeated


class MicrophoneError(devices.CannotOpen):
    """The microphone cannot be opened; the message names the device and the fault."""

    def __init__(self, device: devices.Device, fault: object) -> None:
        super().__init__(N_("cannot open the microphone {name!r} (id {index}): {fault}"),
                         name=device.name, index=device.index, fault=Foreign(fault))
        self.device = device.name


class Health(Protocol):
    """Who is told when the microphone is lost, heard again, or drops audio."""

    def microphone_lost(self, fault: Line) -> None:
        """The microphone stopped delivering audio, for the reason `fault`."""

    def microphone_back(self) -> None:
        """Audio comes in again after a loss."""

    def audio_gap(self, seconds: float) -> None:
        """Audio went missing for `seconds`, less than the watchdog's stall, and came back."""

    def overflowed(self, total: int) -> None:
        """The sound card dropped audio; `total` overflows since the start."""


class Microphone:
    """The referee's microphone: the audio callback only queues the bytes (it never blocks)."""

    def __init__(
        self,
        device: devices.Device,
        stall_seconds: float = STALL_SECONDS,
        backoff: tuple[float, ...] = BACKOFF_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.device = device
        self.stall_seconds = stall_seconds
        self.backoff = backoff
        self.clock = clock
        self.overflows = 0  # input overflows the sound card reported, since the start
        # audio with when it came from the sound card (clock), or a gap's seconds
        self._chunks: queue.Queue[tuple[bytes, float] | float] = queue.Queue()
        self.captured_at = 0.0  # when the chunk passed on last came from the sound card (clock)
        self._stream: Any = None
        self._heard_at = 0.0  # when the last chunk came in (clock seconds)
        self._lost = False  # the microphone was lost and has not been heard since
        self._reported = 0  # the overflows `Health` was told of
        self._called_at: float | None = None  # when the stream's latest callback ran

    def open(self) -> None:
        """Open and start the input stream; MicrophoneError when it cannot be."""

        def callback(indata: Any, frames: int, at: Any, status: Any) -> None:
            if status is not None and status.input_overflow:
                self.overflows += 1
            now = time.monotonic()
            if self._called_at is not None:
                missing = now - self._called_at - frames / TARGET_RATE
                if missing >= GAP_SECONDS:
                    self._chunks.put_nowait(missing)
            self._called_at = now
            self._chunks.put_nowait((bytes(indata), self.clock()))

        self._called_at = None
        stream = self._opened(callback)
        try:
            stream.start()
        except devices.backend().PortAudioError as error:
            raise MicrophoneError(self.device, error) from None
        self._stream = stream

    def check(self) -> None:
        """Open the input stream and close it unstarted; MicrophoneError when it cannot be."""
        self._opened(lambda *args: None).close()

    def _opened(self, callback: Callable[..., None]) -> Any:
        """An input stream of the device, not started; MicrophoneError when it cannot be."""
        sd = devices.backend()
        try:
            return sd.RawInputStream(
                samplerate=TARGET_RATE, blocksize=TARGET_RATE * CHUNK_MS // 1000, channels=1,
                dtype="int16", device=self.device.index, callback=callback,
            )
        except sd.PortAudioError as error:
            raise MicrophoneError(self.device, error) from None

    def close(self) -> None:
        """Stop and close the stream, ignoring the errors of a device already gone."""
        stream, self._stream = self._stream, None
        if stream is None:
            return
        try:
            stream.close()
        except devices.backend().PortAudioError:
            pass  # unplugged: there is nothing left to close

    def capture(
        self, on_audio: Callable[[bytes], object], idle: Callable[[], None],
        stop: threading.Event, health: Health,
    ) -> None:
        """Feed chunks to `on_audio`, `idle` between them, until `stop` is set; keep it heard.

        The microphone must be open; it is closed on return.
        """
        self._heard_at, self._lost = self.clock(), False
        attempts, retry_at = 0, 0.0
        try:
            while not stop.is_set():
                if self._stream is None:
                    if self.clock() >= retry_at:
                        if self._reopen():
                            self._heard_at, attempts = self.clock(), 0
                        else:
                            retry_at = self.clock() + self._delay(attempts)
                            attempts += 1
                    idle()
                    stop.wait(CHUNK_MS / 1000)
                    continue
                try:
                    chunk = self._chunks.get(timeout=CHUNK_MS / 1000)
                except queue.Empty:
                    idle()
                    fault = self._fault(self.clock() - self._heard_at)
                    if fault is not None:
                        self.close()
                        if not self._lost:
                            self._lost = True
                            health.microphone_lost(fault)
                    continue
                self._take(chunk, on_audio, health)
            while not self._chunks.empty():  # what was captured before the stop
                self._take(self._chunks.get(), on_audio, health)
        finally:
            self.close()

    def _take(
        self, chunk: tuple[bytes, float] | float, on_audio: Callable[[bytes], object],
        health: Health,
    ) -> None:
        """Pass one chunk on (audio, when it was captured); tell `health` that the microphone is
        back, or dropped audio, or (a number in place of a chunk) had a gap of that many
        seconds."""
        if isinstance(chunk, float):
            health.audio_gap(chunk)
            return
        audio, self.captured_at = chunk
        self._heard_at = self.clock()
        if self._lost:
            self._lost = False
            health.microphone_back()
        on_audio(audio)
        if self.overflows != self._reported:
            self._reported = self.overflows
            health.overflowed(self._reported)

    def _delay(self, attempts: int) -> float:
        """How long to wait after `attempts` failed attempts to reopen the microphone."""
        return self.backoff[min(attempts, len(self.backoff) - 1)]

    def _fault(self, quiet: float) -> Line | None:
        """Why the open stream counts as lost, or None while it is sound."""
        try:
            if not self._stream.active:
                return Line(N_("the input stream stopped"))
        except devices.backend().PortAudioError as error:
            return Line(N_("the input stream failed: {error}"), error=Foreign(error))
        if quiet >= self.stall_seconds:
            return Line(N_("no audio for {seconds:g} s"), seconds=self.stall_seconds)
        return None

    def _reopen(self) -> bool:
        """Find the device again by its name (its id may change) and open it; True if it opened."""
        while not self._chunks.empty():  # audio from before the loss is not joined to the new
            self._chunks.get()
        try:
            self.device = devices.find(self.device.name, "input", "the microphone")
            self.open()
        except devices.DeviceError:
            return False
        return True
