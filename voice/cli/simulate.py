"""`referee simulate`: run a match from a file of transcribed phrases, without real time."""

from __future__ import annotations

import argparse

from voice.cli.arguments import (
    Subcommands,
    add_command,
    add_play_arguments,
    add_setup_arguments,
    printer,
    read_lines,
    say_recording,
    setup_from,
)
from voice.cli.pushing import add_push_arguments, pushing
from voice.live.transcript import play_transcript
from voice.match_record.database import Record
from voice.match_record.ledger import Ledger
from voice.translation import _


def register(sub: Subcommands) -> None:
    """Add `simulate` to the command line."""
    sim = add_command(sub, "simulate", _("run a new, recorded match from transcribed phrases"))
    add_setup_arguments(sim)
    add_play_arguments(sim)
    add_push_arguments(sim, names=False)
    sim.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """`referee simulate`."""
    setup = setup_from(args)
    lines, where = read_lines(args.input)
    voice = printer(args)
    with Record.open(args.db) as record, pushing(args, args.db):
        match_id = record.create_match(setup)
        say_recording(match_id, args.db)
        play_transcript(Ledger(record, match_id), lines, voice, where)
    return 0
