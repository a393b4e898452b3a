"""The live feed: a match's board pushed over a WebSocket at each change."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, WebSocket

from voice.match_record.database import NoSuchMatch, RecordError
from voice.scoreboard.push import GONE
from voice.scoreboard.routes.shared import DeskIn, MatchId, ThrottleIn, WatcherIn, address
from voice.scoreboard.view import server_time

router = APIRouter()


@router.websocket("/ws/matches/{match}")
async def feed(
    socket: WebSocket, match: MatchId, desk: DeskIn, watcher: WatcherIn, throttle: ThrottleIn
) -> None:
    if throttle.read(address(socket)) is not None:
        await socket.close(code=1013, reason="too many connections from this address")
        return
    try:
        await desk.board(match)
    except NoSuchMatch:
        await socket.close(code=4404, reason="no such match")
        return
    except RecordError:
        await socket.close(code=1011, reason="the match record cannot be read")
        return
    await socket.accept()
    shown = await desk.board(match)  # loaded: nothing is awaited before it is watched
    with watcher.watch(match, shown.seq) as queue:
        await socket.send_text(shown.text(server_time()))
        pushing = asyncio.create_task(_push(socket, queue))
        try:
            while (await socket.receive())["type"] != "websocket.disconnect":
                pass
        finally:
            pushing.cancel()


async def _push(socket: WebSocket, queue: asyncio.Queue[str]) -> None:
    """Send each board the queue gets; close the socket once the record's file is gone (the
    board shows its link down and retries until the record is back)."""
    while (text := await queue.get()) != GONE:
        await socket.send_text(text)
    await socket.close(code=1011, reason="the match record cannot be read")
