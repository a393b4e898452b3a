"""What may reach the app: the Host names it answers to, control from its own pages only, and the
headers that keep its pages out of other sites' frames.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass

from fastapi import HTTPException, Request
from starlette.datastructures import Headers, MutableHeaders
from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket

from voice.translation import N_, gettext

LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
WILDCARDS = frozenset({"0.0.0.0", "::"})  # listening on every address of this machine
POLICY = (
    "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
HEADERS = {
    "Content-Security-Policy": POLICY,
    "X-Frame-Options": "DENY",  # frame-ancestors for browsers that predate it
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
WRONG_HOST = N_("this server answers only to its own names: open it by its address")
WRONG_ORIGIN = N_("control requests are taken only from this server's own pages")


@dataclass(frozen=True)
class Hosts:
    """The Host names the server answers to, and whether any IP address will do.

    Refusing other names defeats DNS rebinding: a page of another site whose name was made to
    resolve to this machine still sends that name as the Host. An address cannot be rebound, so
    a server listening on every address (`0.0.0.0`) takes any of them.
    """

    names: frozenset[str] = LOOPBACK_NAMES
    any_address: bool = False

    @classmethod
    def bound_to(cls, host: str, *extra: str) -> Hosts:
        """The loopback names, the `host` the server listens on and the `extra` names."""
        names = {name_of(name) for name in (host, *extra)}
        return cls(LOOPBACK_NAMES | names - WILDCARDS, any_address=bool(names & WILDCARDS))

    def allow(self, header: str) -> bool:
        """Whether a request with this Host header is for this server."""
        name = name_of(header)
        if name in self.names:
            return True
        if not self.any_address:
            return False
        try:
            ipaddress.ip_address(name)
        except ValueError:
            return False
        return True


def name_of(host: str) -> str:
    """The name in a Host header or a `--host` (no port, no brackets, lower case)."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:host.find("]")] if "]" in host else host[1:]
    if host.count(":") == 1:
        host = host.split(":")[0]
    return host.rstrip(".")


class HostGuard:
    """ASGI middleware: a request or WebSocket whose Host is not one of ours is refused."""

    def __init__(self, app: ASGIApp, hosts: Hosts) -> None:
        self.app = app
        self.hosts = hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket") and not self.hosts.allow(
            Headers(scope=scope).get("host", "")
        ):
            if scope["type"] == "http":
                await PlainTextResponse(gettext(WRONG_HOST), status_code=400)(scope, receive, send)
            else:
                await WebSocket(scope, receive, send).close(code=1008, reason=WRONG_HOST)
            return
        await self.app(scope, receive, send)


class SecurityHeaders:
    """ASGI middleware: every HTTP answer carries the content policy and no-framing headers."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in HEADERS.items():
                    headers.setdefault(name, value)
            await send(message)

        await self.app(scope, receive, send_with_headers if scope["type"] == "http" else send)


def same_origin(request: Request) -> None:
    """403 for a control request that a page of another site sent.

    Browsers send Origin with every POST; tools that send none (curl, the tests) still need
    the token when the server listens beyond this machine.
    """
    origin = request.headers.get("origin")
    own = f"{request.url.scheme}://{request.headers.get('host', '')}"
    if origin is not None and origin.lower() != own.lower():
        raise HTTPException(403, gettext(WRONG_ORIGIN))
