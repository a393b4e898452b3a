"""Announcement → `Utterance`: the Greek text the TTS speaks and the written form for screens."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum

from phrases.bank import Bank, Channel, Template, bank
from rules.announcement import Announcement


@dataclass(frozen=True)
class Utterance:
    """One announcement ready to voice: where, what to say, what to show."""

    code: StrEnum  # a rules `Code`, or the code of an edge's prompt
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


@dataclass(frozen=True)
class Prompt:
    """A headset prompt of the edge's own (not the rules'): `code` is any StrEnum whose value,
    with the `variant`'s after a dot, is a key of the bank's [prompts]."""

    code: StrEnum
    player: str | None = None
    variant: StrEnum | None = None


# Marks a {pause} in a text while it is filled in; the text is cut there into pieces.
_PAUSE = "\x1f"


def render(
    said: Announcement | Prompt, phrases: Bank | None = None,
    names: Mapping[str, str] | None = None,
) -> Utterance:
    """The utterance for an announcement or a prompt, from the shipped bank unless another is
    given; `names` maps a written surname to the form the text says (the display shows it as
    written).

    >>> from rules.announcement import Announcement, Code
    >>> said = render(Announcement(Code.SCORE, player="Jaspers", points=21))
    >>> str(said.channel), said.display, said.spoken_pieces()
    ('pa', 'Jaspers 21', ('Jaspers', 'είκοσι ένα'))
    >>> said = render(Announcement(Code.SCORE, player="Jaspers", points=3),
    ...               names={"Jaspers": "Γιάσπερς"})
    >>> said.text, said.display
    ('Γιάσπερς τρία', 'Jaspers 3')
    """
    phrases = phrases or bank()
    if isinstance(said, Prompt):
        template = phrases.prompt(said.code, said.variant)
        return _utter(said.code, template, phrases, names, said.player)
    return _utter(
        said.code, phrases.template(said.code, said.variant), phrases, names, said.player,
        said.points, said.scores, said.spots, said.frames,
    )


def _utter(
    code: StrEnum, template: Template, phrases: Bank, names: Mapping[str, str] | None,
    player: str | None, points: int | None = None,
    scores: tuple[tuple[str, int], ...] = (), spots: tuple[tuple[str, str], ...] = (),
    frames: tuple[int, ...] = (),
) -> Utterance:
    """`template` filled in: the text in pieces at its pauses, the display as written."""
    said = names or {}
    named_spots = ", ".join(f"{phrases.balls[ball]} {phrases.spots[spot]}" for ball, spot in spots)

    def fill(
        form: str, number: Callable[[int], str], genitive: Callable[[int], str],
        name: Callable[[str], str], pause: str,
    ) -> str:
        named_scores = ", ".join(f"{name(who)}{pause}{number(total)}" for who, total in scores)
        said_points = "" if points is None else number(points)
        points_genitive = "" if points is None else phrases.points_genitive[
            points != 1
        ].format(genitive(points))
        named_frames = ""
        if frames:
            named_frames = phrases.frames[len(frames) - 1].format(*map(number, frames))
        return form.format(
            player=name(player or ""), points=said_points, points_genitive=points_genitive,
            scores=named_scores, spots=named_spots, frames=named_frames, pause=pause,
        )

    text = fill(
        template.text, phrases.numbers.spoken, phrases.numbers.genitive,
        lambda written: said.get(written, written), _PAUSE,
    )
    pieces = tuple(piece.strip() for piece in text.split(_PAUSE))
    return Utterance(
        code=code,
        channel=template.channel,
        text=" ".join(pieces),
        display=fill(template.display, str, str, str, " "),
        player=player,
        points=points,
        pieces=pieces if len(pieces) > 1 else (),
        chime=template.chime,
    )
