"""Where a table pushes its record: the hall's PostgreSQL (a libpq connection string) and the
names of the hall and the table; shown and logged without a password."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeAlias

import psycopg
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from rules.errors import RefereeError
from voice.translation import N_

# libpq's own defaults wait for ever on a silent network; these apply unless the string sets them.
TIMEOUTS = {
    "connect_timeout": "5",  # seconds to connect
    "keepalives_idle": "5",  # a silent connection is probed after 5 s …
    "keepalives_interval": "2",
    "keepalives_count": "3",  # … and given up after 3 probes unanswered
    "tcp_user_timeout": "10000",  # ms: data unacknowledged this long ends the connection
}
SECRETS = ("password", "sslpassword")  # never shown, never logged
UNREADABLE = N_("(not a connection string)")
ENVIRONMENT = N_("libpq's environment (PGHOST, PGSERVICE …)")  # shown for an empty string


Connection: TypeAlias = "psycopg.Connection[tuple[Any, ...]]"  # rows as plain tuples


class BadTarget(RefereeError):
    """A connection string libpq cannot read."""


@dataclass(frozen=True)
class Target:
    """The hall's database (libpq's connection string, URL or key=value; "" for libpq's
    environment and service files alone), the hall's name and this table's."""

    conninfo: str
    hall: str | None
    table: str

    def __post_init__(self) -> None:
        try:
            conninfo_to_dict(self.conninfo)
        except psycopg.Error:  # its message may quote the string, password and all
            raise BadTarget(N_("not a PostgreSQL connection string: give a URL "
                               "postgresql://USER@HOST/DATABASE or key=value pairs")) from None

    def shown(self) -> str:
        """The connection string without its password, for messages and logs."""
        return shown(self.conninfo)

    def connect(self) -> Connection:
        """A new connection to the hall's database (psycopg.Error if there is none to have)."""
        return connect(self.conninfo)


def connect(conninfo: str, autocommit: bool = False) -> Connection:
    """A new connection to the hall's database `conninfo`, with TIMEOUTS unless it sets them
    (psycopg.Error if there is none to have)."""
    given = conninfo_to_dict(conninfo)
    return psycopg.connect(make_conninfo(conninfo, **{
        key: value for key, value in TIMEOUTS.items() if key not in given
    }), autocommit=autocommit)


def shown(conninfo: str) -> str:
    """`conninfo` without any password, as key=value pairs (libpq's environment and service
    files fill in what it leaves out); not even in part if libpq cannot read it."""
    try:
        given = conninfo_to_dict(conninfo)
    except psycopg.Error:
        return UNREADABLE
    kept = {key: value for key, value in given.items() if key not in SECRETS}
    return make_conninfo(**{k: str(v) for k, v in kept.items() if v is not None}) or ENVIRONMENT
