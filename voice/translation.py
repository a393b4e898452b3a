"""The language of what a person reads (the command line, the board's error pages): gettext's
catalogue in voice/locale, Greek for a Greek locale or the hall's `language = "el"`."""

from __future__ import annotations

import argparse
import errno
import gettext as gnu
import os
from collections.abc import Callable, Mapping
from numbers import Real
from pathlib import Path

from rules.command import Kind
from rules.errors import RefereeError

DOMAIN = "referee"
LOCALE = Path(__file__).parent / "locale"
LANGUAGES = ("el", "en")  # what the hall's settings may choose; English is the code's own


class _Missing(str):
    """A message as given: the catalogue does not hold it (one whose Greek is the same does)."""


class _Uncatalogued(gnu.NullTranslations):
    """Under the catalogue: what it lacks comes back as given, marked _Missing."""

    def gettext(self, message: str) -> str:
        # argparse asks for None's translation (a subparsers group with no description)
        return _Missing(message) if isinstance(message, str) else message


_active: gnu.NullTranslations = gnu.NullTranslations()
_active.add_fallback(_Uncatalogued())  # English: the code's own words, no catalogue


def use(language: str | None = None) -> None:
    """Speak `language` from now on; None: the locale's (LANGUAGE, LC_ALL, LC_MESSAGES, LANG)."""
    global _active
    chosen = None if language is None else [language]
    _active = gnu.translation(DOMAIN, LOCALE, chosen, fallback=True)
    _active.add_fallback(_Uncatalogued())  # what the catalogue lacks comes back marked
    # argparse looks its own words ("usage:", "options") up through these two module names,
    # which follow only the environment: pointed at ours, they follow the hall's choice too.
    argparse._ = gettext  # type: ignore[attr-defined]
    argparse.ngettext = ngettext  # type: ignore[attr-defined]


def gettext(message: str) -> str:
    """`message` in the language in use."""
    return _active.gettext(message)


def ngettext(singular: str, plural: str, count: int) -> str:
    """The singular or plural form for `count`, in the language in use."""
    return _active.ngettext(singular, plural, count)


def fault(error: RefereeError) -> str | None:
    """The error's message in the language in use; None when the catalogue does not hold it, an
    error it quotes, or it quotes Foreign words (then only English says it)."""
    return _filled(error.message, error.fields)


def _filled(template: str, fields: Mapping[str, object]) -> str | None:
    """`template` filled with `fields`, all in the language in use; None when only English can
    say it: the catalogue lacks the template, or a field is Foreign words, an exception not
    ours, or a line or error that only English can say."""
    text = gettext(template)
    if isinstance(text, _Missing):
        return None
    comma = _active.pgettext("decimal mark", ".") == ","
    shown: dict[str, object] = {}
    for name, value in fields.items():
        value = _named(value, gettext)
        if comma and not isinstance(value, bool) and isinstance(value, Real):
            value = _DecimalComma(value)
        if isinstance(value, Foreign | Exception) and not isinstance(value, RefereeError):
            return None  # words the catalogue cannot hold: a library's, the OS's or Python's
        if isinstance(value, RefereeError | Line):
            value = fault(value) if isinstance(value, RefereeError) else value.translated()
            if value is None:
                return None
        shown[name] = gettext(value) if isinstance(value, str) and value else value
    return text.format(**shown) if fields else text


class _DecimalComma:
    """A number shown in a language that writes the decimal mark as a comma (and groups digits
    with a point), as the catalogue's «decimal mark» says: Greek writes −11,5 dB."""

    def __init__(self, value: Real) -> None:
        self.value = value

    def __format__(self, spec: str) -> str:
        return format(self.value, spec).translate(_SWAPPED)

    def __str__(self) -> str:
        return format(self, "")

    __repr__ = __str__  # a field written {count!r}


_SWAPPED = str.maketrans(".,", ",.")  # 1,234.5 → 1.234,5


def _named(value: object, say: Callable[[str], str]) -> object:
    """A command's kind, or several, by name (`say` gives a name in the language wanted)."""
    if isinstance(value, Kind):
        return say(KINDS[value])
    if isinstance(value, tuple) and value and all(isinstance(v, Kind) for v in value):
        return ", ".join(say(KINDS[v]) for v in value)
    return value


