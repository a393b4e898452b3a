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
        "innings_limit": match.setup.innings_limit,
        "on_tie": str(match.setup.on_tie),
        "playoff": match.phase.playoff,
        "sets": match.setup.sets,
        "sets_won": list(match.sets),
        "players": [
            {
                "surname": p.surname,
                "points": p.points,
                "innings": p.innings,
                "average": p.average,
                "highest_run": p.highest_run,
                "break_taken": p.break_taken,
                "time_outs": p.time_outs,
                "set_points": p.points - start,
                "distance": distance,
                "target": target,
                "innings_points": innings_points(match, index),
                "innings_left": innings_left(match, index),
            }
            for index, (p, distance, target, start) in enumerate(
                zip(match.players, match.setup.distances, match.phase.targets, match.set_start,
                    strict=True)
            )
        ],
        "turn": None if match.at_table is None else match.surname(match.at_table),
        "run": match.run,
        "zones": [z.kind for z in match.zones],
        "touchent": match.touchent,
        "break": None if match.pause is None else match.surname(match.pause.player),
        "winner": None if match.winner is None else match.surname(match.winner),
        "drawn": match.drawn,
        "warm_up": None if match.warm_up is None else match.surname(match.warm_up.player),
    }


def innings_points(match: Match, player: int) -> list[int]:
    """The points of each of `player`'s innings, the one being played included."""
    done = list(match.players[player].innings_points)
    return [*done, match.run] if match.at_table == player else done


def innings_left(match: Match, player: int) -> int | None:
    """The innings `player` has still to play under the limit, the current one included
    (None without a limit, and in an extension)."""
    limit = match.setup.innings_limit
    if limit is None or match.phase.number:
        return None
    return max(0, limit - len(match.players[player].innings_points))
