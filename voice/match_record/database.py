"""The match record: every accepted command of every match, in an SQLite file that survives crashes.

The state of a match is never stored: it is what `rules.match.replay` makes of the commands.
"""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
import uuid
from collections.abc import Iterator
from contextlib import closing, contextmanager, suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import platformdirs

from rules.command import Command, Kind
from rules.errors import RefereeError
from rules.match import ReplayError, Result, steps
from rules.state import Match, Setup, new_match
from voice.match_record.liveness import Heartbeat, Liveness
from voice.translation import N_, Foreign, reason

APPLICATION_ID = 0x43524546  # "CREF": the PRAGMA application_id of every match record
SCHEMA_VERSION = 1  # the PRAGMA user_version this version reads and writes
BUSY_SECONDS = 10.0  # how long a writer waits for another process's transaction to end
UNTOUCHED = N_("the file was left untouched")

SCHEMA = f"""
PRAGMA application_id = {APPLICATION_ID};
PRAGMA user_version = {SCHEMA_VERSION};
CREATE TABLE matches (
    id INTEGER PRIMARY KEY,
    created TEXT NOT NULL,  -- ISO 8601, UTC
    setup TEXT NOT NULL  -- JSON: discipline, distance, players, first
);
CREATE TABLE events (
    match_id INTEGER NOT NULL REFERENCES matches (id),
    seq INTEGER NOT NULL CHECK (seq >= 1),  -- 1, 2, 3 … within the match
    command TEXT NOT NULL,  -- JSON: Command.to_dict
    created TEXT NOT NULL,  -- ISO 8601, UTC
    announced INTEGER NOT NULL DEFAULT 0 CHECK (announced IN (0, 1)),
    PRIMARY KEY (match_id, seq)
) WITHOUT ROWID;
"""
# Added later, still schema 1: made with a record's first heartbeat, new or old; older versions
# ignore it.
LIVENESS_TABLE = """
CREATE TABLE IF NOT EXISTS liveness (
    match_id INTEGER PRIMARY KEY REFERENCES matches (id),
    state TEXT NOT NULL,  -- a Liveness (voice/match_record/liveness.py)
    at TEXT NOT NULL  -- ISO 8601, UTC
)"""
# Added later, still schema 1: each match's globally unique id (a UUID), by which a hall's
# PostgreSQL knows it; made with the first match recorded or pushed, for older matches too.
UIDS_TABLE = """
CREATE TABLE IF NOT EXISTS match_uids (
    match_id INTEGER PRIMARY KEY REFERENCES matches (id),
    uid TEXT NOT NULL UNIQUE  -- a UUID, as text
)"""
HEARTBEAT_BUSY_MS = 250  # a heartbeat waits this long for another writer, not BUSY_SECONDS

MAX_MATCH_ID = 2**63 - 1  # SQLite's largest integer
SQLITE_NOTADB = 26  # the error code of "file is not a database"
SMALLEST_DATABASE = 512  # bytes: one page of the smallest size SQLite writes


class RecordError(RefereeError):
    """A match record that cannot be opened, read or written; the message states the fault."""

    def __init__(self, message: str, path: Path, /, **fields: object) -> None:
        super().__init__(message, **fields)
        self.path = path


class NoRecord(RecordError):
    """There is no record file where one was expected."""


class NoSuchMatch(RecordError):
    """The record holds no match of that number."""

    def __init__(self, match_id: int, path: Path) -> None:
        super().__init__(N_("there is no match {match_id} in {path}"), path, match_id=match_id,
                         path=path)
        self.match_id = match_id


class NotARecord(RecordError):
    """The file is something other than a match record of this schema."""


class DamagedRecord(RecordError):
    """The file is a match record SQLite finds damaged."""


class NewerRecord(RecordError):
    """The record, or a match in it, was written by another version of carom-referee."""


@dataclass(frozen=True)
class RecordedEvent:
    """One recorded command and whether its announcement has been voiced."""

    seq: int
    command: Command
    created: str
    announced: bool | None  # None: not known (the hall's PostgreSQL does not hold it)


