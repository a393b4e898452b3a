"""The read API: every match's board, one match's board and events, the panels, the protocol."""

from __future__ import annotations

from contextlib import suppress
from dataclasses import asdict
from typing import Any
from urllib.parse import quote

import fastapi
from fastapi import APIRouter, Request

from voice.match_record.database import RecordError
from voice.scoreboard.qr import qr_svg
from voice.scoreboard.routes.shared import (
    AUTHORISED,
    LOCKED,
    MISSING,
    READ,
    READ_DEPENDENCIES,
    DeskIn,
    MatchId,
    TokenIn,
)
from voice.scoreboard.schema import Board, EventOut, Panel
from voice.scoreboard.strict_json import StrictJsonRoute
from voice.scoreboard.view import server_time

_PDF: dict[str, Any] = {
    "description": "the protocol", "content": {"application/pdf": {"schema": {"type": "string"}}}
}


def router(locked: bool, panels: bool = True) -> APIRouter:
    """The read routes; `locked`: the panels' links carry the token, so they need it; without
    `panels` (the hall's read-only scoreboard), no panels are listed."""
    reads = APIRouter(route_class=StrictJsonRoute)
    read = READ_DEPENDENCIES

    @reads.get("/api/matches", response_model=list[Board], responses=READ, dependencies=read)
    async def listed(desk: DeskIn) -> fastapi.Response:
        """The scoreboard state of every match the record holds and can replay, oldest first."""
        now, boards = server_time(), []
        for match in await desk.match_ids():
            with suppress(RecordError):  # its own board says why it cannot be shown
                boards.append((await desk.board(match)).text(now))
        return fastapi.Response(f"[{','.join(boards)}]", media_type="application/json")

    async def listed_panels(
        request: Request, desk: DeskIn, token: TokenIn
    ) -> list[dict[str, Any]]:
        """Each match's control panel: its link, carrying the token, and the link as a QR code."""
        carried = f"#token={quote(token, safe='')}" if token else ""
        links = [
            (match, f"{request.base_url}referee/{match}{carried}")
            for match in await desk.match_ids()
        ]
        return [{"match": match, "url": url, "qr": qr_svg(url)} for match, url in links]

    if panels:
        reads.get(
            "/api/panels", response_model=list[Panel], responses=LOCKED if locked else READ,
            dependencies=AUTHORISED if locked else read,
        )(listed_panels)

    @reads.get("/api/matches/{match}", response_model=Board, responses=MISSING, dependencies=read)
    async def state(match: MatchId, desk: DeskIn) -> fastapi.Response:
        """The scoreboard state of the match."""
        shown = await desk.board(match)
        return fastapi.Response(shown.text(server_time()), media_type="application/json")

    @reads.get(
        "/api/matches/{match}/events", response_model=list[EventOut], responses=MISSING,
        response_model_exclude_none=True, dependencies=read,
    )
    async def events(match: MatchId, desk: DeskIn) -> list[dict[str, Any]]:
        """Every recorded event of the match, oldest first."""
        return [
            {**asdict(e), "command": e.command.to_dict()} for e in await desk.events(match)
        ]

    return reads


documents = APIRouter(route_class=StrictJsonRoute, dependencies=READ_DEPENDENCIES)


@documents.get(
    "/api/matches/{match}/protocol.pdf", responses={**MISSING, 200: _PDF},
    response_class=fastapi.Response,
)
async def protocol(match: MatchId, desk: DeskIn) -> fastapi.Response:
    """The printable match protocol (A4, PDF)."""
    pdf = await desk.protocol(match)
    disposition = f'inline; filename="protocol-{match}.pdf"'
    return fastapi.Response(
        pdf, media_type="application/pdf", headers={"Content-Disposition": disposition}
    )
