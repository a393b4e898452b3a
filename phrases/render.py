"""Announcement → `Utterance`: the Greek text the TTS speaks and the written form for screens."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from phrases.bank import Bank, Channel, bank
from rules.announcement import Announcement, Code


@dataclass(frozen=True)
class Utterance:
    """One announcement ready to voice: where, what to say, what to show."""

    code: Code
    channel: Channel
    text: str
    display: str
    player: str | None
    points: int | None


def render(announcement: Announcement, phrases: Bank | None = None) -> Utterance:
    """The utterance for `announcement`, from the shipped bank unless another is given."""
    phrases = phrases or bank()
    template = phrases.template(announcement.code, announcement.variant)
    spots = ", ".join(
        f"{phrases.balls[ball]} {phrases.spots[spot]}" for ball, spot in announcement.spots
    )

    def fill(form: str, number: Callable[[int], str], genitive: Callable[[int], str]) -> str:
        scores = ", ".join(f"{name} {number(points)}" for name, points in announcement.scores)
        points = "" if announcement.points is None else number(announcement.points)
        points_genitive = "" if announcement.points is None else phrases.points_genitive[
            announcement.points != 1
        ].format(genitive(announcement.points))
        named = announcement.frames
        frames = phrases.frames[len(named) - 1].format(*map(number, named)) if named else ""
        return form.format(
            player=announcement.player or "", points=points, points_genitive=points_genitive,
            scores=scores, spots=spots, frames=frames,
        )

    return Utterance(
        code=announcement.code,
        channel=template.channel,
        text=fill(template.text, phrases.numbers.spoken, phrases.numbers.genitive),
        display=fill(template.display, str, str),
        player=announcement.player,
        points=announcement.points,
    )