@dataclass(frozen=True)
class LoadedMatch:
    """A match as recorded: its set-up, its events, and the state they replay to."""

    id: int
    created: str
    setup: Setup
    events: tuple[RecordedEvent, ...]
    match: Match

    @property
    def commands(self) -> tuple[Command, ...]:
        """The recorded commands in order, UNDO included."""
        return tuple(event.command for event in self.events)

    @property
    def last_seq(self) -> int:
        """The number of the newest event (0 before the first)."""
        return self.events[-1].seq if self.events else 0


@dataclass(frozen=True)
class MatchEntry:
    """One line of the list of matches: its state, or why it cannot be replayed."""

    id: int
    created: str
    match: Match | None
    problem: RecordError | None = None


def default_path() -> Path:
    """Where matches are recorded unless --db says otherwise: the user's data directory."""
    return Path(platformdirs.user_data_dir("carom-referee", appauthor=False)) / "matches.sqlite3"


class Record:
    """An open match record; every method raises RecordError, never a bare sqlite3 error."""

    def __init__(self, path: Path, db: sqlite3.Connection) -> None:
        self.path = path
        self._db = db
        self.identity = _identity(path)  # the file this connection opened

    @classmethod
    def open(cls, path: Path, create: bool = True) -> Record:
        """The record at `path`, made if missing (and `create`), checked before any write."""
        path = Path(path)
        try:
            if not path.exists():
                if not create:
                    raise NoRecord(N_("there is no match record at {path}"), path, path=path)
                _create(path)
            _validate(path)
            db = sqlite3.connect(path, timeout=BUSY_SECONDS, isolation_level=None)
        except (sqlite3.Error, OSError, ValueError) as error:
            raise RecordError(N_("cannot open the match record {path}: {error}"), path, path=path,
                              error=reason(error)) from None
        record = cls(path, db)
        with record._guard(N_("set up")):
            record._set_up()
        return record

    def _set_up(self) -> None:
        self._db.execute("PRAGMA journal_mode = WAL")
        self._db.execute("PRAGMA synchronous = FULL")
        self._db.execute("PRAGMA foreign_keys = ON")

    def close(self) -> None:
        """Close the file; committed events are already safe on disk."""
        self._db.close()

    def vanished(self) -> bool:
        """Whether the file at `path` is no longer the one this record opened (deleted or
        replaced): what is written now would be lost with it."""
        return _identity(self.path) != self.identity

    def write_back(self) -> Path | None:
        """Copy everything this connection holds to a new record at `path`, and go on there.

        For a record whose file vanished: a file now at `path` is moved aside (its new name is
        returned), and so are the old write-ahead log and index, so that no connection still on
        the vanished file can take the new record's for its own. Every other connection of this
        process to the vanished file must be closed first.
        """
        path, moved = self.path, None
        aside = _aside(path)
        try:
            with self._guard(N_("copy the vanished")), closing(sqlite3.connect(aside)) as copy:
                self._db.backup(copy)
        except RecordError:
            aside.unlink(missing_ok=True)
            raise
        try:
            if path.exists():
                moved = path.with_name(f"{path.name}.replaced-{_stamp()}")
                path.rename(moved)
            _orphans_aside(path)
            self._db.close()
            os.link(aside, path)
            _sync_directory(path.parent)
            self._db = sqlite3.connect(path, timeout=BUSY_SECONDS, isolation_level=None)
        except (OSError, sqlite3.Error) as error:
            raise RecordError(N_("cannot write {path} back ({error}); every event is kept in "
                                 "{aside}"), path, path=path, error=reason(error),
                              aside=aside) from None
        aside.unlink()
        self.identity = _identity(path)
        with self._guard(N_("set up")):
            self._set_up()
        return moved

    def __enter__(self) -> Record:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def create_match(self, setup: Setup) -> int:
        """Record a new match with no events yet; its id."""
        with self._guard(N_("record a new match in")), self._transaction():
            self._db.execute(UIDS_TABLE)
            cursor = self._db.execute(
                "INSERT INTO matches (created, setup) VALUES (?, ?)",
                (_now(), json.dumps(setup.to_dict(), ensure_ascii=False)),
            )
            assert cursor.lastrowid is not None  # an INSERT always sets it
            self._db.execute("INSERT INTO match_uids (match_id, uid) VALUES (?, ?)",
                             (cursor.lastrowid, str(uuid.uuid4())))
        return cursor.lastrowid

    def uid(self, match_id: int) -> str:
        """The globally unique id of match `match_id`, given to it now if it has none (a match
        recorded before ids were)."""
        with self._guard(f"give match {match_id} its id in"), self._transaction():
            self._db.execute(UIDS_TABLE)
            if self.exists(match_id):
                self._db.execute("INSERT OR IGNORE INTO match_uids (match_id, uid) VALUES (?, ?)",
                                 (match_id, str(uuid.uuid4())))
            row = self._db.execute(
                "SELECT uid FROM match_uids WHERE match_id = ?", (match_id,)
            ).fetchone()
        if row is None:
            raise NoSuchMatch(match_id, self.path)
        return str(row[0])

    def load(self, match_id: int) -> LoadedMatch:
        """Match `match_id` as recorded and replayed; RecordError if the rules refuse its record."""
        created, setup = self.setup(match_id)
        events = self.events(match_id)
        match = new_match(setup)
        for after, _ in self.replayed(match_id, match, events):
            match = after
        return LoadedMatch(match_id, created, setup, events, match)

    def setup(self, match_id: int) -> tuple[str, Setup]:
        """When match `match_id` was created, and its set-up."""
        with self._guard(f"read match {match_id} from"):
            row = self._db.execute(
                "SELECT created, setup FROM matches WHERE id = ?", (match_id,)
            ).fetchone()
        if row is None:
            raise NoSuchMatch(match_id, self.path)
        return row[0], self._setup(match_id, row[1])

    def exists(self, match_id: int) -> bool:
        """Whether the record holds match `match_id` (one index lookup)."""
        with self._guard(f"read match {match_id} from"):
            row = self._db.execute("SELECT 1 FROM matches WHERE id = ?", (match_id,)).fetchone()
        return row is not None

    def events(self, match_id: int, after: int = 0) -> tuple[RecordedEvent, ...]:
        """The events of match `match_id` numbered above `after`, oldest first."""
        with self._guard(f"read match {match_id} from"):
            rows = self._db.execute(
                "SELECT seq, command, created, announced FROM events"
                " WHERE match_id = ? AND seq > ? ORDER BY seq",
                (match_id, after),
            ).fetchall()
        if not rows and not self.exists(match_id):
            raise NoSuchMatch(match_id, self.path)
        return tuple(
            RecordedEvent(seq, self._command(match_id, seq, text), when, bool(announced))
            for seq, text, when, announced in rows
        )

    def replayed(
        self, match_id: int, match: Match, events: tuple[RecordedEvent, ...]
    ) -> Iterator[Result]:
        """`match` taken through recorded `events`, each one's result in turn; NewerRecord if the
        rules refuse one."""
        return replayed(self.path, match_id, match, events)

    def matches(self) -> list[MatchEntry]:
        """Every match, oldest first, with the state its record replays to."""
        with self._guard(N_("list the matches in")):
            rows = self._db.execute("SELECT id, created FROM matches ORDER BY id").fetchall()
        entries = []
        for match_id, created in rows:
            try:
                entries.append(MatchEntry(match_id, created, self.load(match_id).match))
            except RecordError as error:
                entries.append(MatchEntry(match_id, created, None, error))
        return entries

    def match_ids(self) -> list[int]:
        """The number of every match, oldest first, without replaying any."""
        with self._guard(N_("list the matches in")):
            return [row[0] for row in self._db.execute("SELECT id FROM matches ORDER BY id")]

    def latest(self) -> int | None:
        """The match played (or created) most recently, or None when there is none."""
        with self._guard(N_("look for the latest match in")):
            row = self._db.execute(
                "SELECT m.id FROM matches AS m LEFT JOIN events AS e ON e.match_id = m.id"
                " GROUP BY m.id"
                " ORDER BY max(m.created, coalesce(max(e.created), '')) DESC, m.id DESC LIMIT 1"
            ).fetchone()
        return None if row is None else row[0]

    def last_seq(self, match_id: int) -> int:
        """The number of the newest event of match `match_id` (0 before the first)."""
        with self._guard(f"read match {match_id} from"):
            (seq,) = self._db.execute(
                "SELECT coalesce(max(seq), 0) FROM events WHERE match_id = ?", (match_id,)
            ).fetchone()
        return int(seq)

    def last_seqs(self) -> dict[int, int]:
        """Each match's number and the number of its newest event (0 before the first)."""
        with self._guard("list the matches in"):
            rows = self._db.execute(
                "SELECT m.id, coalesce(max(e.seq), 0) FROM matches AS m"
                " LEFT JOIN events AS e ON e.match_id = m.id GROUP BY m.id ORDER BY m.id"
            ).fetchall()
        return {match_id: int(seq) for match_id, seq in rows}

    def data_version(self) -> int:
        """A number that changes whenever another connection commits to the record."""
        with self._guard("read"):
            (version,) = self._db.execute("PRAGMA data_version").fetchone()
        return int(version)

    def break_started(self, match_id: int, kind: Kind = Kind.BREAK) -> datetime | None:
        """When the newest break (or warm-up, by `kind`) of match `match_id` was recorded,
        None before the first."""
        with self._guard(f"read match {match_id} from"):
            row = self._db.execute(
                "SELECT created FROM events WHERE match_id = ?"
                " AND json_extract(command, '$.kind') = ? ORDER BY seq DESC LIMIT 1",
                (match_id, kind.value),
            ).fetchone()
        return None if row is None else datetime.fromisoformat(row[0])

    def check_writable(self) -> None:
        """RecordError unless a command could be recorded now; the file is left as it was."""
        with self.locked(), self._guard(N_("write to")):
            self._db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    @contextmanager
    def locked(self, busy_ms: int | None = None) -> Iterator[None]:
        """A write transaction (BEGIN IMMEDIATE): other writers wait until it ends.

        It waits `busy_ms` for another writer's lock, BUSY_SECONDS by default. `append` commits
        it; anything not committed is rolled back on leaving.
        """
        with self._guard(N_("lock")), self._busy(busy_ms):
            self._db.execute("BEGIN IMMEDIATE")
        try:
            yield
        finally:
            if self._db.in_transaction:
                self._db.rollback()

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        """One transaction for the block, unless one is already open (then the block is part
        of it): committed at its end, rolled back on an error."""
        if self._db.in_transaction:
            yield
            return
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self._db.rollback()
            raise
        self._db.commit()

    @contextmanager
    def _busy(self, busy_ms: int | None) -> Iterator[None]:
        """Wait `busy_ms` (if given, else BUSY_SECONDS) for another writer's lock meanwhile."""
        if busy_ms is None:
            yield
            return
        self._db.execute(f"PRAGMA busy_timeout = {busy_ms}")
        try:
            yield
        finally:
            self._db.execute(f"PRAGMA busy_timeout = {int(BUSY_SECONDS * 1000)}")

    def append(self, match_id: int, seq: int, command: Command) -> None:
        """Write event `seq` of match `match_id` and commit it to disk before returning."""
        with self._guard(f"record event {seq} of match {match_id} in"):
            self._db.execute(
                "INSERT INTO events (match_id, seq, command, created) VALUES (?, ?, ?, ?)",
                (match_id, seq, json.dumps(command.to_dict(), ensure_ascii=False), _now()),
            )
            self._db.commit()

    def mark_announced(self, match_id: int, seq: int) -> None:
        """Note that event `seq`'s announcement has been voiced, so resuming will not repeat it."""
        with self._guard(f"mark event {seq} of match {match_id} as announced in"):
            self._db.execute(
                "UPDATE events SET announced = 1 WHERE match_id = ? AND seq = ?", (match_id, seq)
            )

    def beat(self, match_id: int, state: Liveness) -> None:
        """Write the voice loop's heartbeat for match `match_id`: its `state`, now.

        It waits HEARTBEAT_BUSY_MS at most for another writer, so a locked record costs the loop
        little; RecordError if it cannot be written.
        """
        with self._guard(f"write the heartbeat of match {match_id} to"), self._busy(
            HEARTBEAT_BUSY_MS
        ):
            self._db.execute(LIVENESS_TABLE)
            self._db.execute(
                "INSERT OR REPLACE INTO liveness (match_id, state, at) VALUES (?, ?, ?)",
                (match_id, state, _now()),
            )

    def heartbeat(self, match_id: int) -> Heartbeat | None:
        """The latest heartbeat of match `match_id`; None if no voice loop ever wrote one, or
        only a state this version does not know."""
        return self.heartbeats(match_id).get(match_id)

    def heartbeats(self, match_id: int | None = None) -> dict[int, Heartbeat]:
        """The latest heartbeat of each match (of match `match_id` only, if given) that has one
        in a state this version knows."""
        with self._guard("read the heartbeats from"):
            if self._db.execute(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'liveness'"
            ).fetchone() is None:
                return {}  # a record made before heartbeats, none written yet
            rows = self._db.execute(
                "SELECT match_id, state, at FROM liveness WHERE ? IS NULL OR match_id = ?",
                (match_id, match_id),
            ).fetchall()
        known = {str(state) for state in Liveness}
        return {m: Heartbeat(Liveness(state), at) for m, state, at in rows if state in known}

    @contextmanager
    def _guard(self, doing: str) -> Iterator[None]:
        try:
            yield
        except sqlite3.Error as error:
            raise RecordError(
                N_("cannot {doing} {path}: {error}; what was committed before is kept"),
                self.path, doing=doing, path=self.path, error=reason(error),
            ) from None

    def _setup(self, match_id: int, text: str) -> Setup:
        try:
            return Setup.from_dict(json.loads(text))
        except ValueError as error:
            raise NewerRecord(
                N_("the set-up of match {match_id} in {path} cannot be read ({error}); "
                   "{untouched}"), self.path,
                match_id=match_id, path=self.path, error=Foreign(error), untouched=UNTOUCHED,
            ) from None

    def _command(self, match_id: int, seq: int, text: str) -> Command:
        try:
            return Command.from_dict(json.loads(text))
        except (ValueError, TypeError) as error:
            raise NewerRecord(
                N_("event {seq} of match {match_id} in {path} cannot be read ({error}); "
                   "{untouched}"), self.path,
                seq=seq, match_id=match_id, path=self.path, error=Foreign(error),
                untouched=UNTOUCHED,
            ) from None


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


