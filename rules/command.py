"""The referee's commands: what the grammar produces and what the match record stores."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from rules.errors import RefereeError


class Kind(StrEnum):
    """Every kind of command the rules core understands."""

    POINT = "point"  # a carom; the balls stay where they are with respect to the zone
    POINT_OUT = "point_out"  # a carom that took an object ball out of every zone
    POINT_OUT_ANCHOR = "point_out_anchor"  # cadre: out of the anchor, still in the frame
    POINT_ENTREES = "point_entrees"  # a carom after which the object balls are freshly in a zone
    POINT_ENTREES_ANCHOR = "point_entrees_anchor"  # cadre: … freshly in an anchor (and frame)
    MISS = "miss"
    FOUL = "foul"
    ENTREES = "entrees"  # the object balls entered a zone (triangle or frame)
    ENTREES_ANCHOR = "entrees_anchor"  # cadre: the object balls entered an anchor
    OUT = "out"  # the object balls are no longer in any zone
    A_CHEVAL = "a_cheval"
    A_CHEVAL_ANCHOR = "a_cheval_anchor"  # cadre: À CHEVAL for the frames, in an anchor
    LIBRES = "libres"
    TOUCHENT = "touchent"
    RESPOT = "respot"  # the player asks for the re-spot after TOUCHENT
    FAULT_SIX = "fault_six"
    BALL_OFF = "ball_off"  # one or more balls left the table
    BREAK = "break"
    BREAK_END = "break_end"
    TICK = "tick"  # time passed in a break, warm-up or shot (fed by the live clock, never said)
    UNDO = "undo"
    SCORE = "score"  # repeat the score
    STARTS = "starts"  # who breaks (at the start of an extension)
    WARM_UP = "warm_up"  # a player's warm-up before the match
    WARM_UP_END = "warm_up_end"
    CORRECT = "correct"  # the points of a past inning corrected (the protocol editor)
    INSERT_INNING = "insert_inning"  # a forgotten round inserted: a miss of each player
    DELETE_INNING = "delete_inning"  # a spurious round deleted: an inning of each player
    TIME_OUT = "time_out"  # the player at the table takes a time-out (rules.shot_clock)


class CommandError(RefereeError, ValueError):
    """A stored command that is malformed: the message names the field."""


BALLS = ("white", "yellow", "red")
TICK_SECONDS = 1.0  # how often a running clock (the live loop's, serve's) feeds the rules a TICK
MAX_FRAME = 9  # the balk lines divide a cadre table into nine frames


@dataclass(frozen=True, slots=True)
class Command:
    """One accepted referee command; only the fields its kind needs are set."""

    kind: Kind
    player: str | None = None  # STARTS, BREAK: the surname named
    balls: tuple[str, ...] = ()  # BALL_OFF: colours that left the table
    covered: tuple[tuple[str, str], ...] = ()  # BALL_OFF: (ball, ball covering its spot)
    seconds: float | None = None  # TICK: seconds since the break, warm-up or shot started
    frames: tuple[int, ...] = ()  # cadre ENTRÉES: the frame(s) the referee names (1 or 2)
    inning: int | None = None  # CORRECT, INSERT_INNING, DELETE_INNING: the inning's number, from 1
    points: int | None = None  # CORRECT: the inning's points as they should be
    shot: int | None = None  # TICK of the shot clock: the shot it times (rules.shot_clock)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form holding only the fields that are set.

        >>> Command(Kind.STARTS, player="Caudron").to_dict()
        {'kind': 'starts', 'player': 'Caudron'}
        >>> Command.from_dict({"kind": "miss"}) == Command(Kind.MISS)
        True
        """
        data: dict[str, Any] = {"kind": self.kind.value}
        if self.player is not None:
            data["player"] = self.player
        if self.balls:
            data["balls"] = list(self.balls)
        if self.covered:
            data["covered"] = [list(pair) for pair in self.covered]
        if self.seconds is not None:
            data["seconds"] = self.seconds
        if self.frames:
            data["frames"] = list(self.frames)
        if self.inning is not None:
            data["inning"] = self.inning
        if self.points is not None:
            data["points"] = self.points
        if self.shot is not None:
            data["shot"] = self.shot
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Command:
        """Rebuild a command from `to_dict`'s form; raises CommandError on a malformed one."""
        if not isinstance(data, dict):
            raise CommandError("a command must be an object, not {type}", type=type(data).__name__)
        unknown = set(data) - {
            "kind", "player", "balls", "covered", "seconds", "frames", "inning", "points", "shot"
        }
        if unknown:
            raise CommandError("unknown command fields: {fields}", fields=sorted(unknown))
        try:
            kind = Kind(data["kind"])
        except (KeyError, ValueError) as error:
            raise CommandError("unknown command kind: {kind!r}", kind=data.get("kind")) from error
        if len(data) == 1:
            return _BARE[kind]
        player = data.get("player")
        if player is not None and not isinstance(player, str):
            raise CommandError("command field 'player' must be a string")
        balls = _sequence(data, "balls")
        if any(ball not in BALLS for ball in balls):
            raise CommandError("unknown ball in {balls!r}; expected {known}", balls=balls,
                               known=BALLS)
        try:
            covered = tuple((str(a), str(b)) for a, b in _sequence(data, "covered"))
        except (TypeError, ValueError) as error:
            raise CommandError("command field 'covered' must be a list of pairs") from error
        if any(ball not in BALLS for pair in covered for ball in pair):
            raise CommandError("unknown ball in covered {covered!r}", covered=covered)
        seconds = data.get("seconds")
        if seconds is not None and (
            isinstance(seconds, bool) or not isinstance(seconds, int | float) or seconds < 0
        ):
            raise CommandError("command field 'seconds' must be a non-negative number")
        frames = _sequence(data, "frames")
        if len(frames) > 2 or any(
            isinstance(f, bool) or not isinstance(f, int) or not 1 <= f <= MAX_FRAME for f in frames
        ):
            raise CommandError("command field 'frames' must be one or two numbers 1–{most}",
                               most=MAX_FRAME)
        inning, points, shot = (_whole(data, name) for name in ("inning", "points", "shot"))
        return cls(kind, player, balls, covered, seconds, frames, inning, points, shot)


# A command of its kind alone, as most are: one object each, shared by every record of it.
_BARE = {kind: Command(kind) for kind in Kind}


def _whole(data: dict[str, Any], field: str) -> int | None:
    value = data.get(field)
    if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
        raise CommandError("command field {field!r} must be a whole number", field=field)
    return value


def _sequence(data: dict[str, Any], field: str) -> tuple[Any, ...]:
    value = data.get(field, ())
    if not isinstance(value, list | tuple):
        raise CommandError("command field {field!r} must be a list", field=field)
    return tuple(value)
