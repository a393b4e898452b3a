"""A recorded match played from transcribed phrases, one a line, without real time."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from rules.errors import RefereeError
from voice.match_record.ledger import Ledger
from voice.speaking.printer import Printer


class TranscriptError(RefereeError):
    """The transcript could not be read to its end; what came before it is recorded."""

    def __init__(self, message: str, match_id: int, ledger: Ledger) -> None:
        super().__init__(message)
        self.match_id = match_id
        self.path = ledger.record.path


def transcript_phrases(lines: Iterable[str]) -> Iterator[str]:
    """The utterances of a transcript: blank lines and lines starting with # are skipped."""
    for line in lines:
        text = line.strip()
        if text and not text.startswith("#"):
            yield text


def play_transcript(ledger: Ledger, lines: Iterable[str], voice: Printer, where: str) -> None:
    """Feed each phrase to the recorded match and voice what it says, then the final state."""
    try:
        for text in transcript_phrases(lines):
            said = ledger.hear(text)
            voice.say(said)
            if ledger.written is not None:
                ledger.mark_announced(ledger.written)
    except UnicodeDecodeError as error:
        raise TranscriptError(
            f"{where} is not UTF-8 text: {error}; match {ledger.match_id} is recorded up to there",
            ledger.match_id, ledger,
        ) from None
    voice.state(ledger.match)
