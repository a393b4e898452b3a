"""`referee run`: the hands-free loop — microphone → vosk → rules → the PA and the headset."""

from __future__ import annotations

import argparse
import queue
import sys
from typing import TextIO

from rules.vocabulary import Vocabulary
from voice import devices
from voice.announcer import Announcer
from voice.arguments import (
    SETUP_ARGUMENTS,
    UsageError,
    add_db_argument,
    add_setup_arguments,
    match_number,
    setup_from,
)
from voice.audio import CHUNK_MS, TARGET_RATE
from voice.ledger import Ledger
from voice.listen import (
    add_early_argument,
    add_phrase_table_argument,
    add_threshold_argument,
    phrase_table,
    prepare,
)
from voice.loop import LiveLoop
from voice.record import Record, RecordError
from voice.resume import catch_up


def register(sub: argparse._SubParsersAction) -> None:
    """Add `run` to the command line."""
    run_parser = sub.add_parser("run", help="the live voice loop: microphone, PA and headset")
    add_setup_arguments(run_parser, required=False)
    run_parser.add_argument(
        "--match", type=match_number,
        help="continue this recorded match (its set-up comes from the record) instead of a new one",
    )
    run_parser.add_argument("--model", required=True, help="the vosk model directory")
    run_parser.add_argument("--mic", required=True, help="input device id or name part")
    run_parser.add_argument("--pa", required=True, help="the hall's output device")
    run_parser.add_argument("--headset", required=True, help="the referee's output device")
    add_threshold_argument(run_parser)
    add_db_argument(run_parser)
    add_phrase_table_argument(run_parser)
    add_early_argument(run_parser)
    run_parser.set_defaults(run=run)


def run(args: argparse.Namespace, err: TextIO = sys.stderr) -> int:
    """`referee run`: devices first (fail at once without them), then the model, then listen."""
    setup = None if args.match is not None else setup_from(args)
    table = phrase_table(args.phrase_table)
    given = [f"--{name}" for name in SETUP_ARGUMENTS if getattr(args, name) is not None]
    if setup is None and given:
        raise UsageError(f"--match continues a recorded match with its own set-up: drop {given[0]}")
    try:
        mic = devices.find(args.mic, "input", "--mic")
        outputs = {
            "pa": devices.DeviceOutput(devices.find(args.pa, "output", "--pa")),
            "headset": devices.DeviceOutput(devices.find(args.headset, "output", "--headset")),
        }
        record = Record.open(args.db, create=setup is not None)
    except (devices.DeviceError, RecordError) as error:
        raise UsageError(str(error)) from None
    with record:
        try:
            ledger = Ledger(record, args.match) if setup is None else None
            rules = ledger.match.setup if ledger else setup
            listener = prepare(
                args.model, Vocabulary(rules.players, rules.rules), table, args.threshold,
                early=args.early, prog="referee run",
            )
            ledger = ledger or Ledger(record, record.create_match(setup))
        except RecordError as error:
            raise UsageError(str(error)) from None
        from voice.speak import Synthesiser

        loop = LiveLoop(listener, ledger, Announcer(Synthesiser(), outputs))
        err.write(f"match {ledger.match_id} recorded in {args.db}; listening on {mic.name}\n")
        try:
            if setup is None:
                catch_up(ledger, loop.announcer, loop.voiced)
            listen_to(mic, loop)
        except KeyboardInterrupt:
            err.write("stopped\n")
        finally:
            loop.close()
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
