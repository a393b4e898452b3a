"""What a hall sets once, in one TOML file, and where each value in force came from: the
default, the hall's file, the referee's profile or the command line (that order, last wins)."""

from __future__ import annotations

import json
import shutil
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from pathlib import Path
from typing import Any

from platformdirs import user_config_path, user_state_path

from rules.errors import RefereeError
from rules.shot_clock import WARNING_BEFORE
from rules.state import MAX_SETS, MAX_SHOT_CLOCK, MAX_TIME_OUTS
from rules.vocabulary import DEFAULT_THRESHOLD, MAX_THRESHOLD, MIN_THRESHOLD
from voice.hearing.endpoint import DEFAULT_ENDPOINT_MS, MAX_ENDPOINT_MS, MIN_ENDPOINT_MS
from voice.live.echo import ECHO_MS, MAX_ECHO_MS
from voice.live.prompts import REPEAT_SECONDS
from voice.speaking.drivers import DRIVERS, GREEK_VOICE_ID, MBROLA_HINT, REFUSED_VOICES
from voice.speaking.loudness import TARGET_LUFS
from voice.speaking.synthesis import MAX_RATE, MIN_RATE, RATE
from voice.speaking.voicing import MAX_PAUSE_MS, MAX_TARGET, MIN_TARGET, PAUSE_MS
from voice.translation import LANGUAGES, N_, Line

APP = "carom-referee"
# espeak-ng's mbrola Greek voice (mb/mb-gr1 is refused: voice.speaking.drivers.REFUSED_VOICES):
# it needs the mbrola program and its voice data.
MBROLA_VOICES = {"mb/mb-gr2": "gr2"}
MBROLA_DATA = Path("/usr/share/mbrola")


class SettingsError(RefereeError):
    """A settings file or value is unusable: names the file, the key and what is allowed."""


class Source(StrEnum):
    """Where a value in force came from, weakest first."""

    DEFAULT = N_("default")
    HALL = N_("hall file")
    PROFILE = N_("referee profile")
    COMMAND_LINE = N_("command line")


def default_path() -> Path:
    """The hall's settings file in the user's config directory (platformdirs)."""
    return user_config_path(APP) / "settings.toml"


def echoes_path() -> Path:
    """The PA's echo kept for each pair of devices, in the user's state directory
    (platformdirs; voice.hearing.echo_memory)."""
    return user_state_path(APP) / "echoes.json"


def greek_voices() -> list[str]:
    """The Greek voices espeak-ng can use here: its own, and the mbrola ones installed."""
    mbrola = shutil.which("mbrola") is not None
    return [GREEK_VOICE_ID, *(voice for voice, data in MBROLA_VOICES.items()
                           if mbrola and (MBROLA_DATA / data).exists())]


@dataclass(frozen=True)
class Settings:
    """The values in force (defaults as given here) and, for each one set, its source."""

    voice: str = GREEK_VOICE_ID
    driver: str | None = None  # pyttsx3's speech driver; unset: the platform's
    rate: int = RATE  # words per minute
    loudness: float = TARGET_LUFS  # LUFS, integrated, of every announcement
    chime: bool = True  # before non-routine announcements: break, extension, winner
    shot_clock_tone: bool = True  # the PA's tone as the shot clock warns
    give_way: bool = True  # an announcement the referee speaks over is cut short
    pause_ms: int = PAUSE_MS  # between a surname and its number
    confirmations: bool = True  # the headset repeats each command taken
    lost_notice: bool = True  # a lost headset: a short neutral word on the PA
    say_again: str | None = None  # after audio went missing; unset: the bank's say_again prompt
    mic: str | None = None  # a device id or part of its name (`referee devices`)
    pa: str | None = None
    headset: str | None = None
    echo_guard_ms: int = ECHO_MS  # a phrase the PA just said, ending this soon after, is its echo
    threshold: float = DEFAULT_THRESHOLD
    endpoint_ms: int = DEFAULT_ENDPOINT_MS
    language: str | None = None  # of the command line and the board's error pages; the locale's
    name: str | None = None  # the hall's name, in its PostgreSQL
    table: str | None = None  # this table's name there; unset: the machine's host name
    push: str | None = None  # the hall's PostgreSQL (libpq's connection string); unset: no push
    sets: int | None = None  # a new match's best of N sets (`--sets`); unset: one game
    shot_clock: int | None = None  # a new match's seconds per shot (`--shot-clock`); unset: none
    time_outs: int | None = None  # with a shot clock, time-outs per player (`--time-outs`)
    sources: Mapping[str, Source] = field(default_factory=dict, compare=False)

    def source(self, name: str) -> Source:
        """Where the value of the setting `name` came from."""
        return self.sources.get(name, Source.DEFAULT)

    def over(self, values: Mapping[str, object], source: Source, where: str) -> Settings:
        """These settings with `values` (setting name → value, None: not set) laid over them,
        each checked; SettingsError naming `where` and the key."""
        given = {name: value for name, value in values.items() if value is not None}
        checked: dict[str, Any] = {n: KEYS[n].check(value, where) for n, value in given.items()}
        return replace(self, **checked, sources={**self.sources, **dict.fromkeys(given, source)})


