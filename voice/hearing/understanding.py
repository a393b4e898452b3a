"""Recognised text → command: what the live loop does with a final result, without vosk."""

from __future__ import annotations

from collections.abc import Mapping

from rules.command import Command
from rules.normalise import normalise
from rules.vocabulary import Vocabulary
from voice.hearing.phrase_table import PhraseTable

UNKNOWN = "[unk]"  # how results show speech outside the grammar, whatever the model calls it


def phrase(text: str, table: PhraseTable | None, aliases: Mapping[str, str]) -> str:
    """The Greek `text` stands for: through the phrase table, then the referee's aliases."""
    said = table.translate(text) if table else text
    return aliases.get(normalise(said), said) if aliases else said


def understand(
    text: str, vocabulary: Vocabulary, threshold: float,
    table: PhraseTable | None = None, aliases: Mapping[str, str] | None = None,
) -> tuple[Command | None, float]:
    """The command recognised `text` means (None below `threshold`), and the confidence: 100
    for an exact phrase, else Vocabulary.nearest's."""
    said = phrase(text, table, aliases or {})
    if not set(said.split()) - {UNKNOWN}:
        return None, 0.0
    command = vocabulary.parse(said)
    if command is not None:
        return command, 100.0
    command, confidence = vocabulary.nearest(said)
    return (command if confidence >= threshold else None), confidence
