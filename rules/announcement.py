"""Announcements: the facts the rules core decides must be voiced, never sentences."""

from __future__ import annotations

from dataclasses import dataclass

CODES = (
    "score", "for_five", "for_three", "entrees", "dedans", "restees_dedans", "a_cheval",
    "libres", "touchent", "respot", "ball_off_table", "turn", "break_start", "break_warning",
    "break_end", "refused", "extension", "winner", "not_understood", "repeat_score",
)


@dataclass(frozen=True)
class Announcement:
    """One fact to voice; `variant` picks the phrase-bank form (a zone, a refusal's reason …)."""

    code: str
    player: str | None = None
    points: int | None = None
    variant: str | None = None
    scores: tuple[tuple[str, int], ...] = ()  # repeat_score: (surname, points) per player
    spots: tuple[tuple[str, str], ...] = ()  # ball_off_table, respot: (ball, spot)
    frames: tuple[int, ...] = ()  # entrees, dedans in cadre: the frame(s) the referee named

    def __post_init__(self) -> None:
        if self.code not in CODES:
            raise ValueError(f"unknown announcement code {self.code!r}")


def refused(reason: str, player: str | None = None) -> Announcement:
    """A refusal on the referee's headset, with the reason as the variant."""
    return Announcement("refused", player=player, variant=reason)
