"""The phrase bank of `bank.toml`: terms, ball and spot names, and announcement templates."""

from __future__ import annotations

import string
import tomllib
from dataclasses import dataclass
from functools import cache
from importlib.resources import files

CHANNELS = ("pa", "headset")
PLACEHOLDERS = {"player", "points", "scores", "spots", "frames", "spoken", "written"}


@dataclass(frozen=True)
class Term:
    """A term of the regulation: the written form, the Greek pronunciation, the meaning."""

    written: str
    spoken: str
    meaning: str


@dataclass(frozen=True)
class Template:
    """How one announcement (or one variant of it) is voiced and shown."""

    channel: str
    text: str
    display: str


@dataclass(frozen=True)
class Numbers:
    """The words the TTS is given for numbers."""

    units: tuple[str, ...]  # 0 to 19
    tens: tuple[str, ...]  # indexed by the tens digit, 2 to 9
    hundred: str  # 100 alone
    hundred_and: str  # 101 to 199
    thousands: int  # from here on, digits

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


@dataclass(frozen=True)
class Bank:
    """All the bank's data, checked when loaded."""

    terms: dict[str, Term]
    balls: dict[str, str]
    spots: dict[str, str]
    templates: dict[str, Template]
    numbers: Numbers
    frames: tuple[str, str]  # how one frame and two adjacent frames are named

    def template(self, code: str, variant: str | None) -> Template:
        """The template for `code.variant`, else for `code`; KeyError names what is missing."""
        for key in (f"{code}.{variant}", code) if variant else (code,):
            if key in self.templates:
                return self.templates[key]
        raise KeyError(f"the phrase bank has no entry for {code}.{variant}")


def _template(key: str, data: dict, terms: dict[str, Term]) -> Template:
    if data.get("channel") not in CHANNELS:
        raise ValueError(f"bank entry {key!r}: channel must be one of {CHANNELS}")
    term = terms.get(data["term"]) if "term" in data else None
    if "term" in data and term is None:
        raise ValueError(f"bank entry {key!r} names an unknown term {data['term']!r}")
    text = data.get("text", "{spoken}" if term else None)
    display = data.get("display", "{written}" if term else None)
    if text is None or display is None:
        raise ValueError(f"bank entry {key!r} needs text and display, or a term")
    for form in (text, display):
        names = {name for _, name, _, _ in string.Formatter().parse(form) if name}
        if names - PLACEHOLDERS:
            raise ValueError(f"bank entry {key!r} uses unknown placeholders {names - PLACEHOLDERS}")
    if term:
        text = text.replace("{spoken}", term.spoken).replace("{written}", term.written)
        display = display.replace("{spoken}", term.spoken).replace("{written}", term.written)
    return Template(data["channel"], text, display)


def parse_bank(source: str) -> Bank:
    """A bank from TOML text; ValueError naming the faulty entry."""
    data = tomllib.loads(source)
    terms = {code: Term(**fields) for code, fields in data["terms"].items()}
    templates = {key: _template(key, entry, terms) for key, entry in data["announcements"].items()}
    numbers = data["numbers"]
    if len(numbers["units"]) != 20 or len(numbers["tens"]) != 10:
        raise ValueError("bank [numbers]: units needs 20 words (0–19) and tens 10 (index 0–9)")
    words = Numbers(
        tuple(numbers["units"]), tuple(numbers["tens"]), numbers["hundred"],
        numbers["hundred_and"], int(numbers["thousands"]),
    )
    frames = (data["frames"]["one"], data["frames"]["two"])
    return Bank(terms, dict(data["balls"]), dict(data["spots"]), templates, words, frames)


@cache
def bank() -> Bank:
    """The bank shipped in the package's `bank.toml`."""
    return parse_bank(files("phrases").joinpath("bank.toml").read_text(encoding="utf-8"))
