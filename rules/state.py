"""The immutable match state and the set-up it starts from."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, TypeVar

from rules import statistics
from rules.command import Command
from rules.discipline import Discipline, SetupError, discipline
from rules.normalise import normalise
from rules.series import Series
from rules.zone_kind import ZoneKind

MAX_DISTANCE = 10_000
MAX_INNINGS = 1_000  # the longest innings limit a set-up may fix
WARM_UP_SECONDS = 5 * 60  # the warm-up before the match, unless the set-up says otherwise
MAX_WARM_UP_SECONDS = 60 * 60
MAX_SHOT_CLOCK = 10 * 60  # the longest shot-clock period a set-up may fix, in seconds
MAX_TIME_OUTS = 10  # the most time-outs per player a set-up may fix
MAX_SETS = 9  # the longest best-of-N a set-up may fix
PLAYOFF_POINTS = 15  # the distance of a play-off, unless the set-up says otherwise


class OnTie(StrEnum):
    """What equal points lead to: at the distance (both reached it in the same innings) and at
    the innings limit."""

    EXTENSION = "extension"  # Article 4's extension
    DRAW = "draw"  # the match ends drawn
    PLAYOFF = "playoff"  # a play-off to `Setup.playoff_points`, the starter named as at Article 4


CHECKPOINT_EVERY = 16  # one state kept per this many commands: an undo replays fewer

State = TypeVar("State")


@dataclass(frozen=True)
class Setup:
    """What the referee fixes before the break: discipline, distance, players, who breaks."""

    discipline: str
    distance: int
    players: tuple[str, str]
    first: int = 0  # index into `players` of the player who breaks
    handicap: tuple[int, int] | None = None  # each player's own distance; `distance` the longer
    innings_limit: int | None = None  # the match ends when both have played this many innings
    on_tie: OnTie = OnTie.EXTENSION  # equal points at the distance or the innings limit
    playoff_points: int = PLAYOFF_POINTS  # with `OnTie.PLAYOFF`: the play-off's distance
    sets: int | None = None  # best of this many sets, each to the distance; None: one game
    warm_up_seconds: int = WARM_UP_SECONDS
    hall: str | None = None  # for the protocol and the board: the hall played in
    table: str | None = None  # for the protocol: the table played on
    referee: str | None = None  # for the protocol: the referee's name
    scorer: str | None = None  # for the protocol: who keeps the score sheet
    shot_clock: int | None = None  # seconds per shot (rules.shot_clock); None: no shot clock
    time_outs: int | None = None  # time-outs per player under the shot clock
    equalising: bool = True  # False (knock-out): the first to his distance wins at once
    # With `OnTie.DRAW`, a record made before a tie at the distance was drawn too: there it
    # brings Article 4's extension, as it did when played (`to_dict`'s `draw_at_distance`).
    draw_at_limit_only: bool = False
    # How each surname is said (the TTS voices it, the grammar hears it); empty: as written.
    spoken: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        discipline(self.discipline)
        if isinstance(self.distance, bool) or not isinstance(self.distance, int):
            raise SetupError("the distance must be a whole number, not {distance!r}",
                             distance=self.distance)
        if not 1 <= self.distance <= MAX_DISTANCE:
            raise SetupError("the distance must be 1 to {most} points, not {distance}",
                             most=MAX_DISTANCE, distance=self.distance)
        names = self.players
        if len(names) != 2 or not all(isinstance(p, str) and normalise(p) for p in names):
            raise SetupError("a match needs exactly two non-empty surnames")
        if normalise(self.players[0]) == normalise(self.players[1]):
            raise SetupError("the two surnames must differ: {name!r}", name=self.players[0])
        if self.first not in (0, 1):
            raise SetupError("the player who breaks must be one of the two players")
        self._check_spoken(self.spoken or self.players)
        self._check_formats()

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form, as the match record keeps it: the format's fields only when set.

        >>> Setup("libre", 50, ("Jaspers", "Caudron"), innings_limit=30).to_dict()
        ... # doctest: +NORMALIZE_WHITESPACE
        {'discipline': 'libre', 'distance': 50, 'players': ['Jaspers', 'Caudron'], 'first': 0,
         'spoken': ['Jaspers', 'Caudron'], 'innings_limit': 30, 'on_tie': 'extension'}
        """
        data: dict[str, Any] = {
            "discipline": self.discipline,
            "distance": self.distance,
            "players": list(self.players),
            "first": self.first,
            "spoken": list(self.spoken),  # added later: a record without it says them as written
        }
        # Added later, each only when set: a record without them plays the plain format.
        if self.handicap is not None:
            data["handicap"] = list(self.handicap)
        if self.innings_limit is not None:
            data["innings_limit"] = self.innings_limit
        if self.innings_limit is not None or self.on_tie is not OnTie.EXTENSION:
            data["on_tie"] = str(self.on_tie)
        if self.on_tie is OnTie.DRAW:
            data["draw_at_distance"] = not self.draw_at_limit_only
        if self.on_tie is OnTie.PLAYOFF:
            data["playoff_points"] = self.playoff_points
        if self.sets is not None:
            data["sets"] = self.sets
        if self.warm_up_seconds != WARM_UP_SECONDS:
            data["warm_up_seconds"] = self.warm_up_seconds
        for name in ("hall", "table", "referee", "scorer", "shot_clock", "time_outs"):
            if getattr(self, name) is not None:
                data[name] = getattr(self, name)
        if not self.equalising:
            data["equalising"] = False
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Setup:
        """Rebuild a set-up from `to_dict`'s form, or an older one without the fields added
        later; SetupError on a malformed one."""
        try:
            handicap = data.get("handicap")
            return cls(
                data["discipline"], data["distance"], tuple(data["players"]), data["first"],
                handicap=None if handicap is None else tuple(handicap),
                innings_limit=data.get("innings_limit"),
                on_tie=data.get("on_tie", OnTie.EXTENSION),
                playoff_points=data.get("playoff_points", PLAYOFF_POINTS),
                sets=data.get("sets"),
                warm_up_seconds=data.get("warm_up_seconds", WARM_UP_SECONDS),
                hall=data.get("hall"),
                table=data.get("table"),
                referee=data.get("referee"),
                scorer=data.get("scorer"),
                shot_clock=data.get("shot_clock"),
                time_outs=data.get("time_outs"),
                equalising=data.get("equalising", True),
                # A draw without the marker was recorded when only the innings limit drew.
                draw_at_limit_only=(data.get("on_tie") == OnTie.DRAW
                                    and data.get("draw_at_distance") is not True),
                spoken=tuple(data.get("spoken", ())),
            )
        except KeyError as error:
            raise SetupError("a set-up needs the field {field!r}", field=error.args[0]) from None
        except (AttributeError, TypeError) as error:
            raise SetupError("a set-up's fields are not as to_dict writes them ({error})",
                             error=error) from None

    @property
    def rules(self) -> Discipline:
        """The discipline's rule table."""
        return discipline(self.discipline)

    @property
    def distances(self) -> tuple[int, int]:
        """Each player's distance, in the order of `players`."""
        return self.handicap or (self.distance, self.distance)

    @property
    def pronounced(self) -> dict[str, str]:
        """Each written surname with the form that is said."""
        return dict(zip(self.players, self.spoken, strict=True))

    def _check_spoken(self, spoken: tuple[str, ...]) -> None:
        """Two non-empty spoken forms that keep the players apart, written or said."""
        if len(spoken) != 2 or not all(isinstance(s, str) and normalise(s) for s in spoken):
            raise SetupError("each player needs one non-empty spoken form of his surname")
        heard = [{normalise(self.players[i]), normalise(spoken[i])} for i in (0, 1)]
        if heard[0] & heard[1]:
            raise SetupError("the two players' surnames must sound different: {spoken!r}",
                             spoken=spoken)
        object.__setattr__(self, "spoken", tuple(spoken))

    def _check_formats(self) -> None:
        """The handicap, the innings limit, the tie rule and the warm-up."""
        handicap = self.handicap
        if handicap is not None:
            if len(handicap) != 2 or not all(_whole_in(d, 1, MAX_DISTANCE) for d in handicap):
                raise SetupError("a handicap is two distances of 1 to {most} points",
                                 most=MAX_DISTANCE)
            if self.distance != max(handicap):
                raise SetupError("under a handicap the distance is the longer, {longer}",
                                 longer=max(handicap))
        if self.innings_limit is not None and not _whole_in(self.innings_limit, 1, MAX_INNINGS):
            raise SetupError("the innings limit must be 1 to {most}, not {limit!r}",
                             most=MAX_INNINGS, limit=self.innings_limit)
        if self.on_tie not in set(OnTie):
            raise SetupError("a tie is settled by one of {ties}", ties=", ".join(OnTie))
        object.__setattr__(self, "on_tie", OnTie(self.on_tie))
        legacy = self.draw_at_limit_only
        if not isinstance(legacy, bool) or (legacy and self.on_tie is not OnTie.DRAW):
            raise SetupError("only a tie settled by a draw may be drawn at the innings limit only")
        if not _whole_in(self.playoff_points, 1, MAX_DISTANCE):
            raise SetupError("a play-off is to 1 to {most} points, not {points!r}",
                             most=MAX_DISTANCE, points=self.playoff_points)
        self._check_sets()
        names = (self.hall, self.table, self.referee, self.scorer)
        if not all(isinstance(v, str | None) for v in names):
            raise SetupError("the hall, the table, the referee and the scorer are named by text")
        if not _whole_in(self.warm_up_seconds, 1, MAX_WARM_UP_SECONDS):
            raise SetupError("the warm-up must last 1 to {most} seconds, not {seconds!r}",
                             most=MAX_WARM_UP_SECONDS, seconds=self.warm_up_seconds)
        self._check_clock()

    def _check_sets(self) -> None:
        """Best of an odd number of sets, each decided (no draw) and without an innings limit."""
        if self.sets is None:
            return
        if not _whole_in(self.sets, 1, MAX_SETS) or self.sets % 2 == 0:
            raise SetupError("the sets (best of N) must be an odd number from 1 to {most}, "
                             "not {sets!r}", most=MAX_SETS, sets=self.sets)
        if self.on_tie is OnTie.DRAW:
            raise SetupError("a set is not drawn: settle a tie by extension or playoff")
        if self.innings_limit is not None:
            raise SetupError("sets are played without an innings limit")

    def _check_clock(self) -> None:
        """The shot clock, its time-outs and the equalising inning."""
        if self.shot_clock is not None and not _whole_in(self.shot_clock, 1, MAX_SHOT_CLOCK):
            raise SetupError("the shot clock must be 1 to {most} seconds, not {seconds!r}",
                             most=MAX_SHOT_CLOCK, seconds=self.shot_clock)
        if self.time_outs is not None:
            if self.shot_clock is None:
                raise SetupError("time-outs need a shot clock: give its seconds too")
            if not _whole_in(self.time_outs, 0, MAX_TIME_OUTS):
                raise SetupError("the time-outs must be 0 to {most}, not {time_outs!r}",
                                 most=MAX_TIME_OUTS, time_outs=self.time_outs)
        if not isinstance(self.equalising, bool):
            raise SetupError("the equalising inning is played or not, not {given!r}",
                             given=self.equalising)


