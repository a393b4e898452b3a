"""The PA's echo in the microphone as last measured, kept between sessions for each pair of
devices (microphone, PA): a session starts knowing how loud its hall's echo is
(voice.hearing.echo_level), not only after the referee has been quiet through an announcement."""

from __future__ import annotations

import json
import math
import os
from contextlib import suppress
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from rules.errors import RefereeError
from voice.translation import N_, reason

VERSION = 1  # of the file's layout


class EchoMemoryError(RefereeError):
    """The file of kept echoes cannot be read or written; names the file and the fault."""


@dataclass(frozen=True)
class Kept:
    """An echo measured: its gain (the echo's energy over the PA's) and when it was measured."""

    gain: float
    measured: datetime

    @property
    def db(self) -> float:
        """The gain in decibels.

        >>> round(Kept(0.1, datetime(2026, 12, 4)).db, 1)
        -10.0
        """
        return 10 * math.log10(self.gain)


def recall(path: Path, mic: str, pa: str) -> Kept | None:
    """The echo kept for `mic` and `pa`, None if none is; EchoMemoryError if `path` cannot
    be read."""
    entry = _read(path).get(_key(mic, pa))
    if entry is None:
        return None
    try:
        kept = Kept(10 ** (float(entry["echo_db"]) / 10), datetime.fromisoformat(entry["measured"]))
    except (TypeError, KeyError, ValueError, OverflowError):
        kept = None
    if kept is None or not 0 < kept.gain < math.inf:
        raise EchoMemoryError(N_("{path}: the echo kept for {devices} is malformed; delete the "
                                 "file, the next session measures it again"),
                              path=path, devices=_key(mic, pa))
    return kept


def keep(path: Path, mic: str, pa: str, kept: Kept) -> None:
    """Keep `kept` for `mic` and `pa` in `path` (the others' kept as they are), atomically;
    EchoMemoryError when it cannot be read or written."""
    echoes = _read(path)
    echoes[_key(mic, pa)] = {"echo_db": round(kept.db, 2), "measured": kept.measured.isoformat()}
    text = json.dumps({"version": VERSION, "echoes": echoes}, ensure_ascii=False, indent=1)
    # Its own temporary file: two tables' runs on one laptop may keep theirs at once.
    temporary = path.with_name(f"{path.name}.{os.getpid()}.new")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary.write_text(text + "\n", encoding="utf-8")
        os.replace(temporary, path)
    except OSError as error:
        with suppress(OSError):  # no half-written file left beside it
            temporary.unlink()
        raise EchoMemoryError(N_("cannot keep the echo in {path}: {reason}"), path=path,
                              reason=reason(error)) from None


def _read(path: Path) -> dict[str, Any]:
    """Every echo kept in `path`, by devices; none if there is no file."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except OSError as error:
        raise EchoMemoryError(N_("cannot read the echoes kept in {path}: {reason}"), path=path,
                              reason=reason(error)) from None
    except (UnicodeDecodeError, json.JSONDecodeError):
        data = None
    if not isinstance(data, dict) or data.get("version") != VERSION \
            or not isinstance(data.get("echoes"), dict):
        raise EchoMemoryError(N_("{path} is not a file of kept echoes; delete it, the next "
                                 "session measures the echo again"), path=path)
    echoes: dict[str, Any] = data["echoes"]
    return echoes


def _key(mic: str, pa: str) -> str:
    """The devices' pair as the file names it."""
    return f"{mic} → {pa}"
