"""A recorded match written out whole: its events and statistics, as JSON or CSV."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import fields
from typing import Any

from rules.command import Command
from rules.summary import summary
from voice.match_record.database import LoadedMatch

COMMAND_FIELDS = tuple(f.name for f in fields(Command))
EVENT_COLUMNS = ("seq", "created", "announced", *COMMAND_FIELDS)
PLAYER_COLUMNS = ("surname", "points", "innings", "average", "highest_run")


def match_json(loaded: LoadedMatch) -> str:
    """One JSON document: the set-up, every event in order, and the statistics."""
    setup = loaded.setup.to_dict()
    setup["first"] = loaded.setup.players[loaded.setup.first]  # who breaks, by name
    del setup["spoken"]
    document: dict[str, Any] = {
        "match": loaded.id,
        "created": loaded.created,
        "setup": setup,
        "events": [
            {"seq": e.seq, "created": e.created, "announced": e.announced,
             "command": e.command.to_dict()}
            for e in loaded.events
        ],
        "statistics": summary(loaded.match),
    }
    return json.dumps(document, ensure_ascii=False, indent=2) + "\n"


def match_csv(loaded: LoadedMatch) -> str:
    """Two tables one after the other, a blank line between: the events, then each player."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(EVENT_COLUMNS)
    for e in loaded.events:
        cells = (cell(getattr(e.command, name)) for name in COMMAND_FIELDS)
        announced = "" if e.announced is None else int(e.announced)
        writer.writerow((e.seq, e.created, announced, *cells))
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
