"""`referee run`: the hands-free loop — microphone → vosk → rules → the PA and the headset."""

from __future__ import annotations

import argparse
import queue
import sys
import time
from collections.abc import Callable
from typing import TextIO

from phrases.render import Utterance, render
from rules.announcement import Announcement
from rules.command import Command, Kind
from rules.vocabulary import Vocabulary
from voice import devices
from voice.announcer import Announcer
from voice.arguments import (
    UsageError,
    add_db_argument,
    add_setup_arguments,
    confidence,
    setup_from,
)
from voice.audio import TARGET_RATE
from voice.ledger import Ledger
from voice.model import ModelError
from voice.pipeline import DEFAULT_THRESHOLD, Heard, Listener, coverage_report, speed_report
from voice.recognise import load_model
from voice.record import Record, RecordError

CHUNK_MS = 100  # audio the sound card hands over per callback
TICK_SECONDS = 1.0  # how often the break clock is read while a break is on


class LiveLoop:
    """Everything above the audio devices: audio chunks in, recorded commands, queued speech.

    Runs on one thread; the announcer's thread only reports back which events it has voiced.
    """

    def __init__(
        self,
        listener: Listener,
        ledger: Ledger,
        announcer: Announcer,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.listener = listener
        self.ledger = ledger
        self.announcer = announcer
        self.clock = clock
        self._voiced: queue.Queue[int] = queue.Queue()
        self._early_taken = False  # the early commit in progress was accepted by the rules
        self._break_started: float | None = None
        self._last_tick = 0.0

    def on_audio(self, pcm16: bytes) -> Heard | None:
        """Feed one chunk of microphone audio; act on what it completes."""
        heard = self.listener.feed(pcm16)
        if heard is not None:
            self.act(heard)
        self.idle()
        return heard

    def act(self, heard: Heard) -> None:
        """Take what the listener heard: undo a contradicted early commit, then the command."""
        if heard.replaces is not None and self._early_taken:
            self._take(Command(Kind.UNDO))
        self._early_taken = False
        if heard.command is None:
            self.announcer.say([render(Announcement("not_understood"))])
            return
        accepted = self._take(heard.command)
        self._early_taken = heard.early and accepted

    def idle(self) -> None:
        """Between chunks: mark what has been voiced, and run the break clock (Article 5)."""
        while not self._voiced.empty():
            self.ledger.mark_announced(self._voiced.get())
        if self.ledger.match.pause is None:
            self._break_started = None
            return
        now = self.clock()
        if self._break_started is None:
            self._break_started = self._last_tick = now
        elif now - self._last_tick >= TICK_SECONDS:
            self._last_tick = now
            self._take(Command(Kind.TICK, seconds=now - self._break_started))

    def close(self) -> None:
        """Let the announcer finish what is queued, and note what it voiced."""
        self.announcer.close()
        while not self._voiced.empty():
            self.ledger.mark_announced(self._voiced.get())

    def _take(self, command: Command) -> bool:
        """Apply and voice `command`; True when the rules accepted it."""
        utterances = self.ledger.command(command)
        self._say(utterances, self.ledger.written)
        return self.ledger.written is not None

    def _say(self, utterances: list[Utterance], seq: int | None) -> None:
        done = None if seq is None else (lambda: self._voiced.put(seq))
        self.announcer.say(utterances, done=done)


def register(sub: argparse._SubParsersAction) -> None:
    """Add `run` to the command line."""
    run_parser = sub.add_parser("run", help="the live voice loop: microphone, PA and headset")
    add_setup_arguments(run_parser)
    run_parser.add_argument("--model", required=True, help="the vosk model directory")
    run_parser.add_argument("--mic", required=True, help="input device id or name part")
    run_parser.add_argument("--pa", required=True, help="the hall's output device")
    run_parser.add_argument("--headset", required=True, help="the referee's output device")
    run_parser.add_argument(
        "--threshold", type=confidence, default=DEFAULT_THRESHOLD,
        help=f"free-form models: the confidence a command needs (default {DEFAULT_THRESHOLD:g})",
    )
    run_parser.add_argument(
        "--no-early", action="store_true",
        help="wait for vosk's endpoint instead of committing a complete phrase at once",
    )
    add_db_argument(run_parser)
    run_parser.set_defaults(run=run)


def run(args: argparse.Namespace, err: TextIO = sys.stderr) -> int:
    """`referee run`: devices first (fail at once without them), then the model, then listen."""
    setup = setup_from(args)
    try:
        mic = devices.find(args.mic, "input", "--mic")
        outputs = {
            "pa": devices.DeviceOutput(devices.find(args.pa, "output", "--pa")),
            "headset": devices.DeviceOutput(devices.find(args.headset, "output", "--headset")),
        }
        model = load_model(args.model)
        record = Record.open(args.db)
    except (devices.DeviceError, ModelError, RecordError) as error:
        raise UsageError(str(error)) from None
    listener = Listener(
        model, Vocabulary(setup.players, setup.rules), threshold=args.threshold,
        early=not args.no_early,
    )
    for line in [*coverage_report(listener), *speed_report(listener.recogniser.time_decode(),
                                                            listener.free_form)]:
        err.write(line + "\n")
    from voice.speak import Synthesiser

    ledger = Ledger(record, record.create_match(setup))
    loop = LiveLoop(listener, ledger, Announcer(Synthesiser(), outputs))
    err.write(f"match {ledger.match_id} recorded in {args.db}; listening on {mic.name}\n")
    try:
        listen_to(mic, loop)
    except KeyboardInterrupt:
        err.write("stopped\n")
    finally:
        loop.close()
        record.close()
    return 0


def listen_to(mic: devices.Device, loop: LiveLoop) -> None:
    """Capture 16 kHz mono from `mic` until the stream ends, feeding `loop`.

    The audio callback only queues the bytes, so it never blocks the audio thread.
    """
    sd = devices.backend()
    chunks: queue.Queue[bytes] = queue.Queue()

    def callback(indata, frames, at, status) -> None:  # noqa: ANN001 (sounddevice's signature)
        chunks.put_nowait(bytes(indata))

    stream = sd.RawInputStream(
        samplerate=TARGET_RATE, blocksize=TARGET_RATE * CHUNK_MS // 1000, channels=1,
        dtype="int16", device=mic.index, callback=callback,
    )
    with stream:
        while stream.active or not chunks.empty():
            try:
                loop.on_audio(chunks.get(timeout=CHUNK_MS / 1000))
            except queue.Empty:
                loop.idle()