def _identity(path: Path) -> tuple[int, int] | None:
    """The device and inode of the file at `path`, None where there is none (never opened)."""
    try:
        status = path.stat()
    except OSError:
        return None
    return status.st_dev, status.st_ino


def _stamp() -> str:
    """Now, UTC, as a part of a file name."""
    return datetime.now(UTC).strftime("%Y%m%dT%H%M%S%f")


def _orphans_aside(path: Path) -> None:
    """Move the write-ahead log and index of a record no longer at `path` out of the way, so
    that SQLite never takes them for those of a new record made there."""
    for side in ("-wal", "-shm"):
        with suppress(FileNotFoundError):
            path.with_name(path.name + side).rename(
                path.with_name(f".{path.name}{side}.orphan-{_stamp()}")
            )


def _aside(path: Path) -> Path:
    """A hidden name next to `path`, unique to this call, for a file built before it is linked."""
    return path.with_name(f".{path.name}.{os.getpid()}-{secrets.token_hex(4)}.new")


def _create(path: Path) -> None:
    """A new, empty record at `path`, built aside and linked into place so it is never half made."""
    path.parent.mkdir(parents=True, exist_ok=True)
    aside = _aside(path)
    try:
        with closing(sqlite3.connect(aside)) as db:
            db.execute("PRAGMA journal_mode = WAL")
            db.executescript(SCHEMA)
        if not path.exists():
            _orphans_aside(path)
        with suppress(FileExistsError):  # another process made it first: theirs is used
            os.link(aside, path)
        _sync_directory(path.parent)
    finally:
        aside.unlink(missing_ok=True)


