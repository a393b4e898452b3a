"""What one match can hear: the recogniser's sentences, early commits and the nearest command."""

from __future__ import annotations

from functools import cache

from rules.alignment import MAX_SKIPPED, align
from rules.command import Command
from rules.discipline import Discipline
from rules.grammar import BALLS_SLOT, grammar
from rules.normalise import normalise

DEFAULT_THRESHOLD = 80.0  # the confidence below which free-form text is not acted on
MIN_THRESHOLD, MAX_THRESHOLD = 0.0, 100.0  # rapidfuzz's scores: the thresholds that mean one
AMBIGUITY_MARGIN = 5.0  # a runner-up command this close makes the text ambiguous
MAX_WORDS = 10  # a longer utterance is no command; don't compare it


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
        self._written = [tuple(normalise(s).split()) for s in self.sentences]
        self._fold = cache(self._grammar.fold)
        self._hesitations = frozenset(map(self._fold, self._grammar.hesitations))
        self._commands = [self._command(sentence) for sentence in self.sentences]
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

    def fold(self, word: str) -> str:
        """A normalised word as it sounds (Grammar.fold)."""
        return self._fold(word)

    def commands_of_word(self, folded: str) -> set[Command]:
        """The commands one of whose phrases holds the word (folded)."""
        return {command for phrase, command in zip(self._written, self._commands, strict=True)
                if folded in map(self._fold, phrase)}

    def _command(self, sentence: str) -> Command:
        command = self.parse(sentence)
        assert command is not None  # each sentence of the vocabulary is a command
        return command

    def nearest(self, text: str) -> tuple[Command | None, float]:
        """The command free-form text means, with a 0–100 confidence; None when unsure.

        The whole utterance must be the command: every heard word is matched with a word of one
        of its phrases (or with several written together, or is one of at most two hesitations),
        and every word of that phrase is heard; words are compared as they sound (Grammar.fold).
        The confidence is the worst-heard word's similarity. When another command matches almost
        as well, the text is ambiguous: no command.
        """
        words = self._grammar.words(text)
        heard = [w for i, w in enumerate(words) if i == 0 or w != words[i - 1]]  # «φάουλ φάουλ»
        if not heard or len(heard) > MAX_WORDS:
            return None, 0.0
        spoken = [w for w in heard if self._fold(w) not in self._hesitations]
        if len(heard) - len(spoken) <= MAX_SKIPPED and spoken:
            exact = self.parse(" ".join(spoken))
            if exact is not None:
                return exact, 100.0
        scores: dict[Command, float] = {}
        # Compared as written: a digit as its number word, as the phrases spell it.
        written = [normalise(self._grammar.number_words.get(w, w)) for w in heard]
        for phrase, command in zip(self._written, self._commands, strict=True):
            score = align(written, phrase, self._hesitations, self._fold)
            if score is not None and score > scores.get(command, -1.0):
                scores[command] = score
        if not scores:
            return None, 0.0
        ranked = sorted(scores.values(), reverse=True)
        if len(ranked) > 1 and ranked[0] - ranked[1] < AMBIGUITY_MARGIN:
            return None, ranked[0]
        return max(scores, key=scores.__getitem__), ranked[0]
