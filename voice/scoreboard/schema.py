"""The JSON shapes of the scoreboard's HTTP API, as the OpenAPI schema describes them."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, field_validator

from rules.command import MAX_FRAME, Command, Kind
from rules.state import OnTie
from voice.match_record.liveness import Liveness

Ball = Literal["white", "yellow", "red"]
# Every command the referee may give; TICK is the break clock's, never a person's, and the
# protocol's corrections have their own route (`CorrectionIn`).
NOT_CONTROLS = frozenset({Kind.TICK, Kind.CORRECT, Kind.INSERT_INNING, Kind.DELETE_INNING})
CONTROLS = tuple(kind for kind in Kind if kind not in NOT_CONTROLS)
LAST_INNINGS = 5  # the finished innings each player's line on the board lists
Control = StrEnum(  # type: ignore[misc]  # built from Kind: mypy cannot list the members
    "Control", {kind.name: kind.value for kind in CONTROLS}
)


class Spoken(BaseModel):
    """One announcement, as `referee simulate --jsonl` writes it."""

    code: str
    channel: Literal["pa", "headset"]
    text: str = Field(description="what the voice says (Greek)")
    display: str = Field(description="the written form (French for the regulation's terms)")
    player: str | None
    points: int | None


class Player(BaseModel):
    """One player's line on the board."""

    surname: str
    points: int
    innings: int
    average: float = Field(description="points per inning, truncated to 3 decimals")
    highest_run: int
    break_taken: bool
    time_outs: int = Field(description="the time-outs he has used")
    set_points: int = Field(description="his points in the set being played")
    reminder: Spoken | None = Field(description="«για πέντε» / «για τρεις» while it holds")
    distance: int = Field(description="his own distance (the same for both without a handicap)")
    target: int = Field(description="the total he plays to (more in an extension)")
    innings_left: int | None = Field(
        description="innings still to play under the limit, the current one included"
    )
    last_innings: list[int] = Field(
        max_length=LAST_INNINGS,
        description=f"the points of his last {LAST_INNINGS} finished innings over the whole "
        "match (sets and extensions too), the latest last; the inning being played is not "
        "among them (its points are `run`)",
    )


class Spot(BaseModel):
    """Where one ball is placed."""

    ball: Ball
    spot: Literal["head", "centre", "foot"]


class BallsOff(BaseModel):
    """Balls off the table, as the PA announced them."""

    text: str = Field(description="what the voice said (Greek)")
    display: str = Field(description="the written form")
    spots: list[Spot] = Field(description="each ball on its spot, in the order announced")


class Heartbeat(BaseModel):
    """The voice loop's latest heartbeat (`referee run`)."""

    state: Liveness
    at: str = Field(description="ISO time it was written; every 5 s while the loop runs")


class ShotClockOut(BaseModel):
    """The shot being timed."""

    started: str = Field(description="ISO time the record gives the shot's start")
    seconds: int = Field(description="the shot's time: one period, and one more per time-out")
    warning_seconds: int = Field(description="the warning comes this many seconds before zero")


class Board(BaseModel):
    """Everything the hall scoreboard shows, derived from the record."""

    model_config = ConfigDict(populate_by_name=True)

    match: int
    seq: int = Field(description="the newest event number (0 before the first)")
    discipline: str
    distance: int
    target: int = Field(description="the total each player plays to (more in an extension)")
    extension: int = Field(description="0 in the match proper, then 1, 2 … (Article 4)")
    single_stroke: bool
    players: list[Player]
    controls: list[Control] = Field(
        description="the commands the rules take now, by the discipline and the moment (a "
        "break, the wait for who starts …): the control panel offers these alone"
    )
    turn: str | None = Field(description="the surname of the player at the table")
    run: int = Field(description="the points of the current run")
    zones: list[str]
    touchent: bool
    break_: str | None = Field(alias="break", description="the player on his break")
    break_started: str | None = Field(description="ISO time the record gives the break's start")
    break_seconds: int
    call: list[Spoken] = Field(description="the PA's zone calls at the latest stroke in force")
    balls_off: BallsOff | None = Field(
        description="balls off the table at the latest stroke in force, and their spots"
    )
    winner: str | None
    drawn: bool = Field(description="the innings limit reached on equal points, as a draw")
    innings_limit: int | None
    on_tie: OnTie = Field(description="what a tie at the distance or the limit brings")
    playoff: bool = Field(description="the phase being played is a play-off")
    sets: int | None = Field(description="best of this many sets, or null")
    sets_won: list[int] = Field(description="the sets each player has won")
    warm_up: str | None = Field(description="the player warming up")
    warm_up_started: str | None = Field(description="ISO time the record gives its start")
    warm_up_seconds: int = Field(description="how long a warm-up lasts")
    shot_clock: ShotClockOut | None = Field(description="the shot being timed, or null")
    table: str | None = Field(description="the table played on, as the set-up names it (from a "
                              "hall's PostgreSQL: else as the table that pushed it names itself)")
    referee: str | None = Field(description="the referee, as the set-up names him")
    liveness: Heartbeat | None = Field(description="null until a voice loop ran for the match")
    now: str = Field(description="the server's ISO time, to set the break countdown by")
    hall: str | None = Field(None, description="the hall's name (a hall's PostgreSQL only)")


