"""The pages: the hall overview, a match's board and its referee's panel."""

from __future__ import annotations

from functools import cache
from importlib.resources import files

import fastapi
from fastapi import APIRouter
from fastapi.responses import HTMLResponse, PlainTextResponse

from voice.match_record.database import NoSuchMatch
from voice.scoreboard.routes.shared import READ_DEPENDENCIES, DeskIn, MatchId, no_match
from voice.scoreboard.strict_json import StrictJsonRoute
from voice.translation import N_, gettext

AT_THE_TABLE = N_("the hall's scoreboard only shows match {match}: its referee controls it at "
                  "the table, {table} (`referee serve` there)")

router = APIRouter(route_class=StrictJsonRoute, dependencies=READ_DEPENDENCIES)


@cache
def _html(name: str) -> str:
    """The page `name`, read once from the package's web/ folder."""
    return files("voice.scoreboard").joinpath("web", f"{name}.html").read_text(encoding="utf-8")


async def _page(desk: DeskIn, name: str, match: int) -> fastapi.Response:
    try:
        await desk.board(match)  # loads the match's view for the page's feed
    except NoSuchMatch as error:
        return PlainTextResponse(no_match(error), status_code=404)
    return HTMLResponse(_html(name))


@router.get("/", include_in_schema=False)
async def overview_page() -> fastapi.Response:
    return HTMLResponse(_html("overview"))


@router.get("/board/{match}", include_in_schema=False)
async def board_page(match: MatchId, desk: DeskIn) -> fastapi.Response:
    return await _page(desk, "board", match)


@router.get("/referee/{match}", include_in_schema=False)
async def referee_page(match: MatchId, desk: DeskIn) -> fastapi.Response:
    if not desk.controlled:
        try:
            table = (await desk.view(match)).state["table"]
        except NoSuchMatch as error:
            return PlainTextResponse(no_match(error), status_code=404)
        text = gettext(AT_THE_TABLE).format(match=match, table=table)
        return PlainTextResponse(text, status_code=404)
    return await _page(desk, "referee", match)
