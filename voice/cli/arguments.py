"""Shared command-line pieces: a one-line-error parser, the match set-up, the record, a match."""

from __future__ import annotations

import argparse
import io
import re
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any, NoReturn, TypeAlias, TypeVar

from rules.discipline import DISCIPLINES, SetupError
from rules.errors import RefereeError
from rules.normalise import normalise
from rules.shot_clock import WARNING_BEFORE
from rules.state import MAX_DISTANCE, MAX_SETS, PLAYOFF_POINTS, WARM_UP_SECONDS, OnTie, Setup
from rules.vocabulary import MAX_THRESHOLD, MIN_THRESHOLD
from voice import devices
from voice.hearing.endpoint import MAX_ENDPOINT_MS, MIN_ENDPOINT_MS
from voice.hearing.phrase_table import PhraseTable, PhraseTableError
from voice.hearing.profile import Profile, load_profile
from voice.match_record.database import MAX_MATCH_ID, default_path
from voice.settings import Settings, Source, load
from voice.settings import default_path as default_settings_path
from voice.speaking.printer import Printer
from voice.speaking.surnames import spelling_doubt
from voice.translation import N_, _

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
        line = _("{prog}: error: {message} (see --help)").format(prog=self.prog, message=message)
        sys.stderr.write(one_line(line) + "\n")
        raise SystemExit(2)


P = TypeVar("P", bound=argparse.ArgumentParser)


def add_command(sub: argparse._SubParsersAction[P], name: str, what: str) -> P:
    """The subcommand `name`, which does `what` (in the list of commands and atop its --help)."""
    return sub.add_parser(name, help=what, description=what[:1].upper() + what[1:] + ".")


SETUP_ARGUMENTS = ("discipline", "distance", "players", "first")


def add_setup_arguments(parser: argparse.ArgumentParser, required: bool = True) -> None:
    """--discipline, --distance, --players and --first."""
    parser.add_argument("--discipline", required=required, choices=list(DISCIPLINES))
    parser.add_argument(
        "--distance", required=required, type=distances,
        help=_('points to play; "A,B": each player his own (a handicap), in the order of '
               '--players'),
    )
    parser.add_argument(
        "--players", required=required,
        help=_('the two surnames, "SURNAME_A,SURNAME_B"; each may add how it is said: '
        '"ΠΑΠΑΔΟΠΟΥΛΟΣ=Παπαδόπουλος,Jaspers=Γιάσπερς"'),
    )
    parser.add_argument("--first", help=_("the surname of the player who breaks (default: A)"))
    add_format_arguments(parser)


