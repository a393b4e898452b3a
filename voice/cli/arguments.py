"""Shared command-line pieces: a one-line-error parser, the match set-up, the record, a match."""

from __future__ import annotations

import argparse
import io
import re
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import NoReturn, TypeAlias

from rules.discipline import DISCIPLINES
from rules.errors import RefereeError
from rules.normalise import normalise
from rules.state import Setup
from rules.vocabulary import DEFAULT_THRESHOLD
from voice.hearing.phrase_table import PhraseTable
from voice.match_record.database import MAX_MATCH_ID, default_path
from voice.speaking.printer import Printer

# What each command module's register() adds its subcommand to.
Subcommands: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"

LINE_BREAKS = re.compile("[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")


def one_line(text: str) -> str:
    """`text` with any line break written as an escape, so that a message stays one line."""
    return LINE_BREAKS.sub(lambda found: repr(found.group())[1:-1], text)


class UsageError(RefereeError):
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


def add_threshold_argument(parser: argparse.ArgumentParser) -> None:
    """--threshold: the confidence free-form text needs to become a command."""
    parser.add_argument("--threshold", type=confidence, default=DEFAULT_THRESHOLD,
                        help="the confidence (0-100) a phrase not heard exactly needs "
                        f"(default: {DEFAULT_THRESHOLD:g})")


def add_early_argument(parser: argparse.ArgumentParser) -> None:
    """--early: also act on a complete partial result before the endpoint (off: see README)."""
    parser.add_argument(
        "--early", action="store_true",
        help="also commit a complete phrase from a partial result, before the endpoint "
        "(faster for some phrases, but makes false commits)",
    )


def add_phrase_table_argument(parser: argparse.ArgumentParser) -> None:
    """--phrase-table: for testing the pipeline with a model of another language."""
    parser.add_argument("--phrase-table", type=Path, metavar="TOML",
                        help='testing with a non-Greek model: a TOML file of `word = "Greek '
                        'text"` lines; the grammar is spelled in these words')


def phrase_table(path: Path | None) -> PhraseTable | None:
    """The table at `path` (None without one); UsageError naming the file's fault."""
    try:
        return PhraseTable.load(path) if path else None
    except ValueError as error:
        raise UsageError(f"--phrase-table: {error}") from None


def add_play_arguments(parser: argparse.ArgumentParser) -> None:
    """--input, --jsonl, --wav and --db: what `simulate` and `resume` share."""
    parser.add_argument("--input", help="UTF-8 file, one phrase a line (default: standard input)")
    parser.add_argument("--jsonl", action="store_true", help="one JSON object per announcement")
    parser.add_argument("--wav", type=Path, help="also render each PA announcement to a WAV here")
    add_db_argument(parser)


def read_lines(path: str | None) -> tuple[Iterable[str], str]:
    """The input's lines (standard input when no path) and how to name it in errors."""
    if path is None:
        return io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8"), "standard input"
    where = f"--input {path}"
    try:
        return Path(path).read_text(encoding="utf-8").splitlines(), where
    except UnicodeDecodeError as error:
        raise UsageError(f"{where} is not UTF-8 text: {error}") from None
    except OSError as error:
        raise UsageError(f"cannot read {where}: {error.strerror}") from None
    except ValueError as error:  # a path with a NUL character in it
        raise UsageError(f"cannot read {where}: {error}") from None


def printer(args: argparse.Namespace) -> Printer:
    """The text announcer that --jsonl and --wav ask for, writing to standard output."""
    return Printer(sys.stdout, args.jsonl, args.wav)