def _whole_in(value: object, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


@dataclass(frozen=True)
class PlayerState:
    """One player's totals."""

    surname: str
    points: int = 0
    innings: int = 0
    highest_run: int = 0
    break_taken: bool = False
    time_outs: int = 0  # the time-outs used
    # The points of each finished inning, in order; shared with the states before this one.
    innings_points: Series[int] = Series()

    @property
    def average(self) -> float:
        """Points per inning, truncated to 3 decimals (rules.statistics)."""
        return statistics.average(self.points, self.innings)


@dataclass(frozen=True)
class Zone:
    """A zone both object balls are in, with the caroms still allowed while they stay in it."""

    kind: ZoneKind
    strokes_left: int


@dataclass(frozen=True)
class Pause:
    """The five-minute break (Article 5) in progress."""

    player: int
    warned: bool = False


@dataclass(frozen=True)
class WarmUp:
    """A player's warm-up before the match, in progress."""

    player: int
    warned: bool = False


@dataclass(frozen=True)
class ShotClock:
    """The shot clock running for the player at the table (rules.shot_clock)."""

    shot: int  # counts the restarts: the live clock times each shot from its own start
    periods: int = 1  # one, and one more for each time-out in this shot
    warned: bool = False


@dataclass(frozen=True)
class Phase:
    """The match (or set) proper, number 0, or an extension of Article 4 or a play-off
    (number 1, 2, …)."""

    targets: tuple[int, int]  # the total each player plays to
    breaker: int | None  # None while the referee has not said who starts
    number: int = 0
    innings: tuple[int, int] = (0, 0)  # innings of each player in this phase
    single_stroke: bool = False  # second and later extensions: one stroke per turn
    playoff: bool = False  # a play-off (`OnTie.PLAYOFF`) rather than an extension

    @property
    def target(self) -> int:
        """The higher of the two targets: the one both play to without a handicap."""
        return max(self.targets)


@dataclass(frozen=True, eq=False, slots=True)
class Entry:
    """One command in force, linked to the one before it; `before` is the state it was taken
    on, kept at the first command and at every CHECKPOINT_EVERY-th after it."""

    command: Command
    earlier: Entry | None
    length: int  # the commands up to this one, this one included
    before: Match | None


class History:
    """The commands in force, oldest first, as a linked list: adding one shares the others.

    N commands keep O(N) memory: O(1) an entry, and O(CHUNK) more a checkpoint (rules.series),
    whose state shares its innings' complete chunks with every checkpoint before it.
    """

    __slots__ = ("newest",)

    def __init__(self, newest: Entry | None = None) -> None:
        self.newest = newest

    def then(self, command: Command, before: Match) -> History:
        """This history and `command`, taken on the state `before`."""
        length = len(self) + 1
        kept = before if length % CHECKPOINT_EVERY == 1 else None
        return History(Entry(command, self.newest, length, kept))

    def entries(self) -> Iterator[Entry]:
        """The entries, newest first."""
        entry = self.newest
        while entry is not None:
            yield entry
            entry = entry.earlier

    def __len__(self) -> int:
        return 0 if self.newest is None else self.newest.length

    def __iter__(self) -> Iterator[Command]:
        return reversed([entry.command for entry in self.entries()])

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, History) or len(self) != len(other):
            return False
        for mine, theirs in zip(self.entries(), other.entries(), strict=True):
            if mine is theirs:
                return True  # the rest is shared
            if mine.command != theirs.command:
                return False
        return True

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"History({list(self)!r})"