@dataclass(frozen=True)
class Key:
    """One setting: its section in the file, what values it allows, and what it is for."""

    name: str
    section: str
    allowed: Line  # in words, for the error and the file's comments
    valid: Callable[[object], bool]
    comment: str
    example: str = '"USB"'  # commented out in a fresh file, for a key with no default

    @property
    def key(self) -> str:
        """The dotted key, as the file spells it: `hearing.threshold`."""
        return f"{self.section}.{self.name}"

    def check(self, value: object, where: str) -> object:
        """`value` if it is allowed (a whole number as a float where one is wanted)."""
        if not self.valid(value):
            raise SettingsError(N_("{where}: {key} = {value}: {allowed}"), where=where,
                                key=self.key, value=toml(value), allowed=self.allows(value))
        if self.name in DEVICES:  # an id may be written as TOML's integer: `mic = 2`
            return str(value)
        return float(value) if isinstance(value, int) and self.name in FLOATS else value

    def allows(self, value: object = None) -> Line:
        """What it allows, in words (and, for a voice, why `value` is refused)."""
        if self.name == "voice":
            return voice_allowed(value)
        return Line(N_("allowed: {what}"), what=self.allowed)


def voice_allowed(value: object = None) -> Line:
    """What speech.voice allows here (why `value` is refused, if it is), and how to get the
    voices that are not installed."""
    voices = ", ".join(greek_voices())
    missing = [voice for voice in MBROLA_VOICES if voice not in greek_voices()]
    allowed = Line(N_("allowed: {what} ({missing}: {hint})"), what=voices,
                   missing=", ".join(missing), hint=MBROLA_HINT) if missing else Line(
        N_("allowed: {what}"), what=voices)
    refused = REFUSED_VOICES.get(value) if isinstance(value, str) else None
    return allowed if refused is None else Line(N_("{refused}; {allowed}"), refused=refused,
                                                allowed=allowed)


def _whole(low: int, high: int) -> Callable[[object], bool]:
    return lambda v: type(v) is int and low <= v <= high


def _number(low: float, high: float) -> Callable[[object], bool]:
    return lambda v: type(v) in (int, float) and low <= v <= high  # type: ignore[operator]


def _odd_sets(v: object) -> bool:
    return type(v) is int and 1 <= v <= MAX_SETS and v % 2 == 1


def _flag(v: object) -> bool:
    return type(v) is bool


def _device(v: object) -> bool:
    return (isinstance(v, str) and bool(v.strip())) or (type(v) is int and v >= 0)


def _name(v: object) -> bool:
    return isinstance(v, str) and bool(v.strip())


FLOATS = {"loudness", "threshold"}
DEVICES = {"mic", "pa", "headset"}
FLAG = Line(N_("true or false"))
DEVICE = Line(N_('a device id (2 or "2") or part of its name'))
NAME = Line(N_("a name"))


def _milliseconds(high: int, low: int = 0) -> Line:
    return Line(N_("milliseconds from {low} to {high}"), low=low, high=high)


