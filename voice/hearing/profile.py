"""A referee's personal profile: what the model hears when this referee says a phrase (aliases),
and the endpoint and threshold that suit this voice. Written by `referee calibrate`, TOML."""

from __future__ import annotations

import json
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from rules.errors import RefereeError
from rules.normalise import normalise
from voice.translation import N_, Foreign, reason


class ProfileError(RefereeError):
    """A profile file is unreadable or malformed; the message names the file and the fault."""


@dataclass(frozen=True)
class Profile:
    """Aliases (heard text, normalised → a phrase of the grammar), the endpoint and threshold."""

    aliases: Mapping[str, str] = field(default_factory=dict)
    endpoint_ms: int | None = None
    threshold: float | None = None

    def settings(self) -> dict[str, object]:
        """The settings this profile gives, by setting name (voice.settings checks them)."""
        return {"endpoint_ms": self.endpoint_ms, "threshold": self.threshold}


def load_profile(path: Path) -> Profile:
    """Read the profile at `path`; ProfileError naming the file and what is wrong."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise ProfileError(N_("cannot read the profile {path}: {reason}"), path=path,
                           reason=reason(error)) from None
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise ProfileError(N_("the profile {path} is not a TOML file: {error}"), path=path,
                           error=Foreign(error)) from None
    unknown = set(data) - {"aliases", "endpoint_ms", "threshold"}
    if unknown:
        raise ProfileError(N_("{path}: unknown key {key!r}; a profile holds endpoint_ms, "
                              "threshold and [aliases]"), path=path, key=sorted(unknown)[0])
    aliases = data.get("aliases", {})
    if not isinstance(aliases, dict) or not all(
        isinstance(value, str) for value in aliases.values()
    ):
        raise ProfileError(N_('{path}: [aliases] must hold `"heard text" = "phrase"` lines'),
                           path=path)
    return Profile({normalise(heard): phrase for heard, phrase in aliases.items()},
                   data.get("endpoint_ms"), data.get("threshold"))


def save_profile(profile: Profile, path: Path, notes: Iterable[str] = ()) -> None:
    """Write `profile` to `path` as TOML, with `notes` as comments at the top."""
    lines = [f"# {note}" for note in notes]
    lines += [f"{name} = {value!r}" for name, value in profile.settings().items()
              if value is not None]
    lines += ["", "# what the model heard → the phrase the referee said", "[aliases]"]
    lines += [f"{_string(heard)} = {_string(phrase)}"
              for heard, phrase in sorted(profile.aliases.items())]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _string(text: str) -> str:
    """A TOML basic string (JSON's strings are valid ones)."""
    return json.dumps(text, ensure_ascii=False)
