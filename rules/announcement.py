"""Announcements: the facts the rules core decides must be voiced, never sentences."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TypeAlias

from rules.command import Kind
from rules.zone_kind import ZoneKind


class Code(StrEnum):
    """Every announcement the rules core makes; the phrase bank has an entry for each form."""

    SCORE = "score"
    FOR_FIVE = "for_five"
    FOR_THREE = "for_three"
    ENTREES = "entrees"
    DEDANS = "dedans"
    RESTEES_DEDANS = "restees_dedans"
    A_CHEVAL = "a_cheval"
    LIBRES = "libres"
    TOUCHENT = "touchent"
    RESPOT = "respot"
    BALL_OFF_TABLE = "ball_off_table"
    TURN = "turn"
    BREAK_START = "break_start"
    BREAK_WARNING = "break_warning"
    BREAK_END = "break_end"
    REFUSED = "refused"
    EXTENSION = "extension"
    WINNER = "winner"
    NOT_UNDERSTOOD = "not_understood"
    REPEAT_SCORE = "repeat_score"
    WITHDRAWN = "withdrawn"  # «διόρθωση»: the event withdrawn, its kind as the variant
    LAST_INNING = "last_inning"  # the innings limit: the player's last inning starts
    DRAW = "draw"  # the innings limit reached on equal points, played as a draw
    WARM_UP_START = "warm_up_start"
    WARM_UP_WARNING = "warm_up_warning"  # one minute of the warm-up left
    WARM_UP_END = "warm_up_end"
    SHOT_CLOCK_WARNING = "shot_clock_warning"  # ten seconds of the shot left
    SHOT_CLOCK_EXPIRED = "shot_clock_expired"  # no time and no time-out left: the inning ends
    TIME_OUT = "time_out"  # a time-out taken, called or applied at zero
    PLAYOFF = "playoff"  # a tie settled by a play-off to `points`
    SET = "set"  # a set won; the variant `and_match` when it wins the match


class Reason(StrEnum):
    """Why the rules refuse a command: the variant of a `refused` announcement."""

    MATCH_OVER = "match_over"
    IN_BREAK = "in_break"
    AWAITING_START = "awaiting_start"
    NO_ZONES = "no_zones"
    NO_ANCHORS = "no_anchors"
    NO_FRAMES = "no_frames"
    WHICH_BALL = "which_ball"
    BAD_COVER = "bad_cover"
    NO_TOUCHENT = "no_touchent"
    UNKNOWN_PLAYER = "unknown_player"
    ALREADY_STARTED = "already_started"
    NOT_YOUR_TURN = "not_your_turn"
    BREAK_TAKEN = "break_taken"
    NO_BREAK = "no_break"
    NOTHING_TO_UNDO = "nothing_to_undo"
    IN_WARM_UP = "in_warm_up"
    NO_WARM_UP = "no_warm_up"
    NOT_PLAYED = "not_played"  # a correction of an inning the player has not finished
    NEGATIVE_POINTS = "negative_points"
    PASSES_DISTANCE = "passes_distance"  # … would take him to his distance before his last inning
    CHANGES_END = "changes_end"  # … would change who reached the distance, or make a tie
    BEFORE_EXTENSION = "before_extension"  # … of an inning before the extension being played
    BREAKS_TIE = "breaks_tie"  # … of an inning before the tie that brought the extension played
    BEFORE_SET = "before_set"  # … before the set being played, or a round inserted after set 1
    OVER_LIMIT = "over_limit"  # an inserted inning beyond the innings limit
    NO_SHOT_CLOCK = "no_shot_clock"  # a time-out while no shot clock runs
    NO_TIME_OUTS = "no_time_outs"  # … with none left


class Form(StrEnum):
    """The variants that are neither a zone kind nor a refusal's reason."""

    REMINDER = "reminder"  # touchent: the headset reminder not to hit the touching ball first
    BREAK_POSITION = "break_position"  # respot: the balls at the break position
    FOR_OPPONENT = "for_opponent"  # respot: … for the opponent, after fault 6
    SPOTS = "spots"  # respot: each ball on its spot
    EQUALISING = "equalising"  # turn: the equalising inning
    STARTS = "starts"  # turn: the player the referee named starts
    WHO_STARTS = "who_starts"  # turn: the referee must say who starts
    SINGLE_STROKE = "single_stroke"  # extension: one stroke per turn
    HANDICAP = "handicap"  # extension: each player's own, under a handicap
    HANDICAP_SINGLE_STROKE = "handicap_single_stroke"  # … one stroke per turn
    UNDO = "undo"  # repeat_score: after a correction
    AND_MATCH = "and_match"  # set: the set that wins the match


Variant: TypeAlias = ZoneKind | Reason | Form | Kind

# What «διόρθωση» never withdraws: commands that change nothing, and the clock's ticks.
NEVER_WITHDRAWN = frozenset({Kind.LIBRES, Kind.SCORE, Kind.UNDO, Kind.TICK})

# The variants each code is made with, None standing for the plain form; unlisted: plain only.
VARIANTS: dict[Code, frozenset[Variant | None]] = {
    Code.ENTREES: frozenset(ZoneKind),
    Code.DEDANS: frozenset(ZoneKind),
    Code.RESTEES_DEDANS: frozenset(ZoneKind),
    Code.TOUCHENT: frozenset({None, Form.REMINDER}),
    Code.RESPOT: frozenset({Form.BREAK_POSITION, Form.FOR_OPPONENT, Form.SPOTS}),
    Code.TURN: frozenset({None, Form.EQUALISING, Form.STARTS, Form.WHO_STARTS}),
    Code.EXTENSION: frozenset(
        {None, Form.SINGLE_STROKE, Form.HANDICAP, Form.HANDICAP_SINGLE_STROKE}
    ),
    Code.REFUSED: frozenset(Reason),
    Code.REPEAT_SCORE: frozenset({None, Form.UNDO}),
    Code.WITHDRAWN: frozenset(Kind) - NEVER_WITHDRAWN,
    Code.SET: frozenset({None, Form.AND_MATCH}),
}


def forms(code: Code) -> frozenset[Variant | None]:
    """The variants `code` is made with; None stands for the plain form."""
    return VARIANTS.get(code, frozenset({None}))


@dataclass(frozen=True)
class Announcement:
    """One fact to voice; `variant` picks the phrase-bank form (a zone, a refusal's reason …)."""

    code: Code
    player: str | None = None
    points: int | None = None
    variant: Variant | None = None
    scores: tuple[tuple[str, int], ...] = ()  # repeat_score: (surname, points) per player
    spots: tuple[tuple[str, str], ...] = ()  # ball_off_table, respot: (ball, spot)
    frames: tuple[int, ...] = ()  # entrees, dedans in cadre: the frame(s) the referee named

    def __post_init__(self) -> None:
        # Given as plain strings, the code and variant become the members they name.
        try:
            code = Code(self.code)
        except ValueError:
            raise ValueError(f"unknown announcement code {self.code!r}") from None
        if self.variant not in forms(code):
            raise ValueError(f"announcement {code} has no variant {self.variant!r}")
        object.__setattr__(self, "code", code)
        object.__setattr__(self, "variant", next(v for v in forms(code) if v == self.variant))


def refused(reason: Reason, player: str | None = None) -> Announcement:
    """A refusal on the referee's headset, with the reason as the variant."""
    return Announcement(Code.REFUSED, player=player, variant=reason)
