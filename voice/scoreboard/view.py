"""The hall scoreboard's view of a recorded match, advanced one recorded event at a time: its
summary with each player's last innings, the latest calls, balls off the table, the reminders,
the break's and the shot's start, as JSON."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from typing import Any

from phrases.bank import Channel, bank
from rules.allowed import allowed
from rules.announcement import Announcement, Code
from rules.command import Kind
from rules.match import BREAK_SECONDS
from rules.shot_clock import WARNING_BEFORE
from rules.state import Match, new_match
from rules.summary import summary
from voice.match_record.database import RecordedEvent
from voice.match_record.liveness import Heartbeat
from voice.match_record.reading import Reader
from voice.scoreboard.schema import CONTROLS, LAST_INNINGS
from voice.session import Session

CALLS = frozenset({"entrees", "dedans", "restees_dedans", "a_cheval", "touchent"})
REMINDERS = frozenset({"for_five", "for_three"})
SPOKEN = ("code", "channel", "text", "display", "player", "points")  # an utterance's fields
# Events that say nothing of the balls.
CLOCK = frozenset({
    Kind.BREAK, Kind.BREAK_END, Kind.TICK, Kind.WARM_UP, Kind.WARM_UP_END, Kind.CORRECT,
    Kind.INSERT_INNING, Kind.DELETE_INNING,
})


@dataclass(frozen=True, slots=True)
class Shown:
    """What the board shows beyond the match's own state, as of one event in force; it is put
    into words only when shown."""

    call: tuple[Announcement, ...] = ()  # the PA's zone calls at the latest stroke
    balls_off: Announcement | None = None  # balls off the table at the latest stroke
    reminders: tuple[Announcement | None, Announcement | None] = (None, None)  # at each's point
    break_started: str | None = None  # when the latest break was recorded
    warm_up_started: str | None = None  # when the latest warm-up was recorded


@dataclass(frozen=True)
class Snapshot:
    """The board as of event `seq`, as JSON text without the server's time."""

    seq: int
    body: str

    def text(self, now: str) -> str:
        """The JSON text with the server's time `now` (ISO) added, to set the countdown by."""
        return f'{self.body[:-1]},"now":{json.dumps(now)}}}'


