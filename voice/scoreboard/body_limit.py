"""Bodies over the limit are a 413 that clients can read: the connection is closed only once
what is still coming was read and dropped (up to a bound), since a client that sends its whole
body before it reads (Python's urllib) sees a reset, not the answer, if it closes on unread bytes.
"""

from __future__ import annotations

import asyncio
import json
from contextlib import suppress

from starlette.datastructures import Headers, MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from voice.translation import N_, gettext

MAX_BODY = 64 * 1024  # bytes: a command is a few dozen; a larger body is a 413
# Read and dropped after an early answer: more than the socket buffers of loopback and a LAN
# hold, so that a client sending up to this much reads the 413; beyond, the connection closes.
DRAIN_BYTES = 16 * 1024 * 1024
DRAIN_SECONDS = 10.0  # and for no longer: a body sent slowly does not hold the connection
TOO_LARGE = N_("the body is over {limit} KiB: a command takes a few dozen bytes")


class TooLarge:
    """ASGI middleware: a 413, from whichever layer (Starlette's plain "Content Too Large" or its
    JSON), says in the hall's language what is wrong, as the API's other refusals: {"detail"}."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        refused = False

        async def send_ours(message: Message) -> None:
            nonlocal refused
            if message["type"] == "http.response.start" and message["status"] == 413:
                refused = True
                text = gettext(TOO_LARGE).format(limit=MAX_BODY // 1024)
                body = json.dumps({"detail": text}, ensure_ascii=False).encode()
                kept = [(name, value) for name, value in message.get("headers", [])
                        if name.lower() not in (b"content-type", b"content-length")]
                await send({**message, "headers": [
                    *kept, (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode())]})
                await send({"type": "http.response.body", "body": body, "more_body": False})
            elif not refused:
                await send(message)

        await self.app(scope, receive, send_ours)


class DrainAfterAnswer:
    """ASGI middleware: an answer that starts before the request's body has all come is sent at
    once, closing the connection, but the close waits until the rest is read and dropped (or a
    bound is reached): clients that read early have the answer, those that send first can."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        ended = "transfer-encoding" not in headers and headers.get("content-length", "0") == "0"
        early = False

        async def receive_noting_the_end() -> Message:
            nonlocal ended
            message = await receive()
            ended = ended or not message.get("more_body", False)
            return message

        async def send_then_drain(message: Message) -> None:
            nonlocal early
            if message["type"] == "http.response.start" and not ended:
                early = True
                MutableHeaders(scope=message)["connection"] = "close"
            elif early and not message.get("more_body", False):  # the answer's last bytes
                await send({**message, "more_body": True})
                await _drain(receive)
                message = {"type": "http.response.body", "body": b"", "more_body": False}
            await send(message)

        await self.app(scope, receive_noting_the_end, send_then_drain)


async def _drain(receive: Receive) -> None:
    """Read and drop the rest of the body, within the bounds."""
    left = DRAIN_BYTES
    with suppress(TimeoutError):
        async with asyncio.timeout(DRAIN_SECONDS):
            while left >= 0:
                message = await receive()
                if not message.get("more_body", False):  # the end, or a disconnect
                    return
                left -= len(message.get("body", b""))
