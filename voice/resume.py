"""`referee resume [MATCH]`: continue an interrupted match exactly where its record stops."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from rules.command import Command, Kind
from voice.announcer import Speaker
from voice.arguments import UsageError, match_number
from voice.ledger import Ledger
from voice.record import Record
from voice.simulate import add_play_arguments, announcer, play, read_lines


def register(sub: argparse._SubParsersAction) -> None:
    """Add `resume` to the command line."""
    resume = sub.add_parser("resume", help="continue a recorded match (the latest by default)")
    resume.add_argument(
        "match", nargs="?", type=match_number, metavar="MATCH",
        help="the match number, as `referee matches` lists (default: the latest played)",
    )
    add_play_arguments(resume)
    resume.set_defaults(run=run)


def catch_up(ledger: Ledger, voice: Speaker, voiced: Callable[[int], None]) -> None:
    """Voice what was recorded but never announced, then the score.

    `voiced(seq)` runs once an event's announcements have been voiced.
    """
    for seq, said in ledger.unannounced():
        voice.say(said, done=lambda seq=seq: voiced(seq))
    voice.say(ledger.command(Command(Kind.SCORE)))


def run(args: argparse.Namespace) -> int:
    """`referee resume`."""
    lines, where = read_lines(args.input)
    voice = announcer(args)
    with Record.open(args.db, create=False) as record:
        match_id = record.latest() if args.match is None else args.match
        if match_id is None:
            raise UsageError(
                f"{args.db} holds no match to resume; "
                f"start one with `referee simulate --db {args.db}`"
            )
        ledger = Ledger(record, match_id)
        catch_up(ledger, voice, ledger.mark_announced)
        play(ledger, voice, lines, where)
    return 0
