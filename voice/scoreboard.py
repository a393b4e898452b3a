"""The hall scoreboard's view of a recorded match: its summary, the latest calls, the break clock.

Everything is derived by replaying the record; nothing here is stored.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from phrases.render import Utterance
from rules.command import Kind
from rules.match import BREAK_SECONDS
from rules.state import new_match
from rules.summary import summary
from voice.record import Event, LoadedMatch
from voice.session import Session

CALLS = frozenset({"entrees", "dedans", "restees_dedans", "a_cheval", "touchent"})
REMINDERS = frozenset({"for_five", "for_three"})
CLOCK = frozenset({Kind.BREAK, Kind.BREAK_END, Kind.TICK})  # events that say nothing of the balls


def in_force(events: tuple[Event, ...]) -> list[Event]:
    """The events behind the match's history: each UNDO takes back the newest not of the clock.

    This mirrors `rules.match._undo`; a test checks that both always agree.
    """
    kept: list[Event] = []
    for event in events:
        if event.command.kind is not Kind.UNDO:
            kept.append(event)
            continue
        spoken = [i for i, e in enumerate(kept) if e.command.kind is not Kind.TICK]
        del kept[spoken[-1]]  # a recorded UNDO always had something to take back
    return kept


def board(loaded: LoadedMatch) -> dict[str, Any]:
    """The match's summary with each player's reminder, the latest zone call and the break start.

    The call is what the PA said of the balls' position at the latest stroke in force; a
    reminder («για πέντε») holds until the player it was said for scores again.
    """
    session = Session(new_match(loaded.setup))
    call: list[Utterance] = []
    reminders: dict[str, tuple[Utterance, int]] = {}
    break_started = None
    for event in in_force(loaded.events):
        said = [u for u in session.command(event.command) if u.channel == "pa"]
        if event.command.kind not in CLOCK:
            call = [u for u in said if u.code in CALLS]
        if event.command.kind is Kind.BREAK:
            break_started = event.created
        scorer = next((u.player for u in said if u.code == "score"), None)
        for utterance in said:
            if utterance.code in REMINDERS and scorer is not None:
                reminders[scorer] = (utterance, _points(session, scorer))
    state = summary(loaded.match)
    for player in state["players"]:
        reminder, points = reminders.get(player["surname"], (None, None))
        held = reminder is not None and points == player["points"]
        player["reminder"] = asdict(reminder) if held else None
    return {
        "match": loaded.id,
        "seq": loaded.last_seq,
        **state,
        "call": [asdict(u) for u in call],
        "break_started": break_started if loaded.match.pause is not None else None,
        "break_seconds": BREAK_SECONDS,
    }


def _points(session: Session, surname: str) -> int:
    return next(p.points for p in session.match.players if p.surname == surname)
