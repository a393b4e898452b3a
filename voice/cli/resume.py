"""`referee resume [MATCH]`: continue an interrupted match exactly where its record stops."""

from __future__ import annotations

import argparse

from voice.cli.arguments import (
    Subcommands,
    UsageError,
    add_command,
    add_play_arguments,
    match_number,
    printer,
    read_lines,
    say_recording,
)
from voice.cli.pushing import add_push_arguments, pushing
from voice.live.catch_up import catch_up
from voice.live.transcript import play_transcript
from voice.match_record.database import Record
from voice.match_record.ledger import Ledger
from voice.translation import N_, _


def register(sub: Subcommands) -> None:
    """Add `resume` to the command line."""
    resume = add_command(sub, "resume", _("continue a recorded match (the latest by default)"))
    resume.add_argument(
        "match", nargs="?", type=match_number, metavar="MATCH",
        help=_("the match number, as `referee matches` lists (default: the latest played)"),
    )
    add_play_arguments(resume)
    add_push_arguments(resume)
    resume.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """`referee resume`."""
    lines, where = read_lines(args.input)
    voice = printer(args)
    with Record.open(args.db, create=False) as record, pushing(args, args.db):
        match_id = record.latest() if args.match is None else args.match
        if match_id is None:
            raise UsageError(
                N_("{path} holds no match to resume; start one with `referee simulate --db "
                   "{path}`"), path=args.db,
            )
        ledger = Ledger(record, match_id)
        say_recording(match_id, args.db)
        catch_up(ledger, voice, ledger.mark_announced)
        play_transcript(ledger, lines, voice, where)
    return 0
