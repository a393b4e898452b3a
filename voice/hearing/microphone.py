"""The microphone: 16 kHz mono captured from a sound device, chunk by chunk."""

from __future__ import annotations

import queue
from collections.abc import Callable
from typing import Any

from voice import devices
from voice.hearing.audio import CHUNK_MS, TARGET_RATE


def capture(
    mic: devices.Device, on_audio: Callable[[bytes], object], idle: Callable[[], None]
) -> None:
    """Feed 16-bit PCM chunks from `mic` to `on_audio` until the stream ends; `idle` between.

    The audio callback only queues the bytes, so it never blocks the audio thread.
    """
    sd = devices.backend()
    chunks: queue.Queue[bytes] = queue.Queue()

    def callback(indata: Any, frames: int, at: Any, status: Any) -> None:
        chunks.put_nowait(bytes(indata))

    stream = sd.RawInputStream(
        samplerate=TARGET_RATE, blocksize=TARGET_RATE * CHUNK_MS // 1000, channels=1,
        dtype="int16", device=mic.index, callback=callback,
    )
    with stream:
        while stream.active or not chunks.empty():
            try:
                on_audio(chunks.get(timeout=CHUNK_MS / 1000))
            except queue.Empty:
                idle()