class RecordedCommand(BaseModel):
    """A command as the record stores it: only the fields its kind needs."""

    kind: Kind
    player: str | None = None
    balls: list[Ball] | None = None
    covered: list[tuple[Ball, Ball]] | None = None
    seconds: float | None = None
    frames: list[int] | None = None
    inning: int | None = None
    points: int | None = None


class EventOut(BaseModel):
    """One recorded event."""

    seq: int
    created: str
    announced: bool | None = Field(description="voiced at the table; null from a hall's "
                                   "PostgreSQL, which does not hold it")
    command: RecordedCommand


class CommandIn(BaseModel):
    """A command from the control panel; the same as the phrase that says it."""

    model_config = ConfigDict(extra="forbid")

    kind: Control
    player: str | None = Field(None, max_length=200, description="STARTS, BREAK: a surname")
    balls: list[Ball] = Field(
        [], max_length=3, json_schema_extra={"uniqueItems": True},
        description="BALL_OFF: the balls off the table",
    )
    covered: list[tuple[Ball, Ball]] = Field(
        [], max_length=3, description="BALL_OFF: (ball, ball covering its spot)"
    )
    frames: list[Annotated[int, Field(ge=1, le=MAX_FRAME)]] = Field(
        [], max_length=2, json_schema_extra={"uniqueItems": True},
        description="cadre ENTRÉES: the frame, or the two adjacent frames",
    )

    @field_validator("balls", "frames")
    @classmethod
    def _distinct(cls, items: list[Any]) -> list[Any]:
        if len(set(items)) != len(items):
            raise ValueError("each may be named once")
        return items

    def command(self) -> Command:
        """The rules core's command."""
        covered = tuple((ball, over) for ball, over in self.covered)
        return Command(
            Kind(self.kind), self.player, tuple(self.balls), covered, frames=tuple(self.frames)
        )


class CorrectionIn(BaseModel):
    """A correction of the protocol: inning K of a player had N points, or a round forgotten
    before inning K (`insert`)."""

    model_config = ConfigDict(extra="forbid")

    inning: int = Field(ge=1, le=100_000, description="the inning's number, from 1")
    player: str | None = Field(None, max_length=200, description="the surname (not with insert)")
    points: int | None = Field(None, ge=-100_000, le=100_000, description="the inning's points")
    insert: StrictBool = Field(False, description="insert a round of misses before inning K")

    @field_validator("inning", "points", mode="before")
    @classmethod
    def _number(cls, value: Any) -> Any:
        if isinstance(value, bool | str):  # pydantic's lax mode would read them as numbers
            raise ValueError("must be a JSON number")
        return value

    def command(self) -> Command:
        """The rules core's command."""
        if self.insert:
            return Command(Kind.INSERT_INNING, inning=self.inning)
        return Command(Kind.CORRECT, player=self.player, inning=self.inning, points=self.points)


class Problem(BaseModel):
    """Why a request was refused."""

    detail: str


class PhraseIn(BaseModel):
    """A phrase, as the recogniser would transcribe it."""

    model_config = ConfigDict(extra="forbid")

    text: str = Field(max_length=500)


class Reply(BaseModel):
    """What a control request did: the event it recorded, if any, and what is announced."""

    recorded: int | None = Field(description="the event number, or null: nothing was recorded")
    utterances: list[Spoken]


class Panel(BaseModel):
    """A match's control panel, for whoever holds the token."""

    match: int
    url: str = Field(description="the panel's link; it carries the token after the #")
    qr: str = Field(description="the link as a QR code, an SVG element")
