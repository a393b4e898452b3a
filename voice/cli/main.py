"""The `referee` command line: each subcommand lives in the module named after it."""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable
from importlib.metadata import version
from pathlib import Path

from rules.errors import RefereeError
from voice.cli import (
    calibrate,
    config,
    correct,
    demo,
    devices,
    echo,
    export,
    listen,
    matches,
    model,
    push,
    resume,
    run,
    serve,
    simulate,
    understand,
)
from voice.cli.arguments import Parser, one_line
from voice.devices import CannotOpen, NoDevice
from voice.hearing.fetch import NoRoom
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
from voice.settings import SettingsError, load
from voice.translation import N_, gettext, use
from voice.translation import fault as translated

# How to mend each fault the layers below report, in the command line's words.
FIXES: dict[type[RefereeError], str] = {
    NoRecord: N_("start a match with `referee simulate --db {path}`"),
    NoSuchMatch: N_("`referee matches --db {path}` lists them"),
    NotARecord: N_("choose another file with --db"),
    DamagedRecord: N_("restore it from a backup, or salvage what it holds with "
                      "`sqlite3 {path} .recover`"),
    NewerRecord: N_("it may come from another version of carom-referee: open it with the "
                    "version that recorded it, or upgrade to a newer carom-referee"),
    TranscriptError: N_("`referee resume {match_id} --db {path}` continues it"),
    CorrectionRefused: N_("nothing was changed; `referee export {match_id} --db {path}` "
                          "shows each inning's points"),
    ModelError: N_("download vosk-model-el-gr-0.7 and unpack it into models/ "
                   "(see models/README.md), or run `referee model fetch`"),
    CannotOpen: N_("check that it is plugged in and no other program holds it "
                         "(`referee devices` lists the devices), then start again"),
    SettingsError: N_("mend it, or see every key and what it allows in the file "
                      "`referee config init --config NEW.toml` writes"),
    ProfileError: N_("write a fresh one with `referee calibrate --profile PATH`"),
    NoRoom: N_("free some space, or fetch it elsewhere with `referee model fetch --dest DIR`"),
    NoDevice: N_("connect one, or use `referee listen --wav FILE` / `referee simulate` "
                   "without audio"),
}

# The exit code of a program its output's reader left, as a shell reports `cat` killed by SIGPIPE.
PIPE_CLOSED = 128 + signal.SIGPIPE

COMMANDS = (
    simulate, resume, matches, export, correct, run, listen, devices, model, serve, push, demo,
    config, calibrate, echo, understand,
)


def parser() -> Parser:
    """The argument parser with every subcommand."""
    main = Parser(prog="referee", description=gettext("Voice assistant for the carom referee."))
    main.add_argument("--version", action="version",
                      version=f"%(prog)s {version('carom-referee')}",
                      help=gettext("show the version and exit"))
    sub = main.add_subparsers(dest="command", required=True, parser_class=Parser,
                              title=gettext("commands"), metavar="COMMAND")
    for module in COMMANDS:
        module.register(sub)
    return main


def language(argv: list[str]) -> str | None:
    """The hall's choice of language in its settings file (--config's, else the default one);
    None to follow the locale, also when the file is unusable (the command then says why)."""
    given = [a.partition("=")[2] for a in argv if a.startswith("--config=")]
    given += [argv[i + 1] for i, a in enumerate(argv[:-1]) if a == "--config"]
    try:
        return load(Path(given[-1]) if given else None).language
    except (RefereeError, ValueError):  # ValueError: a NUL character in the path
        return None


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    argv = sys.argv[1:] if argv is None else argv
    use(language(argv))
    if not argv:  # what the command can do, then the exit code of every usage mistake
        parser().print_help()
        return 2
    args = parser().parse_args(argv)
    try:
        code = int(args.run(args))
        sys.stdout.flush()  # a closed pipe shows here, not as an error while Python exits
        return code
    except BrokenPipeError:  # whoever read our output left (`| head`): stop as `cat` would
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # nothing more to flush
        return PIPE_CLOSED
    except RefereeError as error:
        line = _speaker(error)(N_("referee {command}: error: {fault}"))
        sys.stderr.write(one_line(line.format(command=args.command, fault=explain(error))) + "\n")
        return 2
    except KeyboardInterrupt:  # Ctrl-C: what was taken is recorded; nothing more to say
        sys.stderr.write(gettext("stopped") + "\n")
        return 0


def explain(error: RefereeError) -> str:
    """The fault, and how to mend it where the command line knows how."""
    say = _speaker(error)
    fault = translated(error) or str(error)
    fix = next((text for kind, text in FIXES.items() if isinstance(error, kind)), None)
    if fix is not None:
        fault = say(N_("{fault}; {fix}")).format(fault=fault, fix=say(fix).format_map(vars(error)))
    return fault


def _speaker(error: RefereeError) -> Callable[[str], str]:
    """The language in use when the catalogue holds the fault, else English: no line mixes."""
    return gettext if translated(error) is not None else _english


def _english(message: str) -> str:
    return message


if __name__ == "__main__":
    sys.exit(main())
