"""Announcement → `Utterance`: the Greek text the TTS speaks and the written form for screens."""

from __future__ import annotations

from collections.abc import Callable, Mapping
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
    pieces: tuple[str, ...] = ()  # the text said with a pause between them; empty: in one go
    chime: bool = False  # non-routine: the PA may chime before it

    def spoken_pieces(self) -> tuple[str, ...]:
        """The pieces of the text to say with a pause between each."""
        return self.pieces or (self.text,)


# Marks a {pause} in a text while it is filled in; the text is cut there into pieces.
_PAUSE = "\x1f"


def render(
    announcement: Announcement, phrases: Bank | None = None,
    names: Mapping[str, str] | None = None,
) -> Utterance:
    """The utterance for `announcement`, from the shipped bank unless another is given; `names`
    maps a written surname to the form the text says (the display shows it as written)."""
    phrases = phrases or bank()
    said = names or {}
    template = phrases.template(announcement.code, announcement.variant)
    spots = ", ".join(
        f"{phrases.balls[ball]} {phrases.spots[spot]}" for ball, spot in announcement.spots
    )

    def fill(
        form: str, number: Callable[[int], str], genitive: Callable[[int], str],
        name: Callable[[str], str], pause: str,
    ) -> str:
        scores = ", ".join(
            f"{name(player)}{pause}{number(points)}" for player, points in announcement.scores
        )
        points = "" if announcement.points is None else number(announcement.points)
        points_genitive = "" if announcement.points is None else phrases.points_genitive[
            announcement.points != 1
        ].format(genitive(announcement.points))
        named = announcement.frames
        frames = phrases.frames[len(named) - 1].format(*map(number, named)) if named else ""
        return form.format(
            player=name(announcement.player or ""), points=points,
            points_genitive=points_genitive, scores=scores, spots=spots, frames=frames,
            pause=pause,
        )

    text = fill(
        template.text, phrases.numbers.spoken, phrases.numbers.genitive,
        lambda written: said.get(written, written), _PAUSE,
    )
    pieces = tuple(piece.strip() for piece in text.split(_PAUSE))
    return Utterance(
        code=announcement.code,
        channel=template.channel,
        text=" ".join(pieces),
        display=fill(template.display, str, str, str, " "),
        player=announcement.player,
        points=announcement.points,
        pieces=pieces if len(pieces) > 1 else (),
        chime=template.chime,
    )
