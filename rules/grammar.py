"""Text → `Command`: the referee's phrase grammar, read once from `grammar.toml`."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from itertools import combinations

from rapidfuzz import fuzz, process

from rules.command import MAX_FRAME, Command, Kind
from rules.discipline import Discipline
from rules.normalise import normalise
from rules.sentences import GrammarError, Sentence, expand
from rules.zone_kind import ZoneKind

PLAYER_SLOT = "{player}"
BALLS_SLOT = "{balls}"
FRAMES_SLOT = "{frames}"
SLOTS = (PLAYER_SLOT, BALLS_SLOT, FRAMES_SLOT)
NAME_SCORE = 80  # rapidfuzz ratio a heard surname needs to count as a player's
_DOUBLED = re.compile(r"(.)\1+")


@dataclass(frozen=True)
class Phrase:
    """One way of saying a command: its fixed words and the slot that may follow them."""

    kind: Kind
    words: tuple[str, ...]
    slot: str | None
    written: str  # as the grammar file spells it, for recognisers' vocabularies


@dataclass(frozen=True)
class Grammar:
    """The phrases, number words, ball colours, fillers, hesitations and sound-alike spellings
    of `grammar.toml`."""

    phrases: tuple[Phrase, ...]
    numbers: dict[str, str]
    number_words: dict[str, str]  # digit → the first word the grammar file gives for it
    balls: dict[str, str]
    written_balls: tuple[str, ...]
    cover: tuple[str, ...]
    fillers: frozenset[str]
    hesitations: frozenset[str]
    sound_alike: tuple[tuple[str, str], ...]

    def words(self, text: str) -> list[str]:
        """The normalised words of `text`, with number words as digits."""
        return [self.numbers.get(w, w) for w in normalise(text).split()]

    def fold(self, word: str) -> str:
        """A normalised word spelled as it sounds: sound-alike letters as one, doubled once."""
        for spelling, sound in self.sound_alike:
            word = word.replace(spelling, sound)
        return _DOUBLED.sub(r"\1", word)

    def parse(
        self, text: str, players: tuple[str, ...], spoken: tuple[str, ...] = ()
    ) -> Command | None:
        """The command `text` says, or None; a surname is heard written or `spoken` (in order)."""
        words = self.words(text)
        for phrase in self.phrases:
            size = len(phrase.words)
            if tuple(words[:size]) != phrase.words:
                continue
            rest = words[size:]
            if phrase.slot is None:
                if not rest:
                    return Command(phrase.kind)
            elif phrase.slot == PLAYER_SLOT:
                player = self._player(rest, players, spoken)
                if player is not None:
                    return Command(phrase.kind, player=player)
            elif phrase.slot == FRAMES_SLOT:
                frames = self._frames(rest)
                if frames:
                    return Command(phrase.kind, frames=frames)
            else:
                balls = self._balls(rest)
                if balls is not None:
                    return Command(phrase.kind, balls=balls[0], covered=balls[1])
        return None

    def sentences(
        self, players: tuple[str, ...], rules: Discipline | None = None,
        spoken: tuple[str, ...] = (),
    ) -> list[str]:
        """Every phrase as written, slots filled, in lower case: what a recogniser may expect.

        A frames slot takes one frame or two in ascending order. With `rules`, only the
        phrases that make sense in that discipline.
        """
        frames = [self.number_words[str(n)] for n in range(1, MAX_FRAME + 1)]
        fills = {
            PLAYER_SLOT: list(dict.fromkeys(p.lower() for p in (*players, *spoken))),
            BALLS_SLOT: list(self.written_balls),
            FRAMES_SLOT: [*frames, *(" ".join(pair) for pair in combinations(frames, 2))],
        }
        out: list[str] = []
        for phrase in self.phrases:
            if rules is not None and (
                rules.refusal(phrase.kind)
                or (phrase.slot == FRAMES_SLOT and rules.zone is not ZoneKind.FRAME)  # NO_FRAMES
            ):
                continue
            if phrase.slot is None:
                out.append(phrase.written)
            else:
                out.extend(phrase.written.replace(phrase.slot, fill) for fill in fills[phrase.slot])
        return list(dict.fromkeys(out))

    def _player(
        self, rest: list[str], players: tuple[str, ...], spoken: tuple[str, ...]
    ) -> str | None:
        heard = " ".join(w for w in rest if w not in self.fillers)
        if not heard:
            return None
        names = {normalise(s): p for p, s in zip(players, spoken, strict=False)}
        names.update((normalise(p), p) for p in players)
        best = process.extractOne(heard, list(names), scorer=fuzz.ratio, score_cutoff=NAME_SCORE)
        return names[best[0]] if best else None

    def _frames(self, rest: list[str]) -> tuple[int, ...] | None:
        words = [w for w in rest if w not in self.fillers]
        named = {str(n) for n in range(1, MAX_FRAME + 1)}
        if not 1 <= len(words) <= 2 or not set(words) <= named or len(set(words)) < len(words):
            return None
        return tuple(int(w) for w in words)

    def _balls(
        self, rest: list[str]
    ) -> tuple[tuple[str, ...], tuple[tuple[str, str], ...]] | None:
        balls: list[str] = []
        covered: list[tuple[str, str]] = []
        words = [w for w in rest if w not in self.fillers]
        size = len(self.cover)
        while words:
            if tuple(words[:size]) == self.cover and balls and len(words) > size:
                over = self.balls.get(words[size])
                if over is None:
                    return None
                covered.append((balls[-1], over))
                words = words[size + 1 :]
                continue
            ball = self.balls.get(words[0])
            if ball is None or ball in balls:
                return None
            balls.append(ball)
            words = words[1:]
        if not balls:
            return None
        return tuple(balls), tuple(covered)


@cache
def grammar() -> Grammar:
    """The grammar in the package's `grammar.toml`."""
    return load(files("rules").joinpath("grammar.toml").read_text(encoding="utf-8"))


