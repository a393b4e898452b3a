"""What the live clock times and since when: a warm-up, a break or a shot (rules.shot_clock)."""

from __future__ import annotations

from collections.abc import Callable

from rules.command import Command, Kind
from rules.shot_clock import timed
from rules.state import Match


class Stopwatch:
    """Follows what the rules time in a match and gives the seconds since it began.

    A warm-up or a break began when the record says (`recorded`, None while it cannot tell);
    a shot when it is first seen, which follows the recorded event that started it.
    """

    def __init__(self) -> None:
        self.key: tuple[str, int] | None = None
        self.since: float | None = None

    def follow(
        self, match: Match, now: float, recorded: Callable[[], float | None] | None = None
    ) -> bool:
        """Note what runs in `match` at `now` (without `recorded`, all began when first seen);
        True when it is new."""
        key = timed(match)
        new = key != self.key
        self.key = key
        if key is None:
            self.since = None
        elif new or self.since is None:
            self.since = now if key[0] == "shot" or recorded is None else recorded()
        return new

    def tick(self, now: float) -> Command | None:
        """The clock's TICK at `now` (a shot's names the shot); None when nothing is timed."""
        if self.since is None or self.key is None:
            return None
        shot = self.key[1] if self.key[0] == "shot" else None
        return Command(Kind.TICK, seconds=max(0.0, now - self.since), shot=shot)
