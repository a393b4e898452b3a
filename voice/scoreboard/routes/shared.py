"""What the routers share: the desk and the limits by dependency, path types, documented answers."""

from __future__ import annotations

import secrets
from typing import Annotated, Any

import fastapi
from fastapi import Depends, HTTPException, Request, WebSocket
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from starlette.requests import HTTPConnection

from voice.match_record.database import MAX_MATCH_ID, NoSuchMatch
from voice.scoreboard.body_limit import MAX_BODY
from voice.scoreboard.push import Watcher
from voice.scoreboard.record_worker import Desk
from voice.scoreboard.schema import Problem
from voice.scoreboard.throttle import Throttle
from voice.translation import N_, gettext

MatchId = Annotated[int, fastapi.Path(ge=1, le=MAX_MATCH_ID, description="the match number")]
Credentials = Annotated[
    HTTPAuthorizationCredentials | None,
    Depends(HTTPBearer(auto_error=False, description="the --token given to `referee serve`")),
]


def _desk(connection: HTTPConnection) -> Desk:
    desk: Desk = connection.app.state.desk
    return desk


def _watcher(connection: HTTPConnection) -> Watcher:
    watcher: Watcher = connection.app.state.watcher
    return watcher


def _throttle(connection: HTTPConnection) -> Throttle:
    throttle: Throttle = connection.app.state.throttle
    return throttle


def _token(connection: HTTPConnection) -> str | None:
    token: str | None = connection.app.state.token
    return token


# The app's services, which create_app keeps in app.state, as route parameters.
DeskIn = Annotated[Desk, Depends(_desk)]
WatcherIn = Annotated[Watcher, Depends(_watcher)]
ThrottleIn = Annotated[Throttle, Depends(_throttle)]
TokenIn = Annotated[str | None, Depends(_token)]

READ: dict[int | str, dict[str, Any]] = {
    429: {"model": Problem, "description": "too many requests from this address (Retry-After)"},
    503: {"model": Problem, "description": "the match record cannot be read"},
}
MISSING: dict[int | str, dict[str, Any]] = {
    **READ,
    404: {"model": Problem, "description": "no such match"},
}
BODY: dict[int | str, dict[str, Any]] = {
    **MISSING,
    400: {"model": Problem, "description": "the body is not JSON"},
    403: {"model": Problem, "description": "sent by a page of another site (Origin)"},
    413: {"model": Problem, "description": f"the body is over {MAX_BODY // 1024} KiB"},
}
LOCKED: dict[int | str, dict[str, Any]] = {
    **READ,
    401: {"model": Problem, "description": "the token is missing or wrong"},
}
REFUSED: dict[int | str, dict[str, Any]] = {**BODY, **LOCKED}


def no_match(error: NoSuchMatch) -> str:
    """The HTTP answer's words for a match number the record does not hold."""
    return gettext("there is no match {match} in this record").format(match=error.match_id)


def address(connection: Request | WebSocket) -> str:
    """The client's address, which the rate limits count by."""
    return connection.client.host if connection.client else ""


def _too_many(message: str, wait: float) -> HTTPException:
    return HTTPException(
        429, gettext(message).format(wait=f"{wait:.0f}"),
        headers={"Retry-After": f"{wait:.0f}"},
    )


def counted(request: Request, throttle: ThrottleIn) -> None:
    """A read, counted against the address's rate limit; 429 over it."""
    wait = throttle.read(address(request))
    if wait is not None:
        raise _too_many(N_("too many requests from this address: try again in {wait} s"), wait)


def authorise(
    request: Request, credentials: Credentials, throttle: ThrottleIn, token: TokenIn
) -> None:
    """The referee's token, checked in constant time; 401 without it, 429 while locked out."""
    assert token is not None  # only a router built with a token depends on this
    where = address(request)
    wait = throttle.locked(where)
    if wait is not None:  # the right token too: a guesser learns nothing while locked out
        raise _too_many(
            N_("too many wrong tokens from this address: try again in {wait} s"), wait)
    given = b"" if credentials is None else credentials.credentials.encode()
    if not secrets.compare_digest(given, token.encode()):
        throttle.wrong_token(where)
        raise HTTPException(
            401, gettext("control needs the referee's token: Authorization: Bearer <token>"),
            headers={"WWW-Authenticate": "Bearer"},
        )


READ_DEPENDENCIES = [Depends(counted)]
AUTHORISED = [Depends(authorise)]