class View:
    """A match as the board shows it, kept current by `catch_up` one recorded event at a time.

    `_shown` holds one `Shown` per event in force that is not a clock tick: an undo pops one.
    Events that change nothing shown share the one before, so a long match keeps few of them.
    """

    def __init__(self, match_id: int, match: Match) -> None:
        self.match_id = match_id
        self._session = Session(match)  # renders what each event said, as it was voiced
        self.seq = 0  # the newest event taken
        self._shown = [Shown()]
        self._shot: tuple[int, str] | None = None  # the running shot's number and recorded start
        self.heartbeat: Heartbeat | None = None  # the voice loop's latest
        self.state = self.board()  # as plain data, without the server's time
        self.current = Snapshot(0, _json(self.state))

    @classmethod
    def load(cls, record: Reader, match_id: int) -> View:
        """The view of match `match_id`, its record replayed once."""
        view = cls(match_id, new_match(record.setup(match_id)[1]))
        view.catch_up(record)
        view.beat(record.heartbeat(match_id))
        return view

    @property
    def match(self) -> Match:
        """The match as of the newest event taken."""
        return self._session.match

    def catch_up(self, record: Reader) -> bool:
        """Take the events recorded after the newest taken; whether there were any."""
        events = record.events(self.match_id, after=self.seq)
        steps = record.replayed(self.match_id, self.match, events)
        for event, (match, said) in zip(events, steps, strict=True):
            self.take(event, match, said)
        if events:
            self.redraw()
        return bool(events)

    def beat(self, heartbeat: Heartbeat | None) -> bool:
        """Take the voice loop's latest heartbeat; whether the board changed."""
        if heartbeat == self.heartbeat:
            return False
        self.heartbeat = heartbeat
        self.redraw()
        return True

    def redraw(self) -> None:
        """Make the board again from what the view holds."""
        self.state = self.board()
        self.current = Snapshot(self.seq, _json(self.state))

    def take(self, event: RecordedEvent, match: Match, said: list[Announcement]) -> None:
        """Take one recorded event: the match it led to and what the rules said of it."""
        kind = event.command.kind
        self._session.match = match
        clock = match.shot_clock  # each restart numbers a new shot (rules.shot_clock)
        if clock is not None and (self._shot is None or self._shot[0] != clock.shot):
            self._shot = (clock.shot, event.created)
        if kind is Kind.UNDO:
            self._shown.pop()  # a recorded undo withdrew an event in force, never a tick
        elif kind is not Kind.TICK:
            self._shown.append(self._next(kind, event.created, said))
        self.seq = event.seq

    def _next(self, kind: Kind, created: str, said: list[Announcement]) -> Shown:
        """What the board shows after an event of `kind` recorded at `created` that said `said`."""
        before = self._shown[-1]
        phrases = bank()
        pa = [a for a in said if phrases.template(a.code, a.variant).channel is Channel.PA]
        call, balls_off = before.call, before.balls_off
        if kind not in CLOCK:
            call = tuple(a for a in pa if a.code in CALLS)
            balls_off = next((a for a in said if a.code is Code.BALL_OFF_TABLE), None)
        reminders = before.reminders
        scorer = next((a.player for a in pa if a.code is Code.SCORE), None)
        if scorer is not None:
            reminder = next((a for a in pa if a.code in REMINDERS), None)
            index = self.match.setup.players.index(scorer)
            reminders = (reminder, reminders[1]) if index == 0 else (reminders[0], reminder)
        started = created if kind is Kind.BREAK else before.break_started
        warm_up = created if kind is Kind.WARM_UP else before.warm_up_started
        shown = Shown(call, balls_off, reminders, started, warm_up)
        return before if shown == before else shown

    def _spoken(self, said: Announcement, keys: tuple[str, ...] = SPOKEN) -> dict[str, Any]:
        """An announcement in words, in the fields `referee simulate --jsonl` writes."""
        (utterance,) = self._session.utterances([said])
        return {key: getattr(utterance, key) for key in keys}

    def board(self) -> dict[str, Any]:
        """The board as of the newest event taken: the match's summary with each player's
        reminder and last innings, the commands the panel offers, the latest zone call, the
        balls off the table and the break's start."""
        shown = self._shown[-1]
        state = summary(self.match)
        players = zip(state["players"], self.match.players, shown.reminders, strict=True)
        for player, played, reminder in players:
            player["reminder"] = None if reminder is None else self._spoken(reminder)
            # The summary's list of innings grows with the match (the protocol's): the board
            # keeps the last finished ones, the inning in play (the list's last, if his) left out.
            done = player.pop("innings_points")[: len(played.innings_points)]
            player["last_innings"] = done[-LAST_INNINGS:]
        off = shown.balls_off
        return {
            "match": self.match_id,
            "seq": self.seq,
            **state,
            "controls": [kind.value for kind in allowed(self.match, CONTROLS)],
            "call": [self._spoken(a) for a in shown.call],
            "balls_off": None if off is None else {
                **self._spoken(off, ("text", "display")),
                "spots": [{"ball": ball, "spot": spot} for ball, spot in off.spots],
            },
            "break_started": shown.break_started if self.match.pause is not None else None,
            "break_seconds": BREAK_SECONDS,
            "warm_up_started": shown.warm_up_started if self.match.warm_up is not None else None,
            "warm_up_seconds": self.match.setup.warm_up_seconds,
            "shot_clock": self._shot_clock(),
            "hall": self.match.setup.hall,
            "table": self.match.setup.table,
            "referee": self.match.setup.referee,
            "liveness": None if self.heartbeat is None else asdict(self.heartbeat),
        }

    def _shot_clock(self) -> dict[str, Any] | None:
        """The running shot: when the record gives its start, its seconds (a period for each
        time-out in it) and the warning's; None while no shot clock runs."""
        clock, shot = self.match.shot_clock, self._shot
        seconds = self.match.setup.shot_clock
        if clock is None or shot is None or seconds is None:
            return None
        return {"started": shot[1], "seconds": seconds * clock.periods,
                "warning_seconds": WARNING_BEFORE}


def server_time() -> str:
    """The server's time now, as the board's `now` gives it."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _json(state: dict[str, Any]) -> str:
    return json.dumps(state, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