def add_format_arguments(parser: argparse.ArgumentParser) -> None:
    """The competition format: --innings, --on-tie, --sets, --warm-up, --shot-clock,
    --time-outs, --no-equalising; --hall, --table, --referee, --scorer."""
    parser.add_argument("--innings", type=positive, metavar="N",
                        help=_("an innings limit: the match ends when both have played N innings"))
    parser.add_argument("--on-tie", type=tie_rule, default=(OnTie.EXTENSION, None),
                        metavar="{extension,draw,playoff[:POINTS]}",
                        help=_("equal points at the distance or the innings limit: the Article 4 "
                               "extension (default), a draw, or a play-off to POINTS (default "
                               "{points})").format(points=PLAYOFF_POINTS))
    parser.add_argument("--sets", type=positive, metavar="N",
                        help=_("best of N sets (odd, up to {most}), each to the distance; the "
                               "break alternates").format(most=MAX_SETS))
    parser.add_argument("--warm-up", type=positive, metavar="MINUTES",
                        default=WARM_UP_SECONDS // 60,
                        help=_("how long a warm-up lasts (default: {minutes})")
                        .format(minutes=WARM_UP_SECONDS // 60))
    parser.add_argument("--shot-clock", type=positive, metavar="SECONDS",
                        help=_("a shot clock: SECONDS per shot (UMB three-cushion: 30), a warning "
                               "{seconds} s before the end").format(seconds=WARNING_BEFORE))
    parser.add_argument("--time-outs", type=whole, metavar="N",
                        help=_("with --shot-clock: time-outs per player, each one more period "
                               "(UMB: 3 in matches to 25-35 points, 4 to 40-50)"))
    parser.add_argument("--no-equalising", dest="equalising", action="store_false",
                        help=_("knock-out: the first to his distance wins at once, without the "
                               "equalising inning"))
    parser.add_argument("--hall", help=_("the hall played in, for the protocol, the board and "
                                         "the hall's PostgreSQL (`run`: default hall.name)"))
    parser.add_argument("--table", help=_("the table played on, for the protocol, the board and "
                                          "the hall's PostgreSQL (`run`: default hall.table)"))
    parser.add_argument("--referee", help=_("the referee's name, for the protocol"))
    parser.add_argument("--scorer", help=_("who keeps the score sheet, for the protocol"))


def tie_rule(text: str) -> tuple[OnTie, int | None]:
    """An argparse type: what a tie brings, and a play-off's points if given."""
    name, colon, points = text.partition(":")
    if name in set(OnTie) and not colon:
        return OnTie(name), None
    given = int(points) if points.isascii() and points.isdigit() else 0
    if name == OnTie.PLAYOFF and 1 <= given <= MAX_DISTANCE:
        return OnTie.PLAYOFF, given
    raise argparse.ArgumentTypeError(
        _("{text!r} is not extension, draw, playoff or playoff:POINTS (POINTS from 1 to {most})")
        .format(text=text[:40], most=MAX_DISTANCE))


def distances(text: str) -> tuple[int, ...]:
    """An argparse type: one distance, or two apart by a comma."""
    try:
        values = tuple(int(part) for part in text.split(","))
    except ValueError:
        values = ()
    if len(values) not in (1, 2):
        raise argparse.ArgumentTypeError(
            _('{text!r} is not a distance: give one number, or "A,B" for a handicap')
            .format(text=text[:40]))
    return values


N = TypeVar("N", int, float)  # the kinds of number an argument may be


def within(text: str, kind: type[N], low: N, high: N | None, what: str) -> N:
    """`text` as a `kind` from `low` to `high` (None: no bound); else an argparse error saying
    that it is not `what` (a catalogued template of {low} and {high})."""
    try:
        value = kind(text)
    except ValueError:
        value = None
    if value is None or value != value or value < low or (high is not None and value > high):
        raise argparse.ArgumentTypeError(_("{text!r} is not {what}").format(
            text=text[:40], what=_(what).format(low=low, high=high)))
    return value


def positive(text: str) -> int:
    """An argparse type: a whole number from 1."""
    return within(text, int, 1, None, N_("a whole number from {low}"))


def integer(text: str) -> int:
    """An argparse type: any whole number."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_("{text!r} is not a whole number").format(
            text=text[:40])) from None


def whole(text: str) -> int:
    """An argparse type: a whole number from 0."""
    return within(text, int, 0, None, N_("a whole number from {low}"))


def setup_details(args: argparse.Namespace, hall: Settings | None) -> dict[str, Any]:
    """The `Setup` keyword arguments of the distance(s), the competition format, the hall, the
    table, the referee and the scorer; the hall's and the table's names, the sets, the shot
    clock and the time-outs, when not given, as the hall's settings say (`hall`)."""
    given = args.distance

    def chosen(name: str, setting: str | None = None) -> Any:
        """The argument given, else the hall's `setting` (its name by default; None: neither)."""
        value = getattr(args, name)
        return value if value is not None or hall is None else getattr(hall, setting or name)

    shot_clock = chosen("shot_clock")
    return {
        "distance": max(given),
        "handicap": None if len(given) == 1 or given[0] == given[1] else given,
        "innings_limit": args.innings,
        "on_tie": args.on_tie[0],
        "playoff_points": args.on_tie[1] or PLAYOFF_POINTS,
        "sets": chosen("sets"),
        "warm_up_seconds": args.warm_up * 60,
        "hall": chosen("hall", "name"),
        "table": chosen("table"),
        "referee": args.referee,
        "scorer": args.scorer,
        "shot_clock": shot_clock,
        # the hall's time-outs go with a shot clock; given alone, they are the set-up's to refuse
        "time_outs": chosen("time_outs") if shot_clock is not None else args.time_outs,
        "equalising": args.equalising,
    }


def setup_from(args: argparse.Namespace, hall: Settings | None = None) -> Setup:
    """The match set-up the arguments describe, with the hall's settings for the format where
    given (`referee run`); UsageError saying what is wrong."""
    missing = [f"--{name}" for name in SETUP_ARGUMENTS[:3] if getattr(args, name) is None]
    if missing:
        raise UsageError(N_("a new match needs {missing}"), missing=", ".join(missing))
    given = [name.partition("=") for name in args.players.split(",")]
    players = tuple(written.strip() for written, _, _ in given)
    spoken = tuple((said if equals else written).strip() for written, equals, said in given)
    if len(players) != 2:
        raise UsageError(N_('--players needs exactly two surnames "A,B", got {given!r}'),
                         given=args.players)
    first = 0
    if args.first is not None:
        names = [{normalise(p), normalise(s)} for p, s in zip(players, spoken, strict=True)]
        named = [i for i, heard in enumerate(names) if normalise(args.first) in heard]
        if not named:
            raise UsageError(N_("--first {first!r} is neither of the players {players}"),
                             first=args.first, players=players)
        first = named[0]
    try:
        setup = Setup(args.discipline, players=players, first=first, spoken=spoken,
                      **setup_details(args, hall))
    except SetupError as error:
        raise UsageError(error.message, **error.fields) from None
    for (_written, equals, _said), name, said in zip(given, players, spoken, strict=True):
        doubt = spelling_doubt(said)
        if doubt and not equals:
            sys.stderr.write(_(
                "warning: --players {name!r} is {doubt}, which the Greek voice may say wrongly; "
                "add how it is said: \"{name}=<Greek, accented>\""
            ).format(name=name, doubt=_(doubt)) + "\n")
        elif doubt:
            sys.stderr.write(_(
                "warning: --players spoken form {said!r} is {doubt}, which the Greek voice may "
                "say wrongly; write it as it is said: \"{name}=<Greek, accented>\""
            ).format(said=said, name=name, doubt=_(doubt)) + "\n")
    return setup


HALL_SCHEMES = ("postgresql://", "postgres://")  # --db names the hall's PostgreSQL by a URL


def add_db_argument(parser: argparse.ArgumentParser, hall: bool = False) -> None:
    """--db: the match record file, by default in the user's data directory; with `hall`, or
    the hall's PostgreSQL (its URL, kept as text)."""
    default = default_path()
    if not hall:
        parser.add_argument(
            "--db", type=Path, default=default,
            help=_("the match record file (default: {path})").format(path=default),
        )
        return
    parser.add_argument(
        "--db", type=record_or_hall, default=default,
        help=_("the match record file (default: {path}), or the hall's PostgreSQL, "
               "postgresql://USER@HOST/DATABASE (libpq's PG* variables and service file fill "
               "in what it leaves out)").format(path=default),
    )


def record_or_hall(text: str) -> Path | str:
    """An argparse type: a record file's path, or the hall's PostgreSQL URL as given."""
    return text if text.startswith(HALL_SCHEMES) else Path(text)


def match_number(text: str) -> int:
    """An argparse type: a match number as `referee matches` lists them."""
    return within(text, int, 1, MAX_MATCH_ID, N_("a match number; `referee matches` lists them"))


def confidence(text: str) -> float:
    """An argparse type: a confidence threshold."""
    return within(text, float, MIN_THRESHOLD, MAX_THRESHOLD,
                  N_("a confidence from {low:g} to {high:g}"))


def add_threshold_argument(parser: argparse.ArgumentParser) -> None:
    """--threshold: the confidence free-form text needs to become a command."""
    parser.add_argument("--threshold", type=confidence,
                        help=_("the confidence ({low:g}-{high:g}) a phrase not heard exactly "
                               "needs (default: hearing.threshold, {default:g})").format(
                            low=MIN_THRESHOLD, high=MAX_THRESHOLD, default=Settings.threshold))


def milliseconds(text: str) -> int:
    """An argparse type: an endpoint in milliseconds."""
    return within(text, int, MIN_ENDPOINT_MS, MAX_ENDPOINT_MS,
                  N_("a whole number of milliseconds from {low} to {high}"))


def add_settings_arguments(parser: argparse.ArgumentParser, endpoint: bool = True) -> None:
    """--config and --profile (and --endpoint): where the hall's and the referee's values are."""
    parser.add_argument("--config", type=Path, metavar="PATH",
                        help=_("the hall's settings file (default: {path})")
                        .format(path=default_settings_path()))
    parser.add_argument("--profile", type=Path, metavar="PATH",
                        help=_("the referee's profile, written by `referee calibrate`"))
    if endpoint:
        parser.add_argument("--endpoint", type=milliseconds, metavar="MS",
                            help="non-speech that ends a phrase, in milliseconds (default: "
                            f"hearing.endpoint_ms, {Settings.endpoint_ms})")


def find_device(chosen: str | None, name: str, kind: str) -> devices.Device:
    """The `kind` ("input", "output") device the command line or the hall's settings name for
    --`name`; UsageError when neither does."""
    if chosen is None:
        raise UsageError(N_("no --{name} given and devices.{name} is not set in the hall's "
                            "settings (`referee config show`)"), name=name)
    return devices.find(chosen, kind, f"--{name}")


def settings_from(args: argparse.Namespace, **given: object) -> tuple[Settings, Profile]:
    """The settings in force: defaults < the hall's file < the referee's profile < `given`
    (setting name → the command line's value, None where it was not given); and the profile."""
    profile = Profile() if args.profile is None else load_profile(args.profile)
    settings = load(args.config).over(profile.settings(), Source.PROFILE, str(args.profile))
    return settings.over(given, Source.COMMAND_LINE, "the command line"), profile


def add_early_argument(parser: argparse.ArgumentParser) -> None:
    """--early: also act on a complete partial result before the endpoint (off: see README)."""
    parser.add_argument(
        "--early", action="store_true",
        help=_("also commit a complete phrase from a partial result, before the endpoint "
        "(faster for some phrases, but makes false commits)"),
    )


def add_phrase_table_argument(parser: argparse.ArgumentParser) -> None:
    """--phrase-table: for testing the pipeline with a model of another language."""
    parser.add_argument("--phrase-table", type=Path, metavar="TOML",
                        help=_('testing with a non-Greek model: a TOML file of `word = "Greek '
                        'text"` lines; the grammar is spelled in these words'))


def phrase_table(path: Path | None) -> PhraseTable | None:
    """The table at `path` (None without one); UsageError naming the file's fault."""
    try:
        return PhraseTable.load(path) if path else None
    except PhraseTableError as error:
        raise UsageError(N_("--phrase-table: {error}"), error=error) from None


def add_play_arguments(parser: argparse.ArgumentParser) -> None:
    """--input, --jsonl, --wav and --db: what `simulate` and `resume` share."""
    parser.add_argument("--input",
                        help=_("UTF-8 file, one phrase a line (default: standard input)"))
    parser.add_argument("--jsonl", action="store_true", help=_("one JSON object per announcement"))
    parser.add_argument(
        "--wav", type=Path, metavar="DIR",
        help=_("also render each PA announcement to a WAV in this folder (made if missing); it "
               "must hold no WAVs of another run, which would mix with this one's"),
    )
    add_db_argument(parser)


def read_lines(path: str | None) -> tuple[Iterable[str], str]:
    """The input's lines (standard input when no path) and how to name it in errors."""
    if path is None:
        if sys.stdin.isatty():  # someone types the phrases: say how the match's input ends
            sys.stderr.write(_("type one phrase a line; Ctrl-D ends the input") + "\n")
        return io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8"), N_("standard input")
    where = f"--input {path}"
    try:
        return Path(path).read_text(encoding="utf-8").splitlines(), where
    except UnicodeDecodeError as error:
        raise UsageError(N_("{where} is not UTF-8 text: {error}"), where=where,
                         error=str(error)) from None
    except OSError as error:
        raise UsageError(N_("cannot read {where}: {reason}"), where=where,
                         reason=error.strerror) from None
    except ValueError as error:  # a path with a NUL character in it
        raise UsageError(N_("cannot read {where}: {reason}"), where=where,
                         reason=str(error)) from None


def say_recording(match_id: int, path: Path) -> None:
    """Tell on stderr which match a command records, and in which file."""
    sys.stderr.write(_("match {match} recorded in {path}").format(match=match_id, path=path) + "\n")


def printer(args: argparse.Namespace) -> Printer:
    """The text announcer that --jsonl and --wav ask for, writing to standard output; UsageError
    before anything is recorded if --wav cannot take this run's WAVs."""
    if args.wav is not None:
        writable_folder(args.wav, "--wav")
        if any(args.wav.glob("*.wav")):  # numbered from 0001 again, they would mix
            raise UsageError(N_("--wav {folder} already holds the WAVs of another run: give a "
                                "new or empty folder, or delete them"), folder=args.wav)
    return Printer(sys.stdout, args.jsonl, args.wav)


def writable_folder(path: Path, option: str) -> None:
    """Make the folder `path` if missing; UsageError unless files can be written into it."""
    if path.exists() and not path.is_dir():
        raise UsageError(N_("{option} {path} is a file, not a folder: give a folder"),
                         option=option, path=path)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except (OSError, ValueError) as error:  # ValueError: a NUL character in the path
        raise UsageError(N_("cannot make the {option} folder {path}: {reason}"),
                         option=option, path=path, reason=_reason(error)) from None
    try:  # a file made and dropped: the OS's answer, with root's rights and read-only mounts
        tempfile.TemporaryFile(dir=path).close()
    except OSError as error:
        reason = _reason(error)
        raise UsageError(N_("cannot write into the {option} folder {path}: {reason}"),
                         option=option, path=path, reason=reason) from None


def _reason(error: Exception) -> str:
    return getattr(error, "strerror", None) or str(error)
