"""The web app: the public scoreboard, the referee's control panel, and their JSON API."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager, suppress
from dataclasses import asdict
from importlib.resources import files
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import quote

import fastapi
from fastapi import Depends, FastAPI, HTTPException, Request, WebSocket
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from fastapi.staticfiles import StaticFiles
from starlette.middleware.body_limit import RequestBodyLimitMiddleware

from rules.errors import RefereeError
from voice.match_record.database import MAX_MATCH_ID, NoSuchMatch, RecordError
from voice.scoreboard.body_limit import MAX_BODY, DrainAfterAnswer
from voice.scoreboard.break_clock import keep_time
from voice.scoreboard.guard import HostGuard, Hosts, SecurityHeaders, same_origin
from voice.scoreboard.push import GONE, Watcher
from voice.scoreboard.qr import qr_svg
from voice.scoreboard.record_worker import Desk, Taken
from voice.scoreboard.schema import (
    Board,
    CommandIn,
    CorrectionIn,
    EventOut,
    Panel,
    PhraseIn,
    Problem,
    Reply,
)
from voice.scoreboard.strict_json import StrictJsonRoute
from voice.scoreboard.throttle import Limits, Throttle
from voice.scoreboard.view import server_time
from voice.translation import fault, gettext

MatchId = Annotated[int, fastapi.Path(ge=1, le=MAX_MATCH_ID, description="the match number")]
Credentials = Annotated[
    HTTPAuthorizationCredentials | None,
    Depends(HTTPBearer(auto_error=False, description="the --token given to `referee serve`")),
]
PAGES = ("board", "referee", "overview")
WEB = files("voice.scoreboard").joinpath("web")


def create_app(
    db: Path, token: str | None = None, hosts: Hosts | None = None, limits: Limits | None = None
) -> FastAPI:
    """The app over the match record `db`, which it opens at startup and closes at shutdown.

    With `token`, every control request must carry `Authorization: Bearer <token>`. Requests
    must name one of `hosts` (the loopback names unless given) and keep within `limits`.
    """
    desk = Desk(db)
    watcher = Watcher(desk)
    throttle = Throttle(limits or Limits())

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        desk.open()
        polling = asyncio.create_task(watcher.run())
        timing = asyncio.create_task(keep_time(desk))
        try:
            yield
        finally:
            for task in (polling, timing):
                task.cancel()
                with suppress(asyncio.CancelledError):
                    await task
            desk.close()

    app = FastAPI(
        title="carom-referee scoreboard",
        description="The hall scoreboard and the referee's control panel over the match record.",
        lifespan=lifespan,
        docs_url=None,  # FastAPI's documentation pages load their scripts from the internet
        redoc_url=None,
    )
    app.router.route_class = StrictJsonRoute
    # Content-Length checked before reading, streamed bodies counted. A middleware, not FastAPI's
    # max_body_size (which runs outside them all), so that the rest is drained after its 413.
    app.add_middleware(RequestBodyLimitMiddleware, max_body_size=MAX_BODY)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(HostGuard, hosts=hosts or Hosts())
    app.add_middleware(DrainAfterAnswer)  # added last: it runs first
    app.mount("/static", StaticFiles(packages=[("voice.scoreboard", "web")]), name="static")
    app.add_exception_handler(NoSuchMatch, _missing)
    app.add_exception_handler(RecordError, _error(503))
    authorised = [Depends(_authorise(token, throttle))] if token else []
    control = [Depends(same_origin), *authorised]
    refused = _REFUSED if token else _BODY
    read = [Depends(_counted(throttle))]
    pages = {name: WEB.joinpath(f"{name}.html").read_text(encoding="utf-8") for name in PAGES}

    async def page(name: str, match: int) -> fastapi.Response:
        try:
            await desk.board(match)  # loads the match's view for the page's feed
        except NoSuchMatch as error:
            return PlainTextResponse(_no_match(error), status_code=404)
        return HTMLResponse(pages[name])

    @app.get("/", include_in_schema=False, dependencies=read)
    async def overview_page() -> fastapi.Response:
        return HTMLResponse(pages["overview"])

    @app.get("/board/{match}", include_in_schema=False, dependencies=read)
    async def board_page(match: MatchId) -> fastapi.Response:
        return await page("board", match)

    @app.get("/referee/{match}", include_in_schema=False, dependencies=read)
    async def referee_page(match: MatchId) -> fastapi.Response:
        return await page("referee", match)

    @app.get("/api/matches", response_model=list[Board], responses=_READ, dependencies=read)
    async def listed() -> fastapi.Response:
        """The scoreboard state of every match the record holds and can replay, oldest first."""
        now, boards = server_time(), []
        for match in await desk.match_ids():
            with suppress(RecordError):  # its own board says why it cannot be shown
                boards.append((await desk.board(match)).text(now))
        return fastapi.Response(f"[{','.join(boards)}]", media_type="application/json")

    @app.get(
        "/api/panels", response_model=list[Panel], dependencies=authorised or read,
        responses=_LOCKED if token else _READ,
    )
    async def panels(request: Request) -> list[dict[str, Any]]:
        """Each match's control panel: its link, carrying the token, and the link as a QR code."""
        carried = f"#token={quote(token, safe='')}" if token else ""
        links = [
            (match, f"{request.base_url}referee/{match}{carried}")
            for match in await desk.match_ids()
        ]
        return [{"match": match, "url": url, "qr": qr_svg(url)} for match, url in links]

    @app.get("/api/matches/{match}", response_model=Board, responses=_MISSING, dependencies=read)
    async def state(match: MatchId) -> fastapi.Response:
        """The scoreboard state of the match."""
        shown = await desk.board(match)
        return fastapi.Response(shown.text(server_time()), media_type="application/json")

    @app.get(
        "/api/matches/{match}/events", response_model=list[EventOut], responses=_MISSING,
        response_model_exclude_none=True, dependencies=read,
    )
    async def events(match: MatchId) -> list[dict[str, Any]]:
        """Every recorded event of the match, oldest first."""
        return [
            {**asdict(e), "command": e.command.to_dict()} for e in await desk.events(match)
        ]

    @app.post(
        "/api/matches/{match}/commands", response_model=Reply, dependencies=control,
        responses=refused,
    )
    async def command(match: MatchId, body: CommandIn) -> dict[str, Any]:
        """Give a command, as the voice loop does when it recognises the phrase that says it.

        A command the rules refuse is answered with the refusal and records nothing.
        """
        return _taken(await desk.command(match, body.command()))

    @app.post(
        "/api/matches/{match}/phrases", response_model=Reply, dependencies=control,
        responses=refused,
    )
    async def phrase(match: MatchId, body: PhraseIn) -> dict[str, Any]:
        """Say a phrase, as the recogniser would transcribe it («πόντος», «διόρθωση» …)."""
        return _taken(await desk.hear(match, body.text))

    @app.post(
        "/api/matches/{match}/corrections", response_model=Reply, dependencies=control,
        responses=refused,
    )
    async def correction(match: MatchId, body: CorrectionIn) -> dict[str, Any]:
        """Correct a past inning's points, or insert a forgotten round (the protocol editor).

        A correction the rules refuse is answered with the refusal and records nothing.
        """
        return _taken(await desk.command(match, body.command()))

    @app.get(
        "/api/matches/{match}/protocol.pdf", responses={**_MISSING, 200: _PDF},
        response_class=fastapi.Response, dependencies=read,
    )
    async def protocol(match: MatchId) -> fastapi.Response:
        """The printable match protocol (A4, PDF)."""
        pdf = await desk.protocol(match)
        disposition = f'inline; filename="protocol-{match}.pdf"'
        return fastapi.Response(
            pdf, media_type="application/pdf", headers={"Content-Disposition": disposition}
        )

    @app.websocket("/ws/matches/{match}")
    async def feed(socket: WebSocket, match: MatchId) -> None:
        if throttle.read(_address(socket)) is not None:
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

    return app


