"""The `referee` command line."""

from __future__ import annotations

import argparse
import io
import sys
from importlib.resources import files
from pathlib import Path

from rules.state import new_match
from voice.arguments import Parser, UsageError, add_setup_arguments, setup_from
from voice.session import Session
from voice.simulate import simulate


def _simulate(args: argparse.Namespace) -> int:
    setup = setup_from(args)
    if args.input is None:
        lines = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8")
        where = "standard input"
    else:
        where = f"--input {args.input}"
        try:
            lines = Path(args.input).read_text(encoding="utf-8").splitlines()
        except OSError as error:
            raise UsageError(f"cannot read {where}: {error.strerror}") from None
        except UnicodeDecodeError as error:
            raise UsageError(f"{where} is not UTF-8 text: {error}") from None
    try:
        simulate(Session(new_match(setup)), lines, sys.stdout, args.jsonl, args.wav)
    except UnicodeDecodeError as error:
        raise UsageError(f"{where} is not UTF-8 text: {error}") from None
    return 0


def _demo(args: argparse.Namespace) -> int:
    from voice.demo import demo

    script = files("voice").joinpath("demo.txt").read_text(encoding="utf-8").splitlines()
    return demo(script, args.wav, sys.stdout)


def parser() -> Parser:
    """The argument parser with every subcommand."""
    main = Parser(prog="referee", description=__doc__)
    sub = main.add_subparsers(dest="command", required=True, parser_class=Parser)

    sim = sub.add_parser("simulate", help="run a match from transcribed phrases")
    add_setup_arguments(sim)
    sim.add_argument("--input", help="UTF-8 file, one phrase a line (default: standard input)")
    sim.add_argument("--jsonl", action="store_true", help="one JSON object per announcement")
    sim.add_argument("--wav", type=Path, help="also render each PA announcement to a WAV here")
    sim.set_defaults(run=_simulate)

    demo = sub.add_parser("demo", help="play a short demo match through the Greek voice")
    demo.add_argument(
        "--wav", type=Path, default=Path("demo-wav"),
        help="where the WAV files go when there is no sound card (default: demo-wav)",
    )
    demo.set_defaults(run=_demo)
    return main


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    args = parser().parse_args(argv)
    try:
        return args.run(args)
    except UsageError as error:
        sys.stderr.write(f"referee {args.command}: error: {error}\n")
        return 2


if __name__ == "__main__":
    sys.exit(main())
