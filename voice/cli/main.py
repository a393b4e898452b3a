"""The `referee` command line: each subcommand lives in the module named after it."""

from __future__ import annotations

import os
import signal
import sys

from rules.errors import RefereeError
from voice.cli import (
    calibrate,
    config,
    correct,
    demo,
    devices,
    export,
    listen,
    matches,
    model,
    resume,
    run,
    serve,
    simulate,
    understand,
)
from voice.cli.arguments import Parser, one_line
from voice.devices import NoDevice
from voice.hearing.microphone import MicrophoneError
from voice.hearing.model import ModelError
from voice.hearing.profile import ProfileError
from voice.live.transcript import TranscriptError
from voice.match_record.corrections import CorrectionRefused
from voice.match_record.database import (
    DamagedRecord,
    NewerRecord,
    NoRecord,
    NoSuchMatch,
    NotARecord,
)
from voice.settings import SettingsError

# How to mend each fault the layers below report, in the command line's words.
FIXES: dict[type[RefereeError], str] = {
    NoRecord: "start a match with `referee simulate --db {path}`",
    NoSuchMatch: "`referee matches --db {path}` lists them",
    NotARecord: "choose another file with --db",
    DamagedRecord: "restore it from a backup, or salvage what it holds with "
    "`sqlite3 {path} .recover`",
    NewerRecord: "it may come from another version of carom-referee: open it with the version "
    "that recorded it, or upgrade to a newer carom-referee",
    TranscriptError: "`referee resume {match_id} --db {path}` continues it",
    CorrectionRefused: "nothing was changed; `referee export {match_id} --db {path}` shows "
    "each inning's points",
    ModelError: "download vosk-model-el-gr-0.7 and unpack it into models/ "
    "(see models/README.md), or run `referee model fetch`",
    MicrophoneError: "check that it is plugged in and no other program holds it "
    "(`referee devices` lists the devices), then start again",
    SettingsError: "mend it, or see every key and what it allows in the file "
    "`referee config init --config NEW.toml` writes",
    ProfileError: "write a fresh one with `referee calibrate --profile PATH`",
    NoDevice: "connect one, or use `referee listen --wav FILE` / `referee simulate` without audio",
}

# The exit code of a program its output's reader left, as a shell reports `cat` killed by SIGPIPE.
PIPE_CLOSED = 128 + signal.SIGPIPE

COMMANDS = (
    simulate, resume, matches, export, correct, run, listen, devices, model, serve, demo, config,
    calibrate, understand,
)


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
        code = int(args.run(args))
        sys.stdout.flush()  # a closed pipe shows here, not as an error while Python exits
        return code
    except BrokenPipeError:  # whoever read our output left (`| head`): stop as `cat` would
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # nothing more to flush
        return PIPE_CLOSED
    except RefereeError as error:
        sys.stderr.write(f"referee {args.command}: error: {one_line(explain(error))}\n")
        return 2
    except KeyboardInterrupt:  # Ctrl-C: what was taken is recorded; nothing more to say
        sys.stderr.write("stopped\n")
        return 0


def explain(error: RefereeError) -> str:
    """The fault, and how to mend it where the command line knows how."""
    fix = next((text for kind, text in FIXES.items() if isinstance(error, kind)), None)
    return str(error) if fix is None else f"{error}; {fix.format_map(vars(error))}"


if __name__ == "__main__":
    sys.exit(main())