_READ: dict[int | str, dict[str, Any]] = {
    429: {"model": Problem, "description": "too many requests from this address (Retry-After)"},
    503: {"model": Problem, "description": "the match record cannot be read"},
}
_PDF: dict[str, Any] = {
    "description": "the protocol", "content": {"application/pdf": {"schema": {"type": "string"}}}
}
_MISSING: dict[int | str, dict[str, Any]] = {
    **_READ,
    404: {"model": Problem, "description": "no such match"},
}
_BODY: dict[int | str, dict[str, Any]] = {
    **_MISSING,
    400: {"model": Problem, "description": "the body is not JSON"},
    403: {"model": Problem, "description": "sent by a page of another site (Origin)"},
    413: {"model": Problem, "description": f"the body is over {MAX_BODY // 1024} KiB"},
}
_LOCKED: dict[int | str, dict[str, Any]] = {
    **_READ,
    401: {"model": Problem, "description": "the token is missing or wrong"},
}
_REFUSED: dict[int | str, dict[str, Any]] = {**_BODY, **_LOCKED}


async def _push(socket: WebSocket, queue: asyncio.Queue[str]) -> None:
    """Send each board the queue gets; close the socket once the record's file is gone (the
    board shows its link down and retries until the record is back)."""
    while (text := await queue.get()) != GONE:
        await socket.send_text(text)
    await socket.close(code=1011, reason="the match record cannot be read")


def _taken(taken: Taken) -> dict[str, Any]:
    recorded, said = taken
    return {"recorded": recorded, "utterances": [asdict(u) for u in said]}


def _no_match(error: NoSuchMatch) -> str:
    """The HTTP answer's words for a match number the record does not hold."""
    return gettext("there is no match {match} in this record").format(match=error.match_id)


async def _missing(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, NoSuchMatch)
    return JSONResponse({"detail": _no_match(error)}, status_code=404)


def _error(status: int) -> Callable[[Request, Exception], Awaitable[JSONResponse]]:
    async def handler(request: Request, error: Exception) -> JSONResponse:
        assert isinstance(error, RefereeError)
        return JSONResponse({"detail": fault(error) or str(error)}, status_code=status)

    return handler


def _address(connection: Request | WebSocket) -> str:
    """The client's address, which the rate limits count by."""
    return connection.client.host if connection.client else ""


def _too_many(what: str, wait: float) -> HTTPException:
    return HTTPException(
        429, f"too many {what} from this address: try again in {wait:.0f} s",
        headers={"Retry-After": f"{wait:.0f}"},
    )


def _counted(throttle: Throttle) -> Callable[[Request], None]:
    def count(request: Request) -> None:
        wait = throttle.read(_address(request))
        if wait is not None:
            raise _too_many("requests", wait)

    return count


def _authorise(token: str, throttle: Throttle) -> Callable[[Request, Credentials], None]:
    expected = token.encode()

    def authorise(request: Request, credentials: Credentials) -> None:
        address = _address(request)
        wait = throttle.locked(address)
        if wait is not None:  # the right token too: a guesser learns nothing while locked out
            raise _too_many("wrong tokens", wait)
        given = b"" if credentials is None else credentials.credentials.encode()
        if not secrets.compare_digest(given, expected):
            throttle.wrong_token(address)
            raise HTTPException(
                401, "control needs the referee's token: Authorization: Bearer <token>",
                headers={"WWW-Authenticate": "Bearer"},
            )

    return authorise