def _one_of(names: tuple[str, ...]) -> Line:
    return Line(N_("one of {names}"), names=", ".join(f'"{name}"' for name in names))


KEYS = {key.name: key for key in (
    Key("voice", "speech", Line(N_("an espeak-ng Greek voice")), lambda v: v in greek_voices(),
        "the Greek voice espeak-ng speaks with"),
    Key("driver", "speech", _one_of(DRIVERS), lambda v: v in DRIVERS,
        "pyttsx3's speech engine (unset: espeak on Linux, sapi5 on Windows, nsss on macOS)",
        example=f'"{DRIVERS[0]}"'),
    Key("rate", "speech", Line(N_("a whole number of words per minute from {low} to {high}"),
                               low=MIN_RATE, high=MAX_RATE), _whole(MIN_RATE, MAX_RATE),
        "speaking rate, words per minute"),
    Key("loudness", "speech", Line(N_("LUFS from {low:g} to {high:g}"), low=MIN_TARGET,
                                   high=MAX_TARGET),
        _number(MIN_TARGET, MAX_TARGET),
        f"the loudness of every announcement, LUFS integrated (EBU R 128: {TARGET_LUFS:g})"),
    Key("chime", "speech", FLAG, _flag,
        "a chime before non-routine announcements (break, extension, winner)"),
    Key("shot_clock_tone", "speech", FLAG, _flag,
        f"a short tone on the PA as the shot clock warns that {WARNING_BEFORE} s are left (the "
        "headset names the player; off: the headset alone)"),
    Key("give_way", "speech", FLAG, _flag,
        "the PA gives way to the referee: an announcement he speaks over is cut short (his "
        "phrase is heard without its echo) and the score said after him, unless a command he "
        "said was taken and announced there"),
    Key("pause_ms", "speech", _milliseconds(MAX_PAUSE_MS), _whole(0, MAX_PAUSE_MS),
        "the pause between a surname and its number, milliseconds"),
    Key("confirmations", "headset", FLAG, _flag,
        "the headset confirms each command taken (off: `run --no-confirm`)"),
    Key("lost_notice", "headset", FLAG, _flag,
        "when the headset is lost, the PA says a short neutral word (again every "
        f"{REPEAT_SECONDS:g} s until it is back)"),
    Key("say_again", "headset", Line(N_("a short text")), _name,
        "what the headset says when audio went missing for a moment and a phrase may be lost "
        "(unset: the phrase bank's say_again prompt)", example='"TEXT"'),
    Key("mic", "devices", DEVICE, _device,
        "the referee's microphone (`referee devices` lists the ids)"),
    Key("pa", "devices", DEVICE, _device,
        "the hall's public-address output"),
    Key("headset", "devices", DEVICE, _device,
        "the referee's headset output"),
    Key("echo_guard_ms", "hearing", _milliseconds(MAX_ECHO_MS), _whole(0, MAX_ECHO_MS),
        "a phrase ending this long after the PA said the same command is its echo, not taken"),
    Key("threshold", "hearing", Line(N_("a confidence from {low:g} to {high:g}"),
                                     low=MIN_THRESHOLD, high=MAX_THRESHOLD),
        _number(MIN_THRESHOLD, MAX_THRESHOLD),
        "the confidence a phrase not heard exactly needs to become a command"),
    Key("endpoint_ms", "hearing", _milliseconds(MAX_ENDPOINT_MS, MIN_ENDPOINT_MS),
        _whole(MIN_ENDPOINT_MS, MAX_ENDPOINT_MS),
        "this much non-speech ends a phrase (`referee calibrate` recommends one)"),
    Key("language", "messages", _one_of(LANGUAGES), lambda v: v in LANGUAGES,
        "the language of the command line and the board's error pages (unset: the locale's)",
        example=f'"{LANGUAGES[0]}"'),
    Key("name", "hall", NAME, _name,
        "the hall's name, in the hall's PostgreSQL and in each new match `referee run` starts "
        "(its protocol and board; `--hall` overrides)", example='"Athens Billiard Academy"'),
    Key("table", "hall", NAME, _name,
        "this table's name there and in each new match `referee run` starts (unset: the "
        "machine's host name); a match's --table wins",
        example='"3"'),
    Key("push", "hall", Line(N_("a libpq connection string")), _name,
        "push each match to the hall's PostgreSQL as it is played (a password: in ~/.pgpass)",
        example='"postgresql://table3@hall-server/hall"'),
    Key("sets", "match", Line(N_("an odd whole number from 1 to {high}"), high=MAX_SETS),
        _odd_sets,
        "a new match `referee run` starts is best of this many sets, each to the distance "
        "(`--sets` overrides; unset: one game)", example="3"),
    Key("shot_clock", "match", Line(N_("seconds, a whole number from 1 to {high}"),
                                    high=MAX_SHOT_CLOCK),
        _whole(1, MAX_SHOT_CLOCK),
        "a new match `referee run` starts has a shot clock of this many seconds per shot "
        "(`--shot-clock` overrides; unset: none)", example="30"),
    Key("time_outs", "match", Line(N_("a whole number from 0 to {high}"), high=MAX_TIME_OUTS),
        _whole(0, MAX_TIME_OUTS),
        "with the shot clock, each player's time-outs (`--time-outs` overrides)", example="3"),
)}
assert set(KEYS) == {f.name for f in fields(Settings)} - {"sources"}


