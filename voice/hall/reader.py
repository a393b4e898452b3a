"""The hall's PostgreSQL read as a match record: every table's matches by their number in the
hall, replayed by the rules as the table's own record is."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import psycopg

from rules.command import Command
from rules.match import Result
from rules.state import Match, Setup, new_match
from voice.hall.pusher import first_line
from voice.hall.schema import LATEST, migrate
from voice.hall.target import Connection, connect, shown
from voice.match_record.database import (
    UNTOUCHED,
    LoadedMatch,
    MatchEntry,
    NewerRecord,
    NoSuchMatch,
    RecordedEvent,
    RecordError,
    replayed,
)
from voice.match_record.liveness import Heartbeat, Liveness
from voice.translation import N_, Foreign

MATCH = """
SELECT created, setup, hall, table_name, id::text, local_id FROM matches WHERE number = %s"""
EVENTS = """
SELECT e.seq, e.command, e.created FROM events AS e JOIN matches AS m ON m.id = e.match_id
WHERE m.number = %s AND e.seq > %s ORDER BY e.seq"""
LAST = """
SELECT coalesce(max(e.seq), 0) FROM matches AS m LEFT JOIN events AS e ON e.match_id = m.id
WHERE m.number = %s GROUP BY m.id"""
BEAT = """
SELECT l.state, l.at FROM liveness AS l JOIN matches AS m ON m.id = l.match_id
WHERE m.number = %s"""


@dataclass(frozen=True)
class Place:
    """Where a match of the hall is played, and what its table's record calls it."""

    hall: str | None
    table: str
    uid: str  # the match's globally unique id
    local: int  # its number in the table's record


