"""Takes for calibration: each phrase prompted, then recorded from the microphone until the
endpointer hears the referee stop, and saved as `<folder>/<phrase>/<n>.wav`."""

from __future__ import annotations

import threading
import time
import wave
from collections.abc import Callable, Iterable
from pathlib import Path

from rules.errors import RefereeError
from voice.hearing.audio import TARGET_RATE
from voice.hearing.endpoint import Endpointer
from voice.hearing.microphone import Microphone
from voice.translation import N_, Line

# A take ends after this much non-speech: longer than any pause inside a phrase, so that the
# pauses can be measured on the take.
TAKE_ENDPOINT_MS = 1000
NO_SPEECH_SECONDS = 8.0  # nothing said this long after the prompt: the take is given up


class RecordingError(RefereeError):
    """A take could not be recorded; the message says which and why."""


class Faults:
    """A microphone's health while audio is taken whole: a loss, a gap or dropped audio spoils
    it (`fault`)."""

    def __init__(self) -> None:
        self.fault: RecordingError | None = None

    def microphone_lost(self, fault: Line) -> None:
        self.fault = RecordingError(N_("the microphone was lost ({fault})"), fault=fault)

    def microphone_back(self) -> None:
        """Not reached: what is taken stops at the first loss."""

    def audio_gap(self, seconds: float) -> None:
        self.fault = RecordingError(N_("no audio came for {seconds:.1f} s"), seconds=seconds)

    def overflowed(self, total: int) -> None:
        self.fault = RecordingError(N_("the sound card dropped audio"))


class _Take(Faults):
    """The audio of one take as it comes in, until its endpoint, a silence too long or a loss."""

    def __init__(self, clock: Callable[[], float]) -> None:
        super().__init__()
        self.endpointer = Endpointer(TAKE_ENDPOINT_MS)
        self.audio = bytearray()
        self.done = threading.Event()
        self.clock = clock
        self.started = clock()

    def on_audio(self, pcm16: bytes) -> None:
        if self.done.is_set():
            return
        taken = self.endpointer.feed(pcm16)
        self.audio += pcm16 if taken is None else pcm16[:taken]
        if taken is not None:
            self.done.set()

    def idle(self) -> None:
        if not self.endpointer.speaking and self.clock() - self.started > NO_SPEECH_SECONDS:
            self.fault = RecordingError(N_("nothing was said for {seconds:g} s"),
                                        seconds=NO_SPEECH_SECONDS)
            self.done.set()

    def microphone_lost(self, fault: Line) -> None:
        super().microphone_lost(fault)
        self.done.set()


def record_take(microphone: Microphone, clock: Callable[[], float] = time.monotonic) -> bytes:
    """Open the microphone and record until the referee has said something and stopped: 16 kHz
    PCM; RecordingError when nothing was said, or the microphone failed."""
    take = _Take(clock)
    microphone.open()
    microphone.capture(take.on_audio, take.idle, take.done, take)
    if take.fault is not None:
        raise take.fault
    return bytes(take.audio)


def record_takes(
    microphone: Microphone, phrases: Iterable[str], takes: int, folder: Path,
    prompt: Callable[[str, int], None],
) -> None:
    """For each phrase, `takes` times: `prompt(phrase, take number)`, then record the take into
    `folder/<phrase>/<n>.wav`; RecordingError naming the phrase and take that failed."""
    for phrase in phrases:
        (folder / phrase).mkdir(parents=True, exist_ok=True)
        for number in range(1, takes + 1):
            prompt(phrase, number)
            try:
                pcm16 = record_take(microphone)
            except RecordingError as error:
                raise RecordingError(N_("«{phrase}», take {number}: {error}"), phrase=phrase,
                                     number=number, error=error) from None
            write_pcm(folder / phrase / f"{number}.wav", pcm16)


def write_pcm(path: Path, pcm16: bytes) -> None:
    """16 kHz 16-bit mono PCM as a WAV file."""
    with wave.open(str(path), "wb") as wav:
        wav.setnchannels(1)
        wav.setsampwidth(2)
        wav.setframerate(TARGET_RATE)
        wav.writeframes(pcm16)
