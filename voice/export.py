"""`referee export MATCH`: a match's full event list and statistics, as JSON or CSV."""

from __future__ import annotations

import argparse
import csv
import io
import json
import sys
from dataclasses import fields
from pathlib import Path
from typing import Any

from rules.command import Command
from rules.summary import summary
from voice.arguments import UsageError, add_db_argument, match_number
from voice.record import LoadedMatch, Record

COMMAND_FIELDS = tuple(f.name for f in fields(Command))
EVENT_COLUMNS = ("seq", "created", "announced", *COMMAND_FIELDS)
PLAYER_COLUMNS = ("surname", "points", "innings", "average", "highest_run")
RECORD_FILES = ("", "-wal", "-shm")  # suffixes of the files SQLite keeps a record in


def register(sub: argparse._SubParsersAction) -> None:
    """Add `export` to the command line."""
    export = sub.add_parser("export", help="write a match's events and statistics")
    export.add_argument("match", type=match_number, metavar="MATCH",
                        help="the match number, as `referee matches` lists")
    export.add_argument("--format", choices=["json", "csv"], default="json",
                        help="json (default): one document; csv: the events, then the players")
    export.add_argument("--output", type=Path, help="the file to write (default: standard output)")
    add_db_argument(export)
    export.set_defaults(run=run)


def as_json(loaded: LoadedMatch) -> str:
    """One JSON document: the set-up, every event in order, and the statistics."""
    setup = loaded.setup
    document: dict[str, Any] = {
        "match": loaded.id,
        "created": loaded.created,
        "setup": {
            "discipline": setup.discipline,
            "distance": setup.distance,
            "players": list(setup.players),
            "first": setup.players[setup.first],
        },
        "events": [
            {"seq": e.seq, "created": e.created, "announced": e.announced,
             "command": e.command.to_dict()}
            for e in loaded.events
        ],
        "statistics": summary(loaded.match),
    }
    return json.dumps(document, ensure_ascii=False, indent=2) + "\n"


def as_csv(loaded: LoadedMatch) -> str:
    """Two tables one after the other, a blank line between: the events, then each player."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(EVENT_COLUMNS)
    for e in loaded.events:
        cells = (cell(getattr(e.command, name)) for name in COMMAND_FIELDS)
        writer.writerow((e.seq, e.created, int(e.announced), *cells))
    writer.writerow(())
    writer.writerow(PLAYER_COLUMNS)
    for p in summary(loaded.match)["players"]:
        writer.writerow(p[column] for column in PLAYER_COLUMNS)
    return out.getvalue()


def cell(value: object) -> str:
    """A command field in one CSV cell: items apart by spaces, pairs joined by a colon."""
    if value is None:
        return ""
    if isinstance(value, tuple):
        return " ".join(":".join(item) if isinstance(item, tuple) else str(item) for item in value)
    return str(value)


def write(text: str, output: Path | None, db: Path) -> None:
    """`text` to standard output, or to `output` unless that is the match record itself."""
    if output is None:
        sys.stdout.write(text)
        return
    try:
        record = db.resolve()
        if output.resolve() in {record.with_name(record.name + s) for s in RECORD_FILES}:
            raise UsageError(f"--output {output} is the match record itself; choose another file")
        output.write_text(text, encoding="utf-8")
    except (OSError, ValueError) as error:
        raise UsageError(f"cannot write --output {output}: {error}") from None


def run(args: argparse.Namespace) -> int:
    """`referee export`."""
    with Record.open(args.db, create=False) as record:
        loaded = record.load(args.match)
    write((as_csv if args.format == "csv" else as_json)(loaded), args.output, args.db)
    return 0
