"""Shared command-line pieces: a one-line-error parser, the match set-up, the record, a match."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import NoReturn

from rules.discipline import DISCIPLINES
from rules.normalise import normalise
from rules.state import Setup
from voice.record import default_path

MAX_MATCH_ID = 2**63 - 1  # SQLite's largest integer


LINE_BREAKS = re.compile("[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")


def one_line(text: str) -> str:
    """`text` with any line break written as an escape, so that a message stays one line."""
    return LINE_BREAKS.sub(lambda found: repr(found.group())[1:-1], text)


class UsageError(Exception):
    """Bad arguments or input: reported as one line, exit code 2."""


class Parser(argparse.ArgumentParser):
    """An argparse parser that reports a mistake in one line and exits with 2."""

    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"{self.prog}: error: {one_line(message)} (see --help)\n")
        raise SystemExit(2)


SETUP_ARGUMENTS = ("discipline", "distance", "players", "first")


def add_setup_arguments(parser: argparse.ArgumentParser, required: bool = True) -> None:
    """--discipline, --distance, --players and --first."""
    parser.add_argument("--discipline", required=required, choices=list(DISCIPLINES))
    parser.add_argument("--distance", required=required, type=int, help="points to play")
    parser.add_argument(
        "--players", required=required, help='the two surnames, "SURNAME_A,SURNAME_B"'
    )
    parser.add_argument("--first", help="the surname of the player who breaks (default: A)")


def setup_from(args: argparse.Namespace) -> Setup:
    """The match set-up the arguments describe; UsageError saying what is wrong."""
    missing = [f"--{name}" for name in SETUP_ARGUMENTS[:3] if getattr(args, name) is None]
    if missing:
        raise UsageError(f"a new match needs {', '.join(missing)}")
    players = tuple(name.strip() for name in args.players.split(","))
    if len(players) != 2:
        raise UsageError(f'--players needs exactly two surnames "A,B", got {args.players!r}')
    first = 0
    if args.first is not None:
        named = [i for i, p in enumerate(players) if normalise(p) == normalise(args.first)]
        if not named:
            raise UsageError(f"--first {args.first!r} is neither of the players {players}")
        first = named[0]
    try:
        return Setup(args.discipline, args.distance, players, first)
    except ValueError as error:
        raise UsageError(str(error)) from None


def add_db_argument(parser: argparse.ArgumentParser) -> None:
    """--db: the match record file, by default in the user's data directory."""
    default = default_path()
    parser.add_argument(
        "--db", type=Path, default=default, help=f"the match record file (default: {default})"
    )


def match_number(text: str) -> int:
    """An argparse type: a match number as `referee matches` lists them."""
    try:
        number = int(text)
    except ValueError:
        number = 0
    if not 1 <= number <= MAX_MATCH_ID:
        raise argparse.ArgumentTypeError(
            f"{text[:40]!r} is not a match number; `referee matches` lists them"
        )
    return number


def confidence(text: str) -> float:
    """An argparse type: a confidence threshold from 0 to 100."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value <= 100:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a confidence from 0 to 100")
    return value
