"""The `referee` command line: each subcommand lives in its own module and registers itself."""

from __future__ import annotations

import sys

from voice import (
    demo,
    devices_cli,
    export,
    listen,
    live,
    matches,
    model_cli,
    resume,
    serve,
    simulate,
)
from voice.arguments import Parser, UsageError, one_line
from voice.record import RecordError

COMMANDS = (simulate, resume, matches, export, live, listen, devices_cli, model_cli, serve, demo)


def parser() -> Parser:
    """The argument parser with every subcommand."""
    main = Parser(prog="referee", description="Voice assistant for the carom referee.")
    sub = main.add_subparsers(dest="command", required=True, parser_class=Parser)
    for module in COMMANDS:
        module.register(sub)
    return main


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    args = parser().parse_args(argv)
    try:
        return args.run(args)
    except (UsageError, RecordError) as error:
        sys.stderr.write(f"referee {args.command}: error: {one_line(str(error))}\n")
        return 2


if __name__ == "__main__":
    sys.exit(main())
