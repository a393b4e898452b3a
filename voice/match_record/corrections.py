"""Corrections of a recorded match's protocol, taken like any command; a refusal is an error."""

from __future__ import annotations

from phrases.render import Utterance
from rules.announcement import Reason
from rules.command import Command
from rules.errors import RefereeError
from rules.match import apply
from voice.match_record.ledger import Ledger

# Why the rules refuse a correction, in the words of an error message.
FAULTS = {
    Reason.NOT_PLAYED: "{player} has not finished an inning {inning}",
    Reason.NEGATIVE_POINTS: "an inning cannot have a negative number of points ({points})",
    Reason.PASSES_DISTANCE: "{points} points in inning {inning} would take {player} to his "
    "distance before his last inning",
    Reason.CHANGES_END: "{points} points in inning {inning} would change how the match ended",
    Reason.BEFORE_EXTENSION: "inning {inning} was played before the extension; during an "
    "extension only its innings can be corrected",
    Reason.OVER_LIMIT: "a round inserted before inning {inning} would take the players past "
    "the innings limit",
    Reason.UNKNOWN_PLAYER: "{player} is neither of the players",
}


class CorrectionRefused(RefereeError):
    """A correction the rules refuse; nothing was recorded."""

    def __init__(self, message: str, match_id: int, ledger: Ledger) -> None:
        super().__init__(message)
        self.match_id = match_id
        self.path = ledger.record.path


def record_correction(ledger: Ledger, command: Command) -> list[Utterance]:
    """Record `command` (CORRECT or INSERT_INNING) and return what is announced; raises
    CorrectionRefused, recording nothing, when the rules refuse it."""
    said = ledger.command(command)
    if ledger.written is not None:
        return said
    refusal = apply(ledger.match, command)[1][0]
    fault = FAULTS.get(Reason(str(refusal.variant)), "the rules refuse it ({reason})")
    message = fault.format(
        player=command.player, inning=command.inning, points=command.points,
        reason=refusal.variant,
    )
    raise CorrectionRefused(f"match {ledger.match_id}: {message}", ledger.match_id, ledger)
