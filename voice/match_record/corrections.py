"""Corrections of a recorded match's protocol, taken like any command; a refusal is an error."""

from __future__ import annotations

from phrases.render import Utterance
from rules.announcement import Reason
from rules.command import Command
from rules.errors import RefereeError
from rules.match import apply
from voice.match_record.ledger import Ledger
from voice.translation import N_, Foreign

# Why the rules refuse a correction, in the words of an error message.
FAULTS = {
    Reason.NOT_PLAYED: N_("match {match_id}: {player} has not finished an inning {inning}"),
    Reason.NEGATIVE_POINTS: N_("match {match_id}: an inning cannot have a negative number of "
                               "points ({points})"),
    Reason.PASSES_DISTANCE: N_("match {match_id}: {points} points in inning {inning} would take "
                               "{player} to his distance before his last inning"),
    Reason.CHANGES_END: N_("match {match_id}: {points} points in inning {inning} would change how "
                           "the match ended"),
    Reason.BEFORE_EXTENSION: N_("match {match_id}: inning {inning} was played before the "
                                "extension; during an extension only its innings can be "
                                "corrected"),
    Reason.OVER_LIMIT: N_("match {match_id}: a round inserted before inning {inning} would take "
                          "the players past the innings limit"),
    Reason.UNKNOWN_PLAYER: N_("match {match_id}: {player} is neither of the players"),
}
REFUSED = N_("match {match_id}: the rules refuse it ({reason})")


class CorrectionRefused(RefereeError):
    """A correction the rules refuse; nothing was recorded."""

    def __init__(self, message: str, match_id: int, ledger: Ledger, /, **fields: object) -> None:
        super().__init__(message, match_id=match_id, **fields)
        self.match_id = match_id
        self.path = ledger.record.path


def record_correction(ledger: Ledger, command: Command) -> list[Utterance]:
    """Record `command` (CORRECT or INSERT_INNING) and return what is announced; raises
    CorrectionRefused, recording nothing, when the rules refuse it."""
    said = ledger.command(command)
    if ledger.written is not None:
        return said
    refusal = apply(ledger.match, command)[1][0]
    fault = FAULTS.get(Reason(str(refusal.variant)))
    unforeseen = {} if fault else {"reason": Foreign(refusal.variant)}  # English quoted: English
    raise CorrectionRefused(fault or REFUSED, ledger.match_id, ledger, player=command.player,
                            inning=command.inning, points=command.points, **unforeseen)
