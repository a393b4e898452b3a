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

import fastapi
from fastapi import Depends, FastAPI, HTTPException, Request, WebSocket
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from fastapi.staticfiles import StaticFiles

from voice.match_record.database import MAX_MATCH_ID, NoSuchMatch, RecordError
from voice.scoreboard.push import State, Watcher
from voice.scoreboard.record_worker import Desk, Taken
from voice.scoreboard.schema import Board, CommandIn, EventOut, PhraseIn, Problem, Reply

MatchId = Annotated[int, fastapi.Path(ge=1, le=MAX_MATCH_ID, description="the match number")]
Credentials = Annotated[
    HTTPAuthorizationCredentials | None,
    Depends(HTTPBearer(auto_error=False, description="the --token given to `referee serve`")),
]
PAGES = ("board", "referee")
WEB = files("voice.scoreboard").joinpath("web")


def create_app(db: Path, token: str | None = None) -> FastAPI:
    """The app over the match record `db`, which it opens at startup and closes at shutdown.

    With `token`, every control request must carry `Authorization: Bearer <token>`.
    """
    desk = Desk(db)
    watcher = Watcher(desk)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        desk.open()
        polling = asyncio.create_task(watcher.run())
        try:
            yield
        finally:
            polling.cancel()
            with suppress(asyncio.CancelledError):
                await polling
            desk.close()

    app = FastAPI(
        title="carom-referee scoreboard",
        description="The hall scoreboard and the referee's control panel over the match record.",
        lifespan=lifespan,
        docs_url=None,  # FastAPI's documentation pages load their scripts from the internet
        redoc_url=None,
    )
    app.mount("/static", StaticFiles(packages=[("voice.scoreboard", "web")]), name="static")
    app.add_exception_handler(NoSuchMatch, _missing)
    app.add_exception_handler(RecordError, _error(503))
    control = [Depends(_authorise(token))] if token else []
    refused = _REFUSED if token else _BODY
    pages = {name: WEB.joinpath(f"{name}.html").read_text(encoding="utf-8") for name in PAGES}

    async def page(name: str, match: int) -> fastapi.Response:
        try:
            await desk.events(match)
        except NoSuchMatch as error:
            return PlainTextResponse(_no_match(error), status_code=404)
        return HTMLResponse(pages[name])

    @app.get("/board/{match}", include_in_schema=False)
    async def board_page(match: MatchId) -> fastapi.Response:
        return await page("board", match)

    @app.get("/referee/{match}", include_in_schema=False)
    async def referee_page(match: MatchId) -> fastapi.Response:
        return await page("referee", match)

    @app.get("/api/matches/{match}", response_model=Board, responses=_MISSING)
    async def state(match: MatchId) -> State:
        """The scoreboard state of the match."""
        return await desk.state(match)

    @app.get(
        "/api/matches/{match}/events", response_model=list[EventOut], responses=_MISSING,
        response_model_exclude_none=True,
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

    @app.websocket("/ws/matches/{match}")
    async def feed(socket: WebSocket, match: MatchId) -> None:
        try:
            shown = await desk.state(match)
        except NoSuchMatch:
            await socket.close(code=4404, reason="no such match")
            return
        except RecordError:
            await socket.close(code=1011, reason="the match record cannot be read")
            return
        await socket.accept()
        await socket.send_json(shown)
        with watcher.watch(match, shown["seq"]) as queue:
            pushing = asyncio.create_task(_push(socket, queue))
            try:
                while (await socket.receive())["type"] != "websocket.disconnect":
                    pass
            finally:
                pushing.cancel()

    return app


_MISSING: dict[int | str, dict[str, Any]] = {
    404: {"model": Problem, "description": "no such match"},
    503: {"model": Problem, "description": "the match record cannot be read"},
}
_BODY: dict[int | str, dict[str, Any]] = {
    **_MISSING,
    400: {"model": Problem, "description": "the body is not JSON"},
}
_REFUSED: dict[int | str, dict[str, Any]] = {
    **_BODY,
    401: {"model": Problem, "description": "the token is missing or wrong"},
}


async def _push(socket: WebSocket, queue: asyncio.Queue[State]) -> None:
    while True:
        await socket.send_json(await queue.get())


def _taken(taken: Taken) -> dict[str, Any]:
    recorded, said = taken
    return {"recorded": recorded, "utterances": [asdict(u) for u in said]}


def _no_match(error: NoSuchMatch) -> str:
    """The HTTP answer's words for a match number the record does not hold."""
    return f"there is no match {error.match_id} in this record"


async def _missing(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, NoSuchMatch)
    return JSONResponse({"detail": _no_match(error)}, status_code=404)


def _error(status: int) -> Callable[[Request, Exception], Awaitable[JSONResponse]]:
    async def handler(request: Request, error: Exception) -> JSONResponse:
        return JSONResponse({"detail": str(error)}, status_code=status)

    return handler


def _authorise(token: str) -> Callable[[Credentials], None]:
    expected = token.encode()

    def authorise(credentials: Credentials) -> None:
        given = b"" if credentials is None else credentials.credentials.encode()
        if not secrets.compare_digest(given, expected):
            raise HTTPException(
                401, "control needs the referee's token: Authorization: Bearer <token>",
                headers={"WWW-Authenticate": "Bearer"},
            )

    return authorise