def _sync_directory(directory: Path) -> None:
    """Make a new directory entry durable, where the platform can (not on Windows)."""
    if os.name == "nt":
        return
    handle = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(handle)
    finally:
        os.close(handle)


def _validate(path: Path) -> None:
    """RecordError unless `path` is a sound match record this version reads; writes nothing.

    Only SQLite touches the file, read-only: a descriptor of our own, once closed, would drop
    every lock this process holds on the record through its other connections, and another
    process could then delete the write-ahead log under them.
    """
    if path.is_dir():
        raise NotARecord(N_("{path} is a directory, not a match record"), path, path=path)
    size = path.stat().st_size
    if size == 0:
        raise NotARecord(N_("{path} is an empty file, not a match record; {untouched}"), path,
                         path=path, untouched=UNTOUCHED)
    not_sqlite = NotARecord(
        N_("{path} is not a match record (not an SQLite database); {untouched}"), path,
        path=path, untouched=UNTOUCHED,
    )
    if size < SMALLEST_DATABASE:  # SQLite would take it for an empty database
        raise not_sqlite
    try:
        with closing(sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True)) as db:
            (application,) = db.execute("PRAGMA application_id").fetchone()
            (version,) = db.execute("PRAGMA user_version").fetchone()
            _check_ids(path, application, version)
            damage = [" ".join(row[0].split()) for row in db.execute("PRAGMA quick_check")]
    except sqlite3.DatabaseError as error:
        if error.sqlite_errorcode == SQLITE_NOTADB:
            raise not_sqlite from None
        raise DamagedRecord(
            N_("{path} is a damaged match record ({fault}); {untouched}"), path,
            path=path, fault=Foreign(error), untouched=UNTOUCHED,
        ) from None
    if damage != ["ok"]:
        raise DamagedRecord(
            N_("{path} is a damaged match record ({fault}); {untouched}"), path,
            path=path, fault=Foreign("; ".join(damage[:3])), untouched=UNTOUCHED,
        )