def load(text: str) -> Grammar:
    """The grammar a grammar file's text describes; raises GrammarError quoting a bad line."""
    data = tomllib.loads(text)
    numbers = {normalise(word): str(value) for word, value in data["numbers"].items()}

    def words(phrase: str) -> tuple[str, ...]:
        return tuple(numbers.get(w, w) for w in normalise(phrase).split())

    synonyms: dict[str, list[Sentence]] = {}
    for name, template in data["synonyms"].items():
        synonyms[name] = expand(template, synonyms)
    phrases: dict[tuple[tuple[str, ...], str | None], Phrase] = {}
    for name, templates in data["commands"].items():
        if name not in set(Kind):
            raise GrammarError("grammar command {name!r}: no such command", name=name)
        for template in templates:
            for sentence in expand(template, synonyms):
                slot = sentence[-1] if sentence[-1] in SLOTS else None
                fixed = sentence[:-1] if slot else sentence
                if not fixed or any(w.startswith("{") for w in fixed):
                    raise GrammarError("sentence template {template!r}: a sentence is words, "
                                       "then at most one of {slots}", template=template,
                                       slots=", ".join(SLOTS))
                phrase = Phrase(Kind(name), words(" ".join(fixed)), slot, " ".join(sentence))
                said = phrases.setdefault((phrase.words, slot), phrase)
                if said.kind is not phrase.kind:
                    raise GrammarError("sentence template {template!r}: {written!r} already "
                                       "means {kind}", template=template,
                                       written=phrase.written, kind=said.kind.value)
    # Longer fixed parts first, so «πόντος έξω άγκυρα» is tried before «πόντος έξω».
    ordered = sorted(phrases.values(), key=lambda p: (-len(p.words), p.slot is None))
    return Grammar(
        phrases=tuple(ordered),
        numbers=numbers,
        number_words={str(value): word for word, value in reversed(data["numbers"].items())},
        balls={normalise(word): colour for word, colour in data["balls"].items()},
        written_balls=tuple(data["balls"]),
        cover=words(data["cover"]["say"]),
        fillers=frozenset(normalise(w) for w in data["fillers"]),
        hesitations=frozenset(normalise(w) for w in data["hesitations"]),
        sound_alike=tuple((normalise(a), normalise(b)) for a, b in data["sound_alike"]),
    )


def parse(text: str, players: tuple[str, ...], spoken: tuple[str, ...] = ()) -> Command | None:
    """The command in `text` for a match between `players` (said as `spoken`), or None.

    >>> players = ("Jaspers", "Caudron")
    >>> parse("πόντος", players).kind
    <Kind.POINT: 'point'>
    >>> parse("ξεκινά Caudron", players).to_dict()
    {'kind': 'starts', 'player': 'Caudron'}
    >>> parse("good morning", players) is None
    True
    """
    return grammar().parse(text, players, spoken)
