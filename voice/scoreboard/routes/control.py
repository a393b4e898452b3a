"""Control: commands, phrases and corrections given by the referee's panel."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from fastapi import APIRouter, Depends

from voice.scoreboard.guard import same_origin
from voice.scoreboard.record_worker import Taken
from voice.scoreboard.routes.shared import AUTHORISED, BODY, REFUSED, DeskIn, MatchId
from voice.scoreboard.schema import CommandIn, CorrectionIn, PhraseIn, Reply
from voice.scoreboard.strict_json import StrictJsonRoute


def _taken(taken: Taken) -> dict[str, Any]:
    recorded, said = taken
    return {"recorded": recorded, "utterances": [asdict(u) for u in said]}


def router(locked: bool) -> APIRouter:
    """The control routes: from a page of this site only, and with the token when `locked`."""
    control = APIRouter(
        route_class=StrictJsonRoute,
        dependencies=[Depends(same_origin), *(AUTHORISED if locked else [])],
        responses=REFUSED if locked else BODY,
    )

    @control.post("/api/matches/{match}/commands", response_model=Reply)
    async def command(match: MatchId, body: CommandIn, desk: DeskIn) -> dict[str, Any]:
        """Give a command, as the voice loop does when it recognises the phrase that says it.

        A command the rules refuse is answered with the refusal and records nothing.
        """
        return _taken(await desk.command(match, body.command()))

    @control.post("/api/matches/{match}/phrases", response_model=Reply)
    async def phrase(match: MatchId, body: PhraseIn, desk: DeskIn) -> dict[str, Any]:
        """Say a phrase, as the recogniser would transcribe it («πόντος», «διόρθωση» …)."""
        return _taken(await desk.hear(match, body.text))

    @control.post("/api/matches/{match}/corrections", response_model=Reply)
    async def correction(match: MatchId, body: CorrectionIn, desk: DeskIn) -> dict[str, Any]:
        """Correct a past inning's points, or insert a forgotten round (the protocol editor).

        A correction the rules refuse is answered with the refusal and records nothing.
        """
        return _taken(await desk.command(match, body.command()))

    return control
