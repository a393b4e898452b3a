"""One table's record pushed to the hall's PostgreSQL: every event once, in order, resuming from
what the hall already holds; heartbeats as their latest state."""

from __future__ import annotations

import psycopg
from psycopg.types.json import Jsonb

from rules.errors import RefereeError
from voice.hall.schema import migrate
from voice.hall.target import Connection, Target
from voice.match_record.database import Record
from voice.translation import N_, Foreign

BATCH = 500  # events per transaction: a long record reaches the hall in steps, each kept

ENTER = """
INSERT INTO matches (id, hall, table_name, local_id, created, setup)
VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (id) DO NOTHING"""
PUSHED = """
SELECT m.id::text, coalesce(max(e.seq), 0) FROM matches AS m
LEFT JOIN events AS e ON e.match_id = m.id WHERE m.id = ANY(%s::uuid[]) GROUP BY m.id"""
EVENT = """
INSERT INTO events (match_id, seq, command, created) VALUES (%s, %s, %s, %s)
ON CONFLICT (match_id, seq) DO NOTHING"""
BEAT = """
INSERT INTO liveness (match_id, state, at) VALUES (%s, %s, %s)
ON CONFLICT (match_id) DO UPDATE SET state = excluded.state, at = excluded.at
WHERE liveness.at < excluded.at"""


class HallUnreachable(RefereeError):
    """The hall's database cannot be reached or refused a write; what the hall holds is kept."""


class Pusher:
    """Pushes the record `record` to `target`, round by round, over one connection it opens."""

    def __init__(self, record: Record, target: Target) -> None:
        self.record = record
        self.target = target
        self._db: Connection | None = None
        self._pushed: dict[int, int] = {}  # match number → the newest event the hall holds
        self._beats: dict[int, str] = {}  # match number → the heartbeat time the hall holds
        self._version: int | None = None  # the record's data version at the last full round
        self._uids: dict[int, str] = {}

    def round(self) -> int:
        """Push whatever the hall lacks; the number of events pushed. HallUnreachable (the
        connection closed, the next round opens another) if the hall cannot take them."""
        try:
            return self._round()
        except psycopg.Error as error:
            self.close()
            raise HallUnreachable(N_("the hall's database {target}: {error}"),
                                  target=self.target.shown(), error=first_line(error)) from None

    def behind(self) -> int:
        """How many recorded events the hall lacked after the last round (all, before one)."""
        return sum(last - self._pushed.get(m, 0) for m, last in self.record.last_seqs().items())

    def close(self) -> None:
        """Close the connection, if open; the next round starts from what the hall holds."""
        if self._db is not None:
            self._db.close()
        self._db = None
        self._pushed.clear()
        self._beats.clear()
        self._version = None

    def _round(self) -> int:
        version = self.record.data_version()  # before reading: a commit after it is seen next
        if self._db is None:
            self._db = self.target.connect()
            migrate(self._db)
        elif version == self._version:
            return 0
        db = self._db
        local = self.record.last_seqs()
        self._learn(db, [m for m in local if m not in self._pushed])
        pushed = 0
        for match_id, last in local.items():
            while self._pushed[match_id] < last:
                events = self.record.events(match_id, after=self._pushed[match_id])[:BATCH]
                with db.transaction(), db.cursor() as cursor:
                    cursor.executemany(EVENT, [
                        (self._uids[match_id], e.seq, Jsonb(e.command.to_dict()), e.created)
                        for e in events
                    ])
                self._pushed[match_id] = events[-1].seq
                pushed += len(events)
        for match_id, beat in self.record.heartbeats().items():
            if self._beats.get(match_id) != beat.at and match_id in self._pushed:
                with db.transaction():
                    db.execute(BEAT, (self._uids[match_id], str(beat.state), beat.at))
                self._beats[match_id] = beat.at
        self._version = version
        return pushed

    def _learn(self, db: Connection, new: list[int]) -> None:
        """Enter the matches `new` to this connection in the hall (once), and learn how far the
        hall holds each."""
        if not new:
            return
        for match_id in new:
            self._uids.setdefault(match_id, self.record.uid(match_id))
        with db.transaction():
            uids = [self._uids[m] for m in new]
            held: dict[str, int] = dict(db.execute(PUSHED, (uids,)).fetchall())
            for match_id in new:
                uid = self._uids[match_id]
                if uid not in held:
                    created, setup = self.record.setup(match_id)
                    db.execute(ENTER, (uid, setup.hall or self.target.hall,
                                       setup.table or self.target.table, match_id, created,
                                       Jsonb(setup.to_dict())))
        for match_id in new:
            self._pushed[match_id] = int(held.get(self._uids[match_id], 0))


def first_line(error: psycopg.Error) -> Foreign:
    """libpq's message, first line only (the rest repeats it or gives a hint about libpq): its
    own words, which the catalogue cannot hold."""
    return Foreign((str(error).strip().splitlines() or [type(error).__name__])[0])
