"""What one match can hear: the recogniser's sentences, early commits and the nearest command."""

from __future__ import annotations

from rapidfuzz import fuzz, process

from rules.command import Command
from rules.discipline import Discipline
from rules.grammar import BALLS_SLOT, grammar

DEFAULT_THRESHOLD = 80.0  # the confidence below which free-form text is not acted on
MIN_THRESHOLD, MAX_THRESHOLD = 0.0, 100.0  # rapidfuzz's scores: the thresholds that mean one
EXTRA_WORD_PENALTY = 10.0  # score lost for each heard word left out of the match
AMBIGUITY_MARGIN = 5.0  # a runner-up command this close makes the text ambiguous
MAX_WORDS = 10  # a longer utterance is no command; don't search its spans


class Vocabulary:
    """The phrases of one discipline, with the two players' surnames filled in."""

    def __init__(
        self, players: tuple[str, ...], rules: Discipline, spoken: tuple[str, ...] = ()
    ) -> None:
        self.players = players
        self.spoken = spoken  # how each surname is said, in the order of `players`
        self.rules = rules
        self._grammar = grammar()
        self.sentences = self._grammar.sentences(players, rules, spoken)
        self._words = [tuple(self._grammar.words(s)) for s in self.sentences]
        self._keys = ["".join(w) for w in self._words]
        self._open_ended = {
            " ".join(p.words) for p in self._grammar.phrases if p.slot == BALLS_SLOT
        }

    def parse(self, text: str) -> Command | None:
        """The command `text` says exactly, if this discipline has it."""
        command = self._grammar.parse(text, self.players, self.spoken)
        if command is None or self.rules.refusal(command.kind):
            return None
        return command

    def complete(self, text: str) -> Command | None:
        """The command of a partial result that no longer phrase could still turn into.

        Such a partial can be acted on before the recogniser's endpoint: «άστοχο» can, but
        «πόντος» cannot where «πόντος έξω» exists, nor a list of balls that may go on.
        """
        command = self.parse(text)
        if command is None:
            return None
        heard = tuple(self._grammar.words(text))
        if any(" ".join(heard).startswith(head) for head in self._open_ended):
            return None
        for words in self._words:
            if len(words) > len(heard) and words[: len(heard)] == heard:
                return None
        return command

    def nearest(self, text: str) -> tuple[Command | None, float]:
        """The most likely command in free-form text, with a 0–100 confidence.

        Tries every run of consecutive heard words (extra words cost a penalty each), exactly
        first, then by similarity with spaces ignored, so merged or split words still match.
        When another command scores almost as well, the text is ambiguous: no command.
        """
        heard = self._grammar.words(text)
        if not heard or len(heard) > MAX_WORDS:
            return None, 0.0
        scores: dict[Command | None, float] = {}
        for start in range(len(heard)):
            for end in range(start + 1, len(heard) + 1):
                penalty = EXTRA_WORD_PENALTY * (len(heard) - (end - start))
                span = " ".join(heard[start:end])
                command = self.parse(span)
                score = 100.0
                if command is None:
                    found = process.extractOne(
                        span.replace(" ", ""), self._keys, scorer=fuzz.ratio
                    )
                    command = self.parse(self.sentences[found[2]])
                    score = found[1]
                scores[command] = max(scores.get(command, 0.0), score - penalty)
        ranked = sorted(scores.values(), reverse=True)
        best = max(scores, key=scores.__getitem__)
        if len(ranked) > 1 and ranked[0] - ranked[1] < AMBIGUITY_MARGIN:
            return None, ranked[0]
        return best, ranked[0]
