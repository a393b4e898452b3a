"""`referee export MATCH`: a match's events and statistics (JSON, CSV) or its protocol (PDF)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from voice.cli.arguments import Subcommands, UsageError, add_command, add_db_argument, match_number
from voice.cli.reading import reading
from voice.match_record.database import LoadedMatch
from voice.match_record.export import match_csv, match_json
from voice.match_record.protocol import HALL_TIME, protocol_pdf
from voice.translation import N_, _

RECORD_FILES = ("", "-wal", "-shm")  # suffixes of the files SQLite keeps a record in


def register(sub: Subcommands) -> None:
    """Add `export` to the command line."""
    export = add_command(sub, "export", _("write a match's events and statistics"))
    export.add_argument("match", type=match_number, metavar="MATCH",
                        help=_("the match number, as `referee matches` lists"))
    export.add_argument("--format", choices=["json", "csv", "pdf"], default="json",
                        help=_("json (default): one document; csv: the events, then the players; "
                        "pdf: the printable match protocol (needs --output)"))
    export.add_argument("--output", type=Path,
                        help=_("the file to write (default: standard output)"))
    export.add_argument("--time-zone", type=time_zone, default=HALL_TIME, metavar="ZONE",
                        help=_("the hall's clock for the protocol's date and times (default: "
                               "{zone})").format(zone=HALL_TIME.key))
    add_db_argument(export, hall=True)
    export.set_defaults(run=run)


def time_zone(name: str) -> ZoneInfo:
    """An argparse type: a time zone of the IANA database, such as Europe/Athens."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise argparse.ArgumentTypeError(
            _("{name!r} is not a time zone: give one such as Europe/Athens or UTC")
            .format(name=name[:40])) from None


def write(text: str | bytes, output: Path | None, db: Path | str) -> None:
    """`text` to standard output, or to `output` unless that is the match record itself."""
    if output is None:
        sys.stdout.write(text if isinstance(text, str) else text.decode())
        return
    try:
        record = db.resolve() if isinstance(db, Path) else None
        if record is not None and output.resolve() in {
            record.with_name(record.name + s) for s in RECORD_FILES
        }:
            raise UsageError(N_("--output {output} is the match record itself; choose another "
                                "file"), output=output)
        if isinstance(text, bytes):
            output.write_bytes(text)
        else:
            output.write_text(text, encoding="utf-8")
    except (OSError, ValueError) as error:
        raise UsageError(N_("cannot write --output {output}: {reason}"), output=output,
                         reason=str(error)) from None


def run(args: argparse.Namespace) -> int:
    """`referee export`."""
    if args.format == "pdf" and args.output is None:
        raise UsageError(N_("a PDF is written to a file: add --output FILE"))
    with reading(args.db) as record:
        loaded = record.load(args.match)
    writers: dict[str, Callable[[LoadedMatch], str | bytes]] = {
        "json": match_json, "csv": match_csv,
        "pdf": lambda loaded: protocol_pdf(loaded, args.time_zone),
    }
    write(writers[args.format](loaded), args.output, args.db)
    return 0
