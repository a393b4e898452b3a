"""Surnames the Greek voice may say wrongly, unless a spoken form is given with them."""

from __future__ import annotations

import unicodedata

from voice.translation import N_

_ACCENTS = {"\u0301", "\u0300", "\u0342"}  # acute (tonos), grave, circumflex, once decomposed


def spelling_doubt(surname: str) -> str | None:
    """Why espeak-ng may misread `surname` ("in Latin letters", "in capitals", "without an
    accent mark"), or None: it reads Latin by English rules and stresses by the accent mark."""
    letters = [c for c in surname if c.isalpha()]
    if any(unicodedata.name(c, "").startswith("LATIN") for c in letters):
        return N_("in Latin letters")
    if letters and all(c.isupper() for c in letters):
        return N_("in capitals")
    if not _ACCENTS & set(unicodedata.normalize("NFD", surname)):
        return N_("without an accent mark")
    return None
