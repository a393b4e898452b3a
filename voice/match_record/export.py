"""A recorded match written out whole: its events and statistics, as JSON or CSV."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import fields
from typing import Any

from rules.command import Command
from rules.statistics import written
from rules.summary import summary
from voice.match_record.database import LoadedMatch

COMMAND_FIELDS = tuple(f.name for f in fields(Command))
EVENT_COLUMNS = ("seq", "created", "announced", *COMMAND_FIELDS)
PLAYER_COLUMNS = (
    "surname", "points", "innings", "average", "highest_run", "distance", "time_outs", "sets_won"
)
RESULT_COLUMNS = ("winner", "drawn", "extensions", "playoff")
# What a spreadsheet on Greek Windows opens as UTF-8 split into columns: a byte-order mark,
# and the semicolon (the comma is the decimal mark there, and the averages are written with it).
BOM = "\ufeff"
DELIMITER = ";"


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
    """Four tables one after the other, a blank line between: the events, each player, each
    inning's points, and the result; with a BOM and semicolons, for a Greek spreadsheet."""
    out = io.StringIO()
    writer = csv.writer(out, delimiter=DELIMITER, lineterminator="\n")
    writer.writerow(EVENT_COLUMNS)
    for e in loaded.events:
        cells = (cell(getattr(e.command, name)) for name in COMMAND_FIELDS)
        announced = "" if e.announced is None else int(e.announced)
        writer.writerow((e.seq, e.created, announced, *cells))
    state = summary(loaded.match)
    players = state["players"]
    writer.writerow(())
    writer.writerow(PLAYER_COLUMNS)
    for p, won in zip(players, state["sets_won"], strict=True):
        average = written(p["points"], p["innings"])  # the decimal comma a Greek sheet reads
        writer.writerow((p["surname"], p["points"], p["innings"], average, p["highest_run"],
                         p["distance"], p["time_outs"], won))
    writer.writerow(())
    writer.writerow(("inning", *(p["surname"] for p in players)))
    columns = [p["innings_points"] for p in players]
    for number in range(max(map(len, columns))):
        writer.writerow((number + 1, *(c[number] if number < len(c) else "" for c in columns)))
    writer.writerow(())
    writer.writerow(RESULT_COLUMNS)
    writer.writerow((state["winner"] or "", int(state["drawn"]), state["extension"],
                     int(state["playoff"])))
    return BOM + out.getvalue()


def cell(value: object) -> str:
    """A command field in one CSV cell: items apart by spaces, pairs joined by a colon."""
    if value is None:
        return ""
    if isinstance(value, tuple):
        return " ".join(":".join(item) if isinstance(item, tuple) else str(item) for item in value)
    return str(value)
