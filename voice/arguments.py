"""Shared command-line pieces: a parser whose errors are one line, and the match set-up."""

from __future__ import annotations

import argparse
import sys
from typing import NoReturn

from rules.discipline import DISCIPLINES
from rules.normalise import normalise
from rules.state import Setup


class UsageError(Exception):
    """Bad arguments or input: reported as one line, exit code 2."""


class Parser(argparse.ArgumentParser):
    """An argparse parser that reports a mistake in one line and exits with 2."""

    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"{self.prog}: error: {message} (see --help)\n")
        raise SystemExit(2)


def add_setup_arguments(parser: argparse.ArgumentParser) -> None:
    """--discipline, --distance, --players and --first."""
    parser.add_argument("--discipline", required=True, choices=list(DISCIPLINES))
    parser.add_argument("--distance", required=True, type=int, help="points to play")
    parser.add_argument(
        "--players", required=True, help='the two surnames, "SURNAME_A,SURNAME_B"'
    )
    parser.add_argument("--first", help="the surname of the player who breaks (default: A)")


def setup_from(args: argparse.Namespace) -> Setup:
    """The match set-up the arguments describe; UsageError saying what is wrong."""
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
