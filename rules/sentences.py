"""Sentence templates: `(a|b)` alternatives, `[a]` optional words, `{slot}`s, `<synonyms>`."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import NoReturn

from rules.errors import RefereeError

Sentence = tuple[str, ...]  # words, and slots as written («{frames}»)

_SPECIAL = r"\s()\[\]|<>{}"
_TOKEN = re.compile(rf"[()\[\]|]|<[^{_SPECIAL}]+>|{{[^{_SPECIAL}]+}}|[^{_SPECIAL}]+|\S")
_CLOSING = {"(": ")", "[": "]"}
_STRAY = frozenset("<>{}")


class GrammarError(RefereeError, ValueError):
    """A grammar that cannot be read; the message quotes the bad line."""


def expand(template: str, synonyms: Mapping[str, list[Sentence]] | None = None) -> list[Sentence]:
    """Every sentence `template` stands for, in the order written, without repeats.

    `<name>` stands for the sentences of `synonyms[name]`; raises GrammarError on a bad template.

    >>> expand("(point|miss) [out]")
    [('point',), ('point', 'out'), ('miss',), ('miss', 'out')]
    >>> expand("<go> {player}", {"go": [("starts",), ("breaks", "now")]})
    [('starts', '{player}'), ('breaks', 'now', '{player}')]
    >>> expand("[out]")
    Traceback (most recent call last):
    rules.sentences.GrammarError: ...
    """
    parser = _Parser(template, synonyms or {})
    sentences = parser.alternatives()
    if parser.position < len(parser.tokens):
        parser.fail(GrammarError("unexpected {token!r}", token=parser.tokens[parser.position]))
    if not all(sentences):
        parser.fail(GrammarError("it can be said with no word at all"))
    return list(dict.fromkeys(sentences))


class _Parser:
    """Recursive descent over one template's tokens, expanding as it goes."""

    def __init__(self, template: str, synonyms: Mapping[str, list[Sentence]]) -> None:
        self.template = template
        self.synonyms = synonyms
        self.tokens: list[str] = _TOKEN.findall(template)
        self.position = 0

    def fail(self, fault: GrammarError) -> NoReturn:
        raise GrammarError("sentence template {template!r}: {fault}", template=self.template,
                           fault=fault)

    def alternatives(self) -> list[Sentence]:
        """`a | b | …` up to a closing bracket or the end."""
        found = self.sequence()
        while self._next() == "|":
            self.position += 1
            found += self.sequence()
        return found

    def sequence(self) -> list[Sentence]:
        """Consecutive items: every way of saying each, one after the other."""
        found: list[Sentence] = [()]
        while (token := self._next()) not in ("|", ")", "]", None):
            ways = self.item(token)
            found = [head + tail for head in found for tail in ways]
        if found == [()]:
            self.fail(GrammarError("an empty alternative (optional words go in [ ])"))
        return found

    def item(self, token: str) -> list[Sentence]:
        """One word, slot, synonyms reference or bracketed group."""
        self.position += 1
        if token in _CLOSING:
            inner = self.alternatives()
            if self._next() != _CLOSING[token]:
                self.fail(GrammarError("{token!r} is not closed by {closing!r}", token=token,
                                       closing=_CLOSING[token]))
            self.position += 1
            return [(), *inner] if token == "[" else inner
        if token in _STRAY:
            self.fail(GrammarError("unexpected {token!r}", token=token))
        if token.startswith("<"):
            if token[1:-1] not in self.synonyms:
                self.fail(GrammarError("no synonyms {token!r}", token=token))
            return self.synonyms[token[1:-1]]
        return [(token,)]

    def _next(self) -> str | None:
        return self.tokens[self.position] if self.position < len(self.tokens) else None
