"""The hall scoreboard's view of a recorded match: its summary, the latest calls, the break clock.

Everything is derived by replaying the record; nothing here is stored.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from phrases.render import Utterance
from rules.command import Command, Kind
from rules.match import BREAK_SECONDS
from rules.state import Setup, new_match
from rules.summary import summary
from voice.match_record.database import LoadedMatch, RecordedEvent
from voice.session import Session

CALLS = frozenset({"entrees", "dedans", "restees_dedans", "a_cheval", "touchent"})
REMINDERS = frozenset({"for_five", "for_three"})
CLOCK = frozenset({Kind.BREAK, Kind.BREAK_END, Kind.TICK})  # events that say nothing of the balls

Said = tuple[RecordedEvent, list[Utterance]]  # an event and what the PA said when it was taken


def in_force(setup: Setup, events: tuple[RecordedEvent, ...]) -> list[Said]:
    """The events behind the match's history (what UNDO left), each with what the PA said."""
    session = Session(new_match(setup))
    kept: list[Said] = []
    for event in events:
        said = [u for u in session.command(event.command) if u.channel == "pa"]
        if event.command.kind is Kind.UNDO:
            kept = _matching(kept, session.match.history)
        else:
            kept.append((event, said))
    return kept


def board(loaded: LoadedMatch) -> dict[str, Any]:
    """The match's summary with each player's reminder, the latest zone call and the break start.

    The call is what the PA said of the balls at the latest stroke in force; a reminder
    («για πέντε») is the one said at the player's latest point in force.
    """
    call: list[Utterance] = []
    reminders: dict[str, Utterance | None] = {}
    break_started = None
    for event, said in in_force(loaded.setup, loaded.events):
        if event.command.kind not in CLOCK:
            call = [u for u in said if u.code in CALLS]
        if event.command.kind is Kind.BREAK:
            break_started = event.created
        scorer = next((u.player for u in said if u.code == "score"), None)
        if scorer is not None:
            reminders[scorer] = next((u for u in said if u.code in REMINDERS), None)
    state = summary(loaded.match)
    for player in state["players"]:
        reminder = reminders.get(player["surname"])
        player["reminder"] = None if reminder is None else asdict(reminder)
    return {
        "match": loaded.id,
        "seq": loaded.last_seq,
        **state,
        "call": [asdict(u) for u in call],
        "break_started": break_started if loaded.match.pause is not None else None,
        "break_seconds": BREAK_SECONDS,
    }


def _matching(kept: list[Said], history: tuple[Command, ...]) -> list[Said]:
    """The kept events that the history after an UNDO still holds, in order.

    UNDO drops one command and any clock tick that no longer changes anything, so the history
    is a subsequence of the kept events' commands.
    """
    matched: list[Said] = []
    for item in kept:
        if len(matched) < len(history) and item[0].command == history[len(matched)]:
            matched.append(item)
    return matched