class Line:
    """A line a person reads: a catalogued template (English, with str.format fields) and its
    fields; `str()` gives its English, `shown()` the language in use."""

    def __init__(self, template: str, /, **fields: object) -> None:
        self.template = template
        self.fields = fields

    def __str__(self) -> str:
        named = {name: _named(value, str) for name, value in self.fields.items()}
        return self.template.format(**named) if named else self.template

    def translated(self) -> str | None:
        """The line in the language in use; None when only English can say it (as `fault`)."""
        return _filled(self.template, self.fields)

    def shown(self) -> str:
        """The line in the language in use: never half translated, all English when a field can
        only be said in English (Foreign words, an error the catalogue lacks)."""
        return self.translated() or str(self)


def N_(message: str) -> str:
    """Mark `message` for the catalogue; it is translated where it is shown."""
    return message


class Foreign(str):
    """Words the catalogue cannot hold (a library's or the OS's own): an error quoting them is
    shown all in English, never half translated."""


# What the OS says of the faults a person meets most, as it says them (glibc's strerror).
OS_REASONS = {
    errno.ENOENT: N_("No such file or directory"),
    errno.EACCES: N_("Permission denied"),
    errno.EPERM: N_("Operation not permitted"),
    errno.ENOSPC: N_("No space left on device"),
    errno.EROFS: N_("Read-only file system"),
    errno.EBUSY: N_("Device or resource busy"),
    errno.EISDIR: N_("Is a directory"),
    errno.ENOTDIR: N_("Not a directory"),
    errno.EEXIST: N_("File exists"),
    errno.EIO: N_("Input/output error"),
    errno.ENAMETOOLONG: N_("File name too long"),
    errno.EADDRINUSE: N_("Address already in use"),
    errno.EADDRNOTAVAIL: N_("Cannot assign requested address"),
}


def reason(error: BaseException) -> str:
    """Why a call failed, as the OS or library says it: for the common OS errors the words the
    catalogue holds, else its own words, Foreign."""
    if isinstance(error, OSError) and error.strerror == os.strerror(error.errno or 0):
        known = OS_REASONS.get(error.errno or 0)
        if known is not None:
            return known
    return Foreign(getattr(error, "strerror", None) or error)


_ = gettext


# Each command kind as a person reads it: the referee's own word where he has one; the zones'
# French terms as the bank writes them.
KINDS = {
    Kind.POINT: N_("point"),
    Kind.POINT_OUT: N_("point out"),
    Kind.POINT_OUT_ANCHOR: N_("point out of the anchor"),
    Kind.POINT_ENTREES: N_("point ENTRÉES"),
    Kind.POINT_ENTREES_ANCHOR: N_("point ENTRÉES in an anchor"),
    Kind.MISS: N_("miss"),
    Kind.FOUL: N_("foul"),
    Kind.ENTREES: N_("ENTRÉES"),
    Kind.ENTREES_ANCHOR: N_("ENTRÉES in an anchor"),
    Kind.OUT: N_("out"),
    Kind.A_CHEVAL: N_("À CHEVAL"),
    Kind.A_CHEVAL_ANCHOR: N_("À CHEVAL in an anchor"),
    Kind.LIBRES: N_("LIBRES"),
    Kind.TOUCHENT: N_("TOUCHENT"),
    Kind.RESPOT: N_("re-spot"),
    Kind.FAULT_SIX: N_("fault six"),
    Kind.BALL_OFF: N_("ball off the table"),
    Kind.BREAK: N_("break"),
    Kind.BREAK_END: N_("end of the break"),
    Kind.TICK: N_("clock tick"),
    Kind.UNDO: N_("undo"),
    Kind.SCORE: N_("score"),
    Kind.STARTS: N_("who starts"),
    Kind.WARM_UP: N_("warm-up"),
    Kind.WARM_UP_END: N_("end of the warm-up"),
    Kind.CORRECT: N_("inning corrected"),
    Kind.INSERT_INNING: N_("round inserted"),
    Kind.DELETE_INNING: N_("round deleted"),
    Kind.TIME_OUT: N_("time-out"),
}
assert set(KINDS) == set(Kind)