def load(path: Path | None) -> Settings:
    """The defaults with the hall's file at `path` over them (None: the default file, if any)."""
    where = path or default_path()
    if path is None and not where.exists():
        return Settings()
    try:
        data = tomllib.loads(where.read_text(encoding="utf-8"))
    except OSError as error:
        raise SettingsError(N_("cannot read the settings file {path}: {reason}"), path=where,
                            reason=error.strerror) from None
    except UnicodeDecodeError as error:
        raise SettingsError(N_("the settings file {path} is not UTF-8: {error}"), path=where,
                            error=str(error)) from None
    except tomllib.TOMLDecodeError as error:
        raise SettingsError(N_("the settings file {path} is not TOML: {error}"), path=where,
                            error=str(error)) from None
    return Settings().over(_flatten(data, where), Source.HALL, str(where))


def _flatten(data: Mapping[str, object], where: Path) -> dict[str, object]:
    """The file's `[section] key = value` pairs as setting name → value; unknown keys refused."""
    sections = {key.section for key in KEYS.values()}
    values: dict[str, object] = {}
    for section, table in data.items():
        if section not in sections or not isinstance(table, dict):
            raise SettingsError(N_("{where}: unknown section or key {section!r}; the sections are "
                                   "{sections}"), where=where, section=section,
                                sections=", ".join(sorted(sections)))
        for name, value in table.items():
            key = KEYS.get(name)
            if key is None or key.section != section:
                known = [k.name for k in KEYS.values() if k.section == section]
                raise SettingsError(N_("{where}: unknown key {section}.{name}; [{section}] holds "
                                       "{known}"), where=where, section=section, name=name,
                                    known=", ".join(known))
            values[name] = value
    return values


def commented_file() -> str:
    """A settings file holding every key at its default, each with a comment saying what it does
    and what it allows (the devices, which have no default, commented out)."""
    lines = ["# The hall's settings for carom-referee: what a hall sets once.",
             "# Command-line options override them, and a referee's --profile overrides the",
             "# recognition threshold and endpoint. `referee config show` says what is in force.",
             ""]
    defaults = Settings()
    section = ""
    for key in KEYS.values():
        if key.section != section:
            lines += [""] if section else []
            section = key.section
            lines += [f"[{section}]"]
        value = getattr(defaults, key.name)
        lines += [f"# {key.comment}", f"# {key.allows()}"]
        unset = f"# {key.name} = {key.example}"
        lines.append(unset if value is None else f"{key.name} = {toml(value)}")
    return "\n".join(lines) + "\n"


def toml(value: object) -> str:
    """A TOML literal for a string, number or boolean (JSON's strings are TOML's basic strings);
    anything else as Python writes it, for messages."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    return repr(value)
