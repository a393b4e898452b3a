"""The live loop's clock of a warm-up, a break (Article 5) or a shot (rules.shot_clock): the
seconds it has run, fed to the rules as TICKs."""

from __future__ import annotations

from collections.abc import Callable

from rules.command import TICK_SECONDS, Command
from voice.live.stopwatch import Stopwatch
from voice.match_record.ledger import LiveLedger


class Ticker:
    """Times what the rules time in the match on: a warm-up or a break from its start as the
    record gives it, a shot from when it is first seen."""

    def __init__(self, ledger: LiveLedger, clock: Callable[[], float]) -> None:
        self.ledger = ledger
        self.clock = clock  # POSIX seconds: a break is timed from its recorded start
        self._stopwatch = Stopwatch()  # the warm-up, break or shot being timed
        self._last_tick = 0.0

    def tick(self) -> Command | None:
        """The TICK due now, with the seconds it has run; None when none is. RecordError when
        the record cannot say when a break began."""
        now = self.clock()
        if self._stopwatch.follow(self.ledger.match, now, self.ledger.break_started):
            self._last_tick = now - TICK_SECONDS  # a new one: its first tick at once
        tick = self._stopwatch.tick(now)
        if tick is None or now - self._last_tick < TICK_SECONDS:
            return None
        self._last_tick = now
        return tick
