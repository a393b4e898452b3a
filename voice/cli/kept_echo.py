"""The PA's echo a `referee run` session starts knowing (kept by an earlier one, or by `referee
echo`) and keeps for the next as it learns it: a session killed keeps what it had learned."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from voice.hearing.echo_memory import EchoMemoryError, Kept, keep, recall
from voice.settings import echoes_path
from voice.translation import N_, Line

if TYPE_CHECKING:
    from voice.hearing.echo_level import EchoLevel

KEEP_EVERY_S = 60.0  # while a session runs, its echo is kept again at most this often ...
KEEP_MOVED_DB = 1.0  # ... once it has moved this much from the one it kept


def recalled(mic: str, pa: str, log: Callable[[str], None]) -> float | None:
    """The echo gain kept for these devices, said in the log; None (and why) if none is."""
    try:
        kept = recall(echoes_path(), mic, pa)
    except EchoMemoryError as error:
        log(Line(N_("{error}; the echo is measured afresh"), error=error).shown())
        return None
    if kept is None:
        log(Line(N_("the PA's echo in the microphone is not known yet for these devices: it is "
                    "measured as the PA speaks (`referee echo` measures it before the match)"))
            .shown())
        return None
    log(Line(N_("the PA's echo in the microphone: {db:.1f} dB, as measured {when} for these "
                "devices"), db=kept.db,
             when=kept.measured.astimezone().strftime("%Y-%m-%d %H:%M")).shown())
    return kept.gain


class EchoKeeper:
    """Keeps the echo a session learns for the next with these devices: once it is learned,
    again when it has moved by KEEP_MOVED_DB (at most every KEEP_EVERY_S), and at the end."""

    def __init__(self, level: EchoLevel, mic: str, pa: str, log: Callable[[str], None],
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.level, self.mic, self.pa, self.log, self.clock = level, mic, pa, log, clock
        self.kept: float | None = None  # the gain this session last kept
        self._at = -math.inf  # when it kept it (the clock's seconds)
        self._blocks = 0  # the level's blocks measured when it was last found kept enough
        self._failed = False  # keeping failed: tried again only at the end

    def watch(self) -> None:
        """Between chunks: keep the echo if it has just been learned, or has moved since."""
        if self.level.measured == self._blocks or self._failed:
            return
        gain = self.level.learned
        moved = gain is not None and (
            self.kept is None or abs(10 * math.log10(gain / self.kept)) >= KEEP_MOVED_DB)
        if gain is None or not moved:
            self._blocks = self.level.measured  # looked at: nothing to keep until it moves
        elif self.kept is None or self.clock() - self._at >= KEEP_EVERY_S:
            self._blocks = self.level.measured
            self._keep(gain)

    def close(self) -> None:
        """At the session's end: keep the echo as last learned, if it is not kept already."""
        gain = self.level.learned
        if gain is not None and gain != self.kept:
            self._keep(gain)

    def _keep(self, gain: float) -> None:
        kept = Kept(gain, datetime.now(UTC))
        self._at = self.clock()
        try:
            keep(echoes_path(), self.mic, self.pa, kept)
        except EchoMemoryError as error:
            self._failed = True
            self.log(Line(N_("{error}; the next session measures the echo afresh"),
                          error=error).shown())
            return
        self.kept = gain
        self.log(Line(N_("the PA's echo in the microphone, {db:.1f} dB, kept for the next "
                         "session"), db=kept.db).shown())
