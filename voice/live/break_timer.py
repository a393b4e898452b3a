"""The live loop's clock of a break or a warm-up (Article 5): the seconds since its recorded
start, fed to the rules as TICKs."""

from __future__ import annotations

from collections.abc import Callable

from rules.command import TICK_SECONDS, Command, Kind
from voice.match_record.ledger import LiveLedger


class BreakTimer:
    """Times the break or warm-up on, from its start as the record gives it."""

    def __init__(self, ledger: LiveLedger, clock: Callable[[], float]) -> None:
        self.ledger = ledger
        self.clock = clock  # POSIX seconds: the break is timed from its recorded start
        self._started: float | None = None  # POSIX seconds, from the record
        self._last_tick = 0.0

    def tick(self) -> Command | None:
        """The TICK due now, with the seconds since the start; None when none is."""
        if self.ledger.match.pause is None and self.ledger.match.warm_up is None:
            self._started = None  # the clock runs for a break or a warm-up
            return None
        now = self.clock()
        if self._started is None:
            self._started = self.ledger.break_started()
            self._last_tick = now - TICK_SECONDS
        if now - self._last_tick < TICK_SECONDS or self._started is None:
            return None
        self._last_tick = now
        return Command(Kind.TICK, seconds=max(0.0, now - self._started))