def _check_ids(path: Path, application: int, version: int) -> None:
    """RecordError unless the application id is this program's and the schema one it reads."""
    if application != APPLICATION_ID:
        raise NotARecord(
            N_("{path} is an SQLite database of another program (application id "
               "{application:#x}), not a match record; {untouched}"), path,
            path=path, application=application, untouched=UNTOUCHED,
        )
    if version > SCHEMA_VERSION:
        raise NewerRecord(
            N_("{path} was recorded by a newer carom-referee (record schema {version}; "
               "this version reads {schema}); {untouched}"), path,
            path=path, version=version, schema=SCHEMA_VERSION, untouched=UNTOUCHED,
        )
    if version < SCHEMA_VERSION:
        raise NotARecord(N_("{path} has an unknown record schema {version}; {untouched}"), path,
                         path=path, version=version, untouched=UNTOUCHED)


def replayed(
    path: Path, match_id: int, match: Match, events: tuple[RecordedEvent, ...]
) -> Iterator[Result]:
    """`match` taken through the recorded `events` of match `match_id` in the record at `path`
    (a file, or a hall's database), each one's result in turn; NewerRecord if the rules refuse
    one."""
    try:
        yield from steps(match, (e.command for e in events), events[0].seq if events else 1)
    except ReplayError as error:
        raise NewerRecord(
            N_("match {match_id} in {path} no longer replays under these rules: {error}; "
               "{untouched}"), path,
            match_id=match_id, path=path, error=error, untouched=UNTOUCHED,
        ) from None
