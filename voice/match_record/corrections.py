"""Corrections of a recorded match's protocol, taken like any command; a refusal is an error."""

from __future__ import annotations

from phrases.render import Utterance
from rules.announcement import Reason
from rules.command import Command, Kind
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
    Reason.BREAKS_TIE: N_("match {match_id}: {points} points in inning {inning} would change "
                          "{player}'s points at the tie that brought the extension, and so the "
                          "result"),
    Reason.BEFORE_SET: N_("match {match_id}: inning {inning} was played before the set being "
                          "played; only its innings can be corrected"),
    Reason.UNKNOWN_PLAYER: N_("match {match_id}: {player} is neither of the players"),
}
# … and why they refuse a round inserted or deleted.
ROUND_FAULTS = {
    Reason.NOT_PLAYED: N_("match {match_id}: round {inning} has not been played by both players"),
    Reason.CHANGES_END: N_("match {match_id}: deleting round {inning} would change how the match "
                           "ended"),
    Reason.BEFORE_EXTENSION: N_("match {match_id}: round {inning} was played before the "
                                "extension; during an extension only its rounds can be changed"),
    Reason.BREAKS_TIE: N_("match {match_id}: deleting round {inning}, played before the extension, "
                          "would change the tie that brought it (a round with points, or one "
                          "the innings limit counted)"),
    Reason.BEFORE_SET: N_("match {match_id}: round {inning} was played before the set being "
                          "played; only its rounds can be changed"),
    Reason.OVER_LIMIT: N_("match {match_id}: a round inserted before inning {inning} would take "
                          "the players past the innings limit"),
}
REFUSED = N_("match {match_id}: the rules refuse it ({reason})")


class CorrectionRefused(RefereeError):
    """A correction the rules refuse; nothing was recorded."""

    def __init__(self, message: str, match_id: int, ledger: Ledger, /, **fields: object) -> None:
        super().__init__(message, match_id=match_id, **fields)
        self.match_id = match_id
        self.path = ledger.record.path


def record_correction(ledger: Ledger, command: Command) -> list[Utterance]:
    """Record `command` (CORRECT, INSERT_INNING or DELETE_INNING) and return what is announced;
    raises CorrectionRefused, recording nothing, when the rules refuse it."""
    said = ledger.command(command)
    if ledger.written is not None:
        return said
    refusal = apply(ledger.match, command)[1][0]
    faults = FAULTS if command.kind is Kind.CORRECT else ROUND_FAULTS
    fault = faults.get(Reason(str(refusal.variant)))
    unforeseen = {} if fault else {"reason": Foreign(refusal.variant)}  # English quoted: English
    raise CorrectionRefused(fault or REFUSED, ledger.match_id, ledger, player=command.player,
                            inning=command.inning, points=command.points, **unforeseen)
