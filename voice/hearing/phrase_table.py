"""Words of another language standing for Greek words, so a non-Greek model can drive the
pipeline in tests (e.g. Korean «엄마» = «πόντος»)."""

from __future__ import annotations

import tomllib
from itertools import product
from pathlib import Path

from rules.errors import RefereeError
from rules.normalise import normalise
from voice.translation import N_, Foreign, reason


class PhraseTableError(RefereeError):
    """A phrase table that cannot be read or used: names the file or the entry at fault."""


class PhraseTable:
    """A word → Greek text table: spells Greek sentences in its words and translates back."""

    def __init__(self, words: dict[str, str]) -> None:
        if not words:
            raise PhraseTableError(N_("the phrase table is empty"))
        for word, greek in words.items():
            if len(word.split()) != 1:
                raise PhraseTableError(N_("phrase table key {word!r} must be exactly one word"),
                                       word=word)
            if not isinstance(greek, str) or not greek.split():
                raise PhraseTableError(N_("phrase table value for {word!r} must be non-empty "
                                          "text"), word=word)
        self.words = dict(words)
        self._spellings: dict[tuple[str, ...], list[str]] = {}
        for word, greek in words.items():
            self._spellings.setdefault(tuple(normalise(greek).split()), []).append(word)

    @classmethod
    def load(cls, path: str | Path) -> PhraseTable:
        """Read a TOML file of `word = "Greek text"` lines; PhraseTableError naming the file."""
        try:
            data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
            return cls(data)
        except OSError as error:
            raise PhraseTableError(N_("cannot read phrase table {path}: {reason}"), path=path,
                                   reason=reason(error)) from None
        except (UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
            raise PhraseTableError(N_("phrase table {path}: {error}"), path=path,
                                   error=Foreign(error)) from None
        except PhraseTableError as error:
            raise PhraseTableError(N_("phrase table {path}: {error}"), path=path,
                                   error=error) from None

    def spell(self, sentence: str) -> list[str]:
        """Every way of saying the Greek `sentence` in the table's words (none: empty list)."""
        return [" ".join(words) for words in self._spell(tuple(normalise(sentence).split()))]

    def translate(self, text: str) -> str:
        """The Greek that recognised `text` stands for; words not in the table are kept."""
        return " ".join(self.words.get(word, word) for word in text.split())

    def _spell(self, greek: tuple[str, ...]) -> list[tuple[str, ...]]:
        if not greek:
            return [()]
        spelled = []
        for size in range(1, len(greek) + 1):
            for word, rest in product(
                self._spellings.get(greek[:size], ()), self._spell(greek[size:])
            ):
                spelled.append((word, *rest))
        return spelled
