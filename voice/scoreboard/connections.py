"""What one client may hold: a request's line and headers must come within a time limit (else
a client sending a few bytes now and then holds a connection for ever), and one address holds
a bounded number of connections at once, HTTP and WebSocket alike.

uvicorn has neither (its keep-alive timeout stops at the first byte, `limit_concurrency` counts
all addresses together): these are its own h11 and WebSocket protocols, with the two added.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import dataclass

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from voice.scoreboard.throttle import this_machine
from voice.translation import N_, gettext

HEADER_SECONDS = 10.0  # from connecting, or from the previous answer, to a request's last header
PER_ADDRESS = 32  # connections at once from one address: a board holds one, a browser six
TOO_MANY = N_("too many connections from this address: close some and try again")


def refusal() -> bytes:
    """The 503 a connection over the limit gets, in the language in use."""
    text = gettext(TOO_MANY).encode()
    return (b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
            b"Connection: close\r\nContent-Length: %d\r\n\r\n%s" % (len(text), text))



@dataclass(frozen=True)
class ConnectionLimits:
    """What one client may hold. This machine's own clients (the benchmarks, a browser on it)
    are not counted unless `count_loopback`, as the rate limits do not count them."""

    header_seconds: float = HEADER_SECONDS
    per_address: int = PER_ADDRESS
    count_loopback: bool = False


class Held:
    """How many connections each counted address holds now."""

    def __init__(self, limits: ConnectionLimits) -> None:
        self.limits = limits
        self.count: Counter[str] = Counter()

    def admit(self, client: tuple[str, int] | None) -> bool:
        """Count a new connection from `client`; False, counting nothing, if it holds its share."""
        if not self._counted(client):
            return True
        assert client is not None
        if self.count[client[0]] >= self.limits.per_address:
            return False
        self.count[client[0]] += 1
        return True

    def release(self, client: tuple[str, int] | None) -> None:
        """A connection that `admit` let in has closed."""
        if self._counted(client):
            assert client is not None
            self.count[client[0]] -= 1
            if not self.count[client[0]]:
                del self.count[client[0]]

    def _counted(self, client: tuple[str, int] | None) -> bool:
        return client is not None and (self.limits.count_loopback or not this_machine(client[0]))


def protocols(
    limits: ConnectionLimits = ConnectionLimits(),
) -> tuple[type[H11Protocol], type[WebSocketsSansIOProtocol]]:
    """uvicorn's HTTP and WebSocket protocol classes for one server, within `limits`:
    `http, ws = protocols(); uvicorn.Config(app, http=http, ws=ws)`."""
    held = Held(limits)

    class Http(H11Protocol):
        """uvicorn's h11 protocol, with the header time limit and the count per address."""

        admitted = False  # counted in `held`, until closed or handed to the WebSocket protocol
        waiting: asyncio.TimerHandle | None = None  # for a request's headers

        def connection_made(  # type: ignore[override]  # narrowed as uvicorn narrows it
            self, transport: asyncio.Transport
        ) -> None:
            super().connection_made(transport)
            self.admitted = held.admit(self.client)
            if not self.admitted:
                transport.write(refusal())
                transport.close()
                return
            self.waiting = self.loop.call_later(limits.header_seconds, self.too_slow)

        def handle_events(self) -> None:
            super().handle_events()
            if self.conn.their_state is not h11.IDLE:  # the headers have come
                self.stop_waiting()
            elif self.waiting is None and not self.transport.is_closing():  # a new request
                self.waiting = self.loop.call_later(limits.header_seconds, self.too_slow)

        def handle_websocket_upgrade(self, event: h11.Request) -> None:
            self.admitted = False  # still counted: `Feed` releases it when it closes
            super().handle_websocket_upgrade(event)

        def connection_lost(self, exc: Exception | None) -> None:
            super().connection_lost(exc)
            self.stop_waiting()
            if self.admitted:
                held.release(self.client)

        def too_slow(self) -> None:
            self.waiting = None
            self.timeout_keep_alive_handler()  # uvicorn's own way of closing an idle connection

        def stop_waiting(self) -> None:
            if self.waiting is not None:
                self.waiting.cancel()
                self.waiting = None

    class Feed(WebSocketsSansIOProtocol):
        """uvicorn's WebSocket protocol, releasing the count `Http` took when it upgraded."""

        def connection_lost(self, exc: Exception | None) -> None:
            super().connection_lost(exc)
            held.release(self.client)

    return Http, Feed
