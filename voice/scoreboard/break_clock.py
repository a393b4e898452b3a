"""The break clock of `serve`: a match shown on a break gets its one-minute warning and its end
on time, counted from the break's recorded start, with or without a voice loop running."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from datetime import datetime

from rules.command import TICK_SECONDS, Command, Kind
from voice.match_record.database import RecordError
from voice.scoreboard.record_worker import Desk

log = logging.getLogger("referee.serve")


async def keep_time(
    desk: Desk, interval: float = TICK_SECONDS, clock: Callable[[], float] = time.time
) -> None:
    """Until cancelled: tick the clock of each match shown whose break is on.

    A tick that changes nothing is not recorded, so this and a voice loop timing the same
    break from the same recorded start never warn or end it twice.
    """
    while True:
        await asyncio.sleep(interval)
        for match_id in list(await desk.newest()):
            view = desk.shown(match_id)
            started = None if view is None else view.state.get("break_started")
            if started is None:
                continue
            seconds = max(0.0, clock() - datetime.fromisoformat(started).timestamp())
            try:
                await desk.command(match_id, Command(Kind.TICK, seconds=seconds))
            except RecordError as error:
                log.warning("cannot time the break of match %s: %s", match_id, error)
