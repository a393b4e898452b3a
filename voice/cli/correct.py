"""`referee correct MATCH`: correct a past inning's points, insert a forgotten round or delete a
spurious one."""

from __future__ import annotations

import argparse
from contextlib import closing
from typing import NoReturn

from rules.command import Command, Kind
from rules.normalise import normalise
from voice.cli.arguments import (
    Subcommands,
    UsageError,
    add_command,
    add_db_argument,
    integer,
    match_number,
    positive,
    printer,
    say_recording,
)
from voice.cli.reading import hall_record
from voice.match_record.corrections import record_correction
from voice.match_record.database import Record
from voice.match_record.ledger import Ledger
from voice.translation import N_, _


def register(sub: Subcommands) -> None:
    """Add `correct` to the command line."""
    fix = add_command(sub, "correct", _("correct a past inning of a recorded match"))
    fix.add_argument("match", type=match_number, metavar="MATCH",
                     help=_("the match number, as `referee matches` lists"))
    fix.add_argument("--inning", type=positive, required=True, metavar="K",
                     help=_("the inning's number, from 1"))
    fix.add_argument("--player", help=_("the surname whose inning K is corrected"))
    fix.add_argument("--points", type=integer, help=_("inning K's points as they should be"))
    rounds = fix.add_mutually_exclusive_group()
    rounds.add_argument("--insert", action="store_true",
                        help=_("instead: insert a forgotten round before inning K, a miss of each "
                        "player"))
    rounds.add_argument("--delete", action="store_true",
                        help=_("instead: delete round K, the inning K of each player"))
    fix.add_argument("--jsonl", action="store_true", help=_("one JSON object per announcement"))
    add_db_argument(fix, hall=True)
    fix.set_defaults(run=run, wav=None)


def run(args: argparse.Namespace) -> int:
    """`referee correct`."""
    if args.insert and (args.player is not None or args.points is not None):
        raise UsageError(N_("--insert takes no --player or --points: the round has no point"))
    if args.delete and (args.player is not None or args.points is not None):
        raise UsageError(N_("--delete takes no --player or --points: it deletes both innings"))
    if not (args.insert or args.delete) and (args.player is None or args.points is None):
        raise UsageError(N_("a correction needs --player and --points (or --insert or --delete)"))
    if isinstance(args.db, str):
        refuse_in_hall(args.db, args.match)
    voice = printer(args)
    with Record.open(args.db, create=False) as record:
        ledger = Ledger(record, args.match)
        if args.insert:
            command = Command(Kind.INSERT_INNING, inning=args.inning)
        elif args.delete:
            command = Command(Kind.DELETE_INNING, inning=args.inning)
        else:
            command = Command(Kind.CORRECT, player=_surname(ledger, args.player),
                              inning=args.inning, points=args.points)
        # A refused correction records nothing and says nothing.
        said = record_correction(ledger, command)
        say_recording(args.match, args.db)
        voice.say(said)
        if ledger.written is not None:
            ledger.mark_announced(ledger.written)
        voice.state(ledger.match)
    return 0


def refuse_in_hall(conninfo: str, match_id: int) -> NoReturn:
    """UsageError: the hall's copy is never corrected; it names the table whose record is."""
    with closing(hall_record(conninfo)) as hall:
        at = hall.place(match_id)
    raise UsageError(
        N_("match {match} of the hall is match {local} of table {table}, whose own record is "
           "the one kept: correct it there (`referee correct {local} --db RECORD` on that "
           "table's machine) and its push brings the correction to the hall"),
        match=match_id, local=at.local, table=at.table,
    )


def _surname(ledger: Ledger, given: str) -> str:
    players = [p.surname for p in ledger.match.players]
    named = [p for p in players if normalise(p) == normalise(given)]
    if not named:
        raise UsageError(N_("--player {given!r} is neither of the players {players}"),
                         given=given, players=tuple(players))
    return named[0]
