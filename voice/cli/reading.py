"""--db read by `matches`, `export` and `correct`: a table's record file, or the hall's
PostgreSQL (every table's matches, by their number in the hall)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from voice.cli.arguments import UsageError
from voice.cli.pushing import INSTALL
from voice.match_record.database import Record
from voice.match_record.reading import Reader

if TYPE_CHECKING:  # psycopg loads only for a hall's --db (the `hall` extra)
    from voice.hall.reader import HallRecord


@contextmanager
def reading(db: Path | str) -> Iterator[Reader]:
    """The record file at `db`, or the hall's PostgreSQL at the URL `db`, open to read."""
    reader = Record.open(db, create=False) if isinstance(db, Path) else hall_record(db)
    try:
        yield reader
    finally:
        reader.close()


def hall_record(conninfo: str) -> HallRecord:
    """The hall's PostgreSQL, open to read (UsageError without psycopg)."""
    try:
        from voice.hall.reader import HallRecord
    except ImportError:
        raise UsageError(INSTALL) from None
    return HallRecord.open(conninfo)
