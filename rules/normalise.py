"""Spelling normalisation: the one place that knows about case, accents and punctuation."""

from __future__ import annotations

import re
import unicodedata

_NOT_WORD = re.compile(r"[\W_]+")


def normalise(text: str) -> str:
    """Case-folded (ς becomes σ), accent-free words separated by single spaces."""
    decomposed = unicodedata.normalize("NFD", text.casefold())
    bare = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(_NOT_WORD.sub(" ", bare).split())
