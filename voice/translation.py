"""The language of what a person reads (the command line, the board's error pages): gettext's
catalogue in voice/locale, Greek for a Greek locale or the hall's `language = "el"`."""

from __future__ import annotations

import argparse
import errno
import gettext as gnu
import os
from pathlib import Path

from rules.errors import RefereeError

DOMAIN = "referee"
LOCALE = Path(__file__).parent / "locale"
LANGUAGES = ("el", "en")  # what the hall's settings may choose; English is the code's own

_active: gnu.NullTranslations = gnu.NullTranslations()


def use(language: str | None = None) -> None:
    """Speak `language` from now on; None: the locale's (LANGUAGE, LC_ALL, LC_MESSAGES, LANG)."""
    global _active
    chosen = None if language is None else [language]
    _active = gnu.translation(DOMAIN, LOCALE, chosen, fallback=True)
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
    template = gettext(error.message)
    if template == error.message:
        return None
    fields: dict[str, object] = {}
    for name, value in error.fields.items():
        if isinstance(value, Foreign | Exception) and not isinstance(value, RefereeError):
            return None  # words the catalogue cannot hold: a library's, the OS's or Python's
        if isinstance(value, RefereeError):
            value = fault(value)
            if value is None:
                return None
        fields[name] = gettext(value) if isinstance(value, str) and value else value
    return template.format(**fields) if fields else template


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
