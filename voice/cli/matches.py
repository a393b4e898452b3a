"""`referee matches`: every recorded match with its discipline, players, score and status."""

from __future__ import annotations

import argparse
import sys
from contextlib import closing
from pathlib import Path
from typing import TYPE_CHECKING

from rules.state import Match
from voice.cli.arguments import Subcommands, add_command, add_db_argument
from voice.cli.reading import hall_record
from voice.match_record.database import MatchEntry, Record
from voice.translation import N_, Line, _

if TYPE_CHECKING:  # psycopg loads only for a hall's --db
    from voice.hall.reader import Place

HEADINGS = (N_("match"), N_("created (UTC)"), N_("discipline"), N_("distance"), N_("players"),
            N_("score"), N_("status"))
PLACE = N_("hall · table (its match)")  # the hall's own column: where each match is played


def register(sub: Subcommands) -> None:
    """Add `matches` to the command line."""
    matches = add_command(sub, "matches", _("list the recorded matches"))
    add_db_argument(matches, hall=True)
    matches.set_defaults(run=run)


def status(match: Match) -> str:
    """Where the match stands, in a few words."""
    if match.winner is not None:
        return Line(N_("won by {player}"), player=match.surname(match.winner)).shown()
    if match.drawn:
        return _("drawn")
    if match.warm_up is not None:
        return Line(N_("warm-up of {player}"), player=match.surname(match.warm_up.player)).shown()
    if match.pause is not None:
        return Line(N_("break of {player}"), player=match.surname(match.pause.player)).shown()
    if match.at_table is None:
        return _("play-off: who starts?") if match.phase.playoff else _("extension: who starts?")
    return Line(N_("in play, {player} at the table"), player=match.surname(match.at_table)).shown()


def row(entry: MatchEntry) -> tuple[str, ...]:
    """The columns of one match; a match whose record does not replay says so."""
    created = entry.created[:16].replace("T", " ")
    match = entry.match
    if match is None:
        return (str(entry.id), created, "", "", "", "", _("cannot be replayed (see below)"))
    setup = match.setup
    return (
        str(entry.id),
        created,
        setup.discipline,
        "/".join(str(d) for d in dict.fromkeys(setup.distances)),
        " – ".join(setup.players),
        "–".join(str(p.points) for p in match.players),
        status(match),
    )


def table(entries: list[MatchEntry], places: dict[int, str] | None = None) -> list[str]:
    """The list as aligned lines (with each match's place, if given), then what is wrong with
    each match that does not replay."""
    rows = [tuple(map(_, HEADINGS)), *(row(entry) for entry in entries)]
    if places is not None:
        rows = [rows[0] + (_(PLACE),), *(r + (places[e.id],) for r, e in zip(
            rows[1:], entries, strict=True))]
    widths = [max(len(r[column]) for r in rows) for column in range(len(rows[0]))]
    lines = [
        "  ".join(cell.ljust(width) for cell, width in zip(r, widths, strict=True)).rstrip()
        for r in rows
    ]
    return lines + [Line(N_("match {match}: {problem}"), match=e.id, problem=e.problem).shown()
                    for e in entries if e.problem]


def run(args: argparse.Namespace) -> int:
    """`referee matches`: of a table's record, or of every table in the hall's PostgreSQL."""
    places, where = None, args.db
    if isinstance(args.db, Path):
        with Record.open(args.db, create=False) as record:
            entries = record.matches()
    else:
        with closing(hall_record(args.db)) as hall:
            entries = hall.matches()
            places = {entry.id: _place(hall.place(entry.id)) for entry in entries}
            where = hall.path  # without the password
    if not entries:
        sys.stdout.write(_("no match is recorded in {path}").format(path=where) + "\n")
        return 0
    sys.stdout.write("\n".join(table(entries, places)) + "\n")
    return 0


def _place(at: Place) -> str:
    """Where the hall's match is played: the hall, the table, its number there."""
    return f"{at.hall or '-'} · {at.table} ({at.local})"
