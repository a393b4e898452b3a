"""The web app: the public scoreboard, the referee's control panel, and their JSON API."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager, suppress
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.middleware.body_limit import RequestBodyLimitMiddleware

from rules.errors import RefereeError
from voice.match_record.database import NoSuchMatch, RecordError
from voice.scoreboard.body_limit import MAX_BODY, DrainAfterAnswer, TooLarge
from voice.scoreboard.break_clock import keep_time
from voice.scoreboard.guard import HostGuard, Hosts, SecurityHeaders
from voice.scoreboard.push import Watcher
from voice.scoreboard.record_worker import Desk
from voice.scoreboard.routes import api, control, feed, pages
from voice.scoreboard.routes.shared import no_match
from voice.scoreboard.strict_json import StrictJsonRoute
from voice.scoreboard.throttle import Limits, Throttle
from voice.translation import fault

__all__ = ["MAX_BODY", "create_app"]


def create_app(
    db: Path | str, token: str | None = None, hosts: Hosts | None = None,
    limits: Limits | None = None,
) -> FastAPI:
    """The app over the match record `db`, which it opens at startup and closes at shutdown;
    over the hall's PostgreSQL when `db` is its connection string (text): read-only, every
    table's matches, no control (each table controls its own).

    With `token`, every control request must carry `Authorization: Bearer <token>`. Requests
    must name one of `hosts` (the loopback names unless given) and keep within `limits`.
    """
    desk: Desk
    if isinstance(db, str):
        from voice.scoreboard.hall import HallDesk, HallWatcher

        desk = HallDesk(db)
        watcher: Watcher = HallWatcher(desk)
    else:
        desk = Desk(db)
        watcher = Watcher(desk)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        desk.open()
        tasks = [asyncio.create_task(watcher.run())]
        if desk.controlled:  # the hall's tables time their own breaks
            tasks.append(asyncio.create_task(keep_time(desk)))
        try:
            yield
        finally:
            for task in tasks:
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
    # What the routes are given by dependency (voice/scoreboard/routes/shared.py).
    app.state.desk, app.state.watcher, app.state.token = desk, watcher, token
    app.state.throttle = Throttle(limits or Limits())
    app.router.route_class = StrictJsonRoute
    # Content-Length checked before reading, streamed bodies counted. A middleware, not FastAPI's
    # max_body_size (which runs outside them all), so that the rest is drained after its 413.
    app.add_middleware(RequestBodyLimitMiddleware, max_body_size=MAX_BODY)
    app.add_middleware(TooLarge)  # its 413 in the hall's language
    app.add_middleware(SecurityHeaders)
    app.add_middleware(HostGuard, hosts=hosts or Hosts())
    app.add_middleware(DrainAfterAnswer)  # added last: it runs first
    app.mount("/static", StaticFiles(packages=[("voice.scoreboard", "web")]), name="static")
    app.add_exception_handler(NoSuchMatch, _missing)
    app.add_exception_handler(RecordError, _error(503))
    locked = bool(token)
    routers = [pages.router, api.router(locked, desk.controlled), api.documents, feed.router]
    if desk.controlled:
        routers.append(control.router(locked))
    for router in routers:
        app.include_router(router)
    return app


async def _missing(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, NoSuchMatch)
    return JSONResponse({"detail": no_match(error)}, status_code=404)


def _error(status: int) -> Callable[[Request, Exception], Awaitable[JSONResponse]]:
    async def handler(request: Request, error: Exception) -> JSONResponse:
        assert isinstance(error, RefereeError)
        return JSONResponse({"detail": fault(error) or str(error)}, status_code=status)

    return handler
