"""The hall's PostgreSQL schema: versioned migrations (migrations/*.sql), each applied once."""

from __future__ import annotations

from importlib.resources import files

from rules.errors import RefereeError
from voice.hall.target import Connection
from voice.translation import N_

# One lock for every process migrating the same database: tables starting at once wait in turn.
MIGRATION_LOCK = 0x43524546  # "CREF", as the SQLite record's application id
VERSIONS = """
CREATE TABLE IF NOT EXISTS schema_version (
    version integer PRIMARY KEY,  -- the number of a migration file, 0001_….sql is 1
    applied timestamptz NOT NULL DEFAULT now()
)"""


class NewerHall(RefereeError):
    """The hall's database was migrated by a newer carom-referee."""


def migrations() -> list[tuple[int, str]]:
    """Every migration, oldest first: its version (the file's number) and its SQL."""
    folder = files("voice.hall") / "migrations"
    found = [(int(f.name.partition("_")[0]), f.read_text(encoding="utf-8"))
             for f in folder.iterdir() if f.name.endswith(".sql")]
    return sorted(found)


LATEST = migrations()[-1][0]  # the schema this version reads and writes


def migrate(db: Connection) -> int:
    """Bring the hall's database up to LATEST (each migration in one transaction); its version
    before. NewerHall if a newer carom-referee migrated it further."""
    with db.transaction():
        db.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
        db.execute(VERSIONS)
        row = db.execute("SELECT coalesce(max(version), 0) FROM schema_version").fetchone()
        found = int(row[0]) if row else 0
        if found > LATEST:
            raise NewerHall(N_("the hall's database has schema {found}, newer than this "
                               "carom-referee's {latest}"), found=found, latest=LATEST)
        for version, sql in migrations():
            if version > found:
                db.execute(sql.encode())  # no parameters: several statements in one go
                db.execute("INSERT INTO schema_version (version) VALUES (%s)", (version,))
    return found
