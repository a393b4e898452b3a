"""The match state as plain data: for `simulate`'s last line, exports and screens."""

from __future__ import annotations

from typing import Any

from rules.state import Match


def summary(match: Match) -> dict[str, Any]:
    """Each player's statistics, whose turn it is, the target and the winner (or None)."""
    return {
        "discipline": match.setup.discipline,
        "distance": match.setup.distance,
        "target": match.phase.target,
        "extension": match.phase.number,
        "single_stroke": match.phase.single_stroke,
        "players": [
            {
                "surname": p.surname,
                "points": p.points,
                "innings": p.innings,
                "average": round(p.average, 3),
                "highest_run": p.highest_run,
                "break_taken": p.break_taken,
            }
            for p in match.players
        ],
        "turn": None if match.at_table is None else match.surname(match.at_table),
        "run": match.run,
        "zones": [z.kind for z in match.zones],
        "touchent": match.touchent,
        "break": None if match.pause is None else match.surname(match.pause.player),
        "winner": None if match.winner is None else match.surname(match.winner),
    }
