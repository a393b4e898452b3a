"""The phrase bank of `bank.toml`: terms, ball and spot names, announcement and prompt templates."""

from __future__ import annotations

import string
import tomllib
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from importlib.resources import files
from typing import Any

from rules.announcement import Code, Variant, forms
from rules.errors import RefereeError

PLACEHOLDERS = {
    "player", "points", "points_genitive", "scores", "spots", "frames", "spoken", "written",
    "pause",
}
# Every entry the bank must have: `code` for a plain form, `code.variant` for a variant.
ENTRIES = frozenset(f"{code}.{v}" if v else str(code) for code in Code for v in forms(code))


class Channel(StrEnum):
    """Where an announcement is heard."""

    PA = "pa"  # the hall's public address
    HEADSET = "headset"  # the referee only


class BankError(RefereeError, ValueError):
    """A phrase bank that does not fit the rules' announcements; names the faulty entry."""


@dataclass(frozen=True)
class Term:
    """A term of the regulation: the written form, the Greek pronunciation, the meaning."""

    written: str
    spoken: str
    meaning: str


@dataclass(frozen=True)
class Template:
    """How one announcement (or one variant of it) is voiced and shown."""

    channel: Channel
    text: str
    display: str
    chime: bool = False  # a non-routine announcement: the PA may chime before it


@dataclass(frozen=True)
class Numbers:
    """The words the TTS is given for numbers."""

    units: tuple[str, ...]  # 0 to 19
    tens: tuple[str, ...]  # indexed by the tens digit, 2 to 9
    hundred: str  # 100 alone
    hundred_and: str  # 101 to 199
    thousands: int  # from here on, digits
    genitive_words: dict[str, str]  # the spoken words that change in the genitive

    def spoken(self, number: int) -> str:
        """`number` as the TTS should be given it."""
        if number < 0 or number >= self.thousands:
            return str(number)
        hundreds, rest = divmod(number, 100)
        if rest < 20:
            tail = self.units[rest] if rest or not hundreds else ""
        else:
            tens, units = divmod(rest, 10)
            tail = f"{self.tens[tens]} {self.units[units]}" if units else self.tens[tens]
        if hundreds == 0:
            return tail
        head = self.hundred_and if rest else self.hundred
        if hundreds > 1:
            head = str(hundreds * 100)
        return f"{head} {tail}" if tail else head

    def genitive(self, number: int) -> str:
        """`number` in the genitive («τριών», «είκοσι ενός»), as the TTS should be given it."""
        return " ".join(self.genitive_words.get(w, w) for w in self.spoken(number).split())


@dataclass(frozen=True)
class Bank:
    """All the bank's data, checked when loaded."""

    terms: dict[str, Term]
    balls: dict[str, str]
    spots: dict[str, str]
    templates: dict[str, Template]  # the rules' announcements: one per form of each `Code`
    prompts: dict[str, Template]  # [prompts]: the edge's own headset prompts, as the bank lists
    numbers: Numbers
    frames: tuple[str, str]  # how one frame and two adjacent frames are named
    points_genitive: tuple[str, str]  # «ενός πόντου», «τριών πόντων»: one point, more

    def template(self, code: Code, variant: Variant | None) -> Template:
        """The template for `code`, or for `code.variant` when there is a variant."""
        return self.templates[f"{code}.{variant}" if variant else code]

    def prompt(self, code: StrEnum, variant: StrEnum | None) -> Template:
        """The [prompts] template for an edge's `code` (any StrEnum), or for `code.variant`."""
        key = f"{code}.{variant}" if variant else str(code)
        try:
            return self.prompts[key]
        except KeyError:
            raise BankError("the phrase bank's [prompts] has no entry {key!r}", key=key) from None


def _check_key(key: str) -> None:
    """BankError unless `key` names a form of an announcement the rules make."""
    if key in ENTRIES:
        return
    code = key.partition(".")[0]
    if code not in set(Code):
        raise BankError("bank entry {key!r}: {code!r} is not an announcement code", key=key,
                        code=code)
    made = ", ".join(sorted(entry for entry in ENTRIES if entry.partition(".")[0] == code))
    raise BankError("bank entry {key!r}: the rules never make this form; they make {made}",
                    key=key, made=made)


def _check_prompt_key(key: str) -> None:
    """BankError when a [prompts] `key` names an announcement of the rules."""
    code = key.partition(".")[0]
    if code in set(Code):
        raise BankError("bank entry {key!r} in [prompts]: {code!r} is an announcement of the "
                        "rules; it belongs in [announcements]", key=key, code=code)


def _template(key: str, data: dict[str, Any], terms: dict[str, Term]) -> Template:
    try:
        channel = Channel(data.get("channel", ""))
    except ValueError:
        known = ", ".join(Channel)
        raise BankError("bank entry {key!r}: channel must be one of {known}", key=key,
                        known=known) from None
    term = terms.get(data["term"]) if "term" in data else None
    if "term" in data and term is None:
        raise BankError("bank entry {key!r} names an unknown term {term!r}", key=key,
                        term=data["term"])
    text = data.get("text", "{spoken}" if term else None)
    display = data.get("display", "{written}" if term else None)
    if text is None or display is None:
        raise BankError("bank entry {key!r} needs text and display, or a term", key=key)
    for form in (text, display):
        names = {name for _, name, _, _ in string.Formatter().parse(form) if name}
        if names - PLACEHOLDERS:
            raise BankError("bank entry {key!r} uses unknown placeholders {unknown}", key=key,
                            unknown=names - PLACEHOLDERS)
    if term:
        text = text.replace("{spoken}", term.spoken).replace("{written}", term.written)
        display = display.replace("{spoken}", term.spoken).replace("{written}", term.written)
    chime = data.get("chime", False)
    if not isinstance(chime, bool):
        raise BankError("bank entry {key!r}: chime must be true or false", key=key)
    return Template(channel, text, display, chime)


def parse_bank(source: str) -> Bank:
    """A bank from TOML text; BankError naming the faulty or missing entry."""
    data = tomllib.loads(source)
    terms = {code: Term(**fields) for code, fields in data["terms"].items()}
    for key in data["announcements"]:
        _check_key(key)
    for key in data.get("prompts", {}):
        _check_prompt_key(key)
    templates = {key: _template(key, entry, terms) for key, entry in data["announcements"].items()}
    prompts = {key: _template(key, entry, terms) for key, entry in data.get("prompts", {}).items()}
    missing = sorted(ENTRIES - set(templates))
    if missing:
        raise BankError("the phrase bank has no entry for {missing}", missing=", ".join(missing))
    numbers = data["numbers"]
    if len(numbers["units"]) != 20 or len(numbers["tens"]) != 10:
        raise BankError("bank [numbers]: units needs 20 words (0–19) and tens 10 (index 0–9)")
    words = Numbers(
        tuple(numbers["units"]), tuple(numbers["tens"]), numbers["hundred"],
        numbers["hundred_and"], int(numbers["thousands"]), dict(numbers["genitive"]),
    )
    frames = (data["frames"]["one"], data["frames"]["two"])
    genitive = (data["points_genitive"]["one"], data["points_genitive"]["more"])
    return Bank(
        terms, dict(data["balls"]), dict(data["spots"]), templates, prompts, words, frames,
        genitive,
    )


@cache
def bank() -> Bank:
    """The bank shipped in the package's `bank.toml`."""
    return parse_bank(files("phrases").joinpath("bank.toml").read_text(encoding="utf-8"))