@dataclass(frozen=True)
class Match:
    """The whole state of a match; derived by replaying `history` from `setup`."""

    setup: Setup
    players: tuple[PlayerState, PlayerState]
    phase: Phase
    at_table: int | None  # None while waiting for who starts, and after the winner
    white: int  # the player with the white ball: the one who broke the match (or the set)
    run: int = 0
    zones: tuple[Zone, ...] = ()  # the frame (or triangle) before the anchor
    astride: bool = False  # cadre: À CHEVAL is the frames' position called since the stroke
    touchent: bool = False  # cue ball touching an object ball, not re-spotted
    pause: Pause | None = None
    winner: int | None = None
    drawn: bool = False  # a tie, with `OnTie.DRAW`
    sets: tuple[int, int] = (0, 0)  # the sets each has won (rules.sets)
    set_start: tuple[int, int] = (0, 0)  # each player's points when the set being played began
    warm_up: WarmUp | None = None
    shot_clock: ShotClock | None = None
    history: History = field(default_factory=History, repr=False)

    @property
    def rules(self) -> Discipline:
        """The discipline's rule table."""
        return self.setup.rules

    def surname(self, index: int) -> str:
        """The surname of player `index`."""
        return self.players[index].surname

    @property
    def over(self) -> bool:
        """A winner, or a draw."""
        return self.winner is not None or self.drawn


def evolve(state: State, **changes: object) -> State:
    """`state` with the fields `changes` names set anew, its fields copied without re-running
    `__init__`: `dataclasses.replace` for the states here that check nothing when made, which a
    replay makes several of a command (bench/scale.py measures the read)."""
    kind = type(state)
    if hasattr(kind, "__post_init__"):
        raise TypeError(f"a {kind.__name__} checks itself when made: use dataclasses.replace")
    new = object.__new__(kind)
    fields = new.__dict__
    fields.update(state.__dict__)
    if not changes.keys() <= fields.keys():
        raise TypeError(f"a {kind.__name__} has no field {sorted(changes - fields.keys())}")
    fields.update(changes)
    return new


def new_match(setup: Setup) -> Match:
    """The state at the break: the first player at the table in his first inning."""
    players = tuple(PlayerState(name) for name in setup.players)
    first = setup.first
    opening = PlayerState(players[first].surname, innings=1)
    players = (opening, players[1]) if first == 0 else (players[0], opening)
    innings = (1, 0) if first == 0 else (0, 1)
    phase = Phase(targets=setup.distances, breaker=first, innings=innings)
    return Match(setup=setup, players=players, phase=phase, at_table=first, white=first)