class HallRecord:
    """The hall's database `conninfo`, read; each method raises RecordError, never a bare
    psycopg error, and a lost connection is opened again at the next read."""

    def __init__(self, conninfo: str) -> None:
        self.conninfo = conninfo
        self.path = Path(shown(conninfo))  # what messages name it by: no password
        self._db: Connection | None = None

    @classmethod
    def open(cls, conninfo: str) -> HallRecord:
        """The hall's database, its schema brought up to date first if a table's push has not
        (which needs CREATE on it); RecordError if it cannot be reached."""
        hall = cls(conninfo)
        hall._rows("SELECT 1")
        return hall

    def place(self, match_id: int) -> Place:
        """Where the match is played, and what its table's record calls it."""
        row = self._match(match_id)
        return Place(row[2], row[3], row[4], int(row[5]))

    def number(self, uid: str) -> int | None:
        """The hall's number for the match of id `uid`, None if the hall does not hold it."""
        rows = self._rows("SELECT number FROM matches WHERE id = %s::uuid", (uid,))
        return int(rows[0][0]) if rows else None

    def setup(self, match_id: int) -> tuple[str, Setup]:
        """When the match was created (ISO, UTC, as its table wrote it), and its set-up."""
        row = self._match(match_id)
        try:
            return _iso(row[0]), Setup.from_dict(row[1])
        except ValueError as error:
            raise NewerRecord(
                N_("the set-up of match {match_id} in {path} cannot be read ({error}); "
                   "{untouched}"), self.path,
                match_id=match_id, path=self.path, error=Foreign(error), untouched=UNTOUCHED,
            ) from None

    def events(self, match_id: int, after: int = 0) -> tuple[RecordedEvent, ...]:
        """The events of the match numbered above `after`, oldest first; whether each was
        voiced is the table's to know (None)."""
        rows = self._rows(EVENTS, (match_id, after))
        if not rows:
            self._match(match_id)  # NoSuchMatch if there is none
        return tuple(RecordedEvent(seq, self._command(match_id, seq, command), _iso(at), None)
                     for seq, command, at in rows)

    def replayed(
        self, match_id: int, match: Match, events: tuple[RecordedEvent, ...]
    ) -> Iterator[Result]:
        """`match` taken through `events`, each one's result in turn; NewerRecord if the rules
        refuse one."""
        return replayed(self.path, match_id, match, events)

    def load(self, match_id: int) -> LoadedMatch:
        """The match as the hall holds it, replayed."""
        created, setup = self.setup(match_id)
        events = self.events(match_id)
        match = new_match(setup)
        for after, _ in self.replayed(match_id, match, events):
            match = after
        return LoadedMatch(match_id, created, setup, events, match)

    def matches(self) -> list[MatchEntry]:
        """Every match of every table, by number, with the state it replays to."""
        entries = []
        for match_id in self.match_ids():
            try:
                loaded = self.load(match_id)
                entries.append(MatchEntry(match_id, loaded.created, loaded.match))
            except RecordError as error:
                entries.append(MatchEntry(match_id, self.setup(match_id)[0], None, error))
        return entries

    def match_ids(self) -> list[int]:
        """The number of every match in the hall, in the order the hall heard of them."""
        return [int(row[0]) for row in self._rows("SELECT number FROM matches ORDER BY number")]

    def last_seq(self, match_id: int) -> int:
        """The number of the match's newest event the hall holds (0 before the first)."""
        rows = self._rows(LAST, (match_id,))
        if not rows:
            raise NoSuchMatch(match_id, self.path)
        return int(rows[0][0])

    def heartbeat(self, match_id: int) -> Heartbeat | None:
        """The latest heartbeat the match's table pushed, if any, in a state this version knows."""
        rows = self._rows(BEAT, (match_id,))
        known = {str(state) for state in Liveness}
        return next((Heartbeat(Liveness(s), _iso(at)) for s, at in rows if s in known), None)

    def vanished(self) -> bool:
        """Never: a database does not vanish as a file does; a lost connection is reopened."""
        return False

    def close(self) -> None:
        """Close the connection, if open."""
        if self._db is not None:
            self._db.close()
        self._db = None

    def _match(self, match_id: int) -> tuple[Any, ...]:
        rows = self._rows(MATCH, (match_id,))
        if not rows:
            raise NoSuchMatch(match_id, self.path)
        return rows[0]

    def _command(self, match_id: int, seq: int, data: Any) -> Command:
        try:
            return Command.from_dict(data)
        except (ValueError, TypeError) as error:
            raise NewerRecord(
                N_("event {seq} of match {match_id} in {path} cannot be read ({error}); "
                   "{untouched}"), self.path,
                seq=seq, match_id=match_id, path=self.path, error=Foreign(error),
                untouched=UNTOUCHED,
            ) from None

    def _rows(self, sql: str, parameters: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """The query's rows; a connection kept from before, found cut (the hall's server
        restarted since), is opened again once."""
        kept = self._db is not None
        try:
            return self._connected().execute(sql.encode(), parameters).fetchall()
        except psycopg.Error as error:
            self.close()
            if not (kept and isinstance(error, psycopg.OperationalError)):
                raise self._fault(error) from None
        try:
            return self._connected().execute(sql.encode(), parameters).fetchall()
        except psycopg.Error as error:
            self.close()  # opened again at the next read
            raise self._fault(error) from None

    def _fault(self, error: psycopg.Error) -> RecordError:
        return RecordError(N_("cannot read the hall's database {target}: {error}"), self.path,
                           target=str(self.path), error=first_line(error))

    def _connected(self) -> Connection:
        if self._db is None:
            db = connect(self.conninfo, autocommit=True)
            try:
                if _version(db) < LATEST:
                    migrate(db)
            except BaseException:
                db.close()
                raise
            self._db = db
        return self._db


def _version(db: Connection) -> int:
    """The schema the hall's database has (0: none yet)."""
    if db.execute("SELECT to_regclass('schema_version')").fetchone() == (None,):
        return 0
    row = db.execute("SELECT coalesce(max(version), 0) FROM schema_version").fetchone()
    return int(row[0]) if row else 0


def _iso(moment: datetime) -> str:
    """A time as the table's record writes it: ISO 8601, UTC, to the microsecond."""
    return moment.astimezone(UTC).isoformat(timespec="microseconds")
