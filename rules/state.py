"""The immutable match state and the set-up it starts from."""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.command import Command
from rules.discipline import Discipline, SetupError, discipline
from rules.normalise import normalise
from rules.zone_kind import ZoneKind

MAX_DISTANCE = 10_000


@dataclass(frozen=True)
class Setup:
    """What the referee fixes before the break: discipline, distance, players, who breaks."""

    discipline: str
    distance: int
    players: tuple[str, str]
    first: int = 0  # index into `players` of the player who breaks

    def __post_init__(self) -> None:
        discipline(self.discipline)
        if isinstance(self.distance, bool) or not isinstance(self.distance, int):
            raise SetupError(f"the distance must be a whole number, not {self.distance!r}")
        if not 1 <= self.distance <= MAX_DISTANCE:
            raise SetupError(
                f"the distance must be 1 to {MAX_DISTANCE} points, not {self.distance}"
            )
        names = self.players
        if len(names) != 2 or not all(isinstance(p, str) and normalise(p) for p in names):
            raise SetupError("a match needs exactly two non-empty surnames")
        if normalise(self.players[0]) == normalise(self.players[1]):
            raise SetupError(f"the two surnames must differ: {self.players[0]!r}")
        if self.first not in (0, 1):
            raise SetupError("the player who breaks must be one of the two players")

    @property
    def rules(self) -> Discipline:
        """The discipline's rule table."""
        return discipline(self.discipline)


@dataclass(frozen=True)
class PlayerState:
    """One player's totals."""

    surname: str
    points: int = 0
    innings: int = 0
    highest_run: int = 0
    break_taken: bool = False

    @property
    def average(self) -> float:
        """Points per inning (0 before the first inning)."""
        return self.points / self.innings if self.innings else 0.0


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
class Phase:
    """The match proper (number 0) or an extension of Article 4 (number 1, 2, …)."""

    target: int  # the total each player plays to
    breaker: int | None  # None while the referee has not said who starts
    number: int = 0
    innings: tuple[int, int] = (0, 0)  # innings of each player in this phase
    single_stroke: bool = False  # second and later extensions: one stroke per turn


@dataclass(frozen=True)
class Match:
    """The whole state of a match; derived by replaying `history` from `setup`."""

    setup: Setup
    players: tuple[PlayerState, PlayerState]
    phase: Phase
    at_table: int | None  # None while waiting for who starts, and after the winner
    white: int  # the player with the white ball: the one who broke the match
    run: int = 0
    zones: tuple[Zone, ...] = ()  # the frame (or triangle) before the anchor
    astride: bool = False  # cadre: À CHEVAL is the frames' position called since the stroke
    touchent: bool = False  # cue ball touching an object ball, not re-spotted
    pause: Pause | None = None
    winner: int | None = None
    history: tuple[Command, ...] = field(default=(), repr=False)

    @property
    def rules(self) -> Discipline:
        """The discipline's rule table."""
        return self.setup.rules

    def surname(self, index: int) -> str:
        """The surname of player `index`."""
        return self.players[index].surname


def new_match(setup: Setup) -> Match:
    """The state at the break: the first player at the table in his first inning."""
    players = tuple(PlayerState(name) for name in setup.players)
    first = setup.first
    opening = PlayerState(players[first].surname, innings=1)
    players = (opening, players[1]) if first == 0 else (players[0], opening)
    innings = (1, 0) if first == 0 else (0, 1)
    phase = Phase(target=setup.distance, breaker=first, innings=innings)
    return Match(setup=setup, players=players, phase=phase, at_table=first, white=first)
