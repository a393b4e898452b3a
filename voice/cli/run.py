"""`referee run`: the hands-free loop — microphone → vosk → rules → the PA and the headset."""

from __future__ import annotations

import argparse
import sys

from rules.vocabulary import Vocabulary
from voice import devices
from voice.cli.arguments import (
    SETUP_ARGUMENTS,
    Subcommands,
    UsageError,
    add_db_argument,
    add_early_argument,
    add_phrase_table_argument,
    add_setup_arguments,
    add_threshold_argument,
    match_number,
    phrase_table,
    setup_from,
)
from voice.cli.listening import start_listener
from voice.hearing.microphone import capture
from voice.live.catch_up import catch_up
from voice.live.loop import LiveLoop
from voice.match_record.database import Record
from voice.match_record.ledger import Ledger
from voice.speaking.announcer import Announcer


def register(sub: Subcommands) -> None:
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


def run(args: argparse.Namespace) -> int:
    """`referee run`: devices first (fail at once without them), then the model, then listen."""
    setup = None if args.match is not None else setup_from(args)
    table = phrase_table(args.phrase_table)
    given = [f"--{name}" for name in SETUP_ARGUMENTS if getattr(args, name) is not None]
    if setup is None and given:
        raise UsageError(f"--match continues a recorded match with its own set-up: drop {given[0]}")
    mic = devices.find(args.mic, "input", "--mic")
    outputs = {
        "pa": devices.DeviceOutput(devices.find(args.pa, "output", "--pa")),
        "headset": devices.DeviceOutput(devices.find(args.headset, "output", "--headset")),
    }
    with Record.open(args.db, create=setup is not None) as record:
        ledger = Ledger(record, args.match) if setup is None else None
        rules = ledger.match.setup if ledger else setup
        assert rules is not None  # a new match's set-up, or the recorded match's
        listener = start_listener(
            args.model, Vocabulary(rules.players, rules.rules), table, args.threshold,
            early=args.early, prog="referee run",
        )
        ledger = ledger or Ledger(record, record.create_match(rules))
        from voice.speaking.synthesis import Synthesiser

        loop = LiveLoop(listener, ledger, Announcer(Synthesiser(), outputs))
        sys.stderr.write(
            f"match {ledger.match_id} recorded in {args.db}; listening on {mic.name}\n"
        )
        try:
            if setup is None:
                catch_up(ledger, loop.announcer, loop.voiced)
            capture(mic, loop.on_audio, loop.idle)
        except KeyboardInterrupt:
            sys.stderr.write("stopped\n")
        finally:
            loop.close()
    return 0

