"""A recorded match played from transcribed phrases, one a line, without real time."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from phrases.render import Utterance
from rules.errors import RefereeError
from voice.live.stopwatch import Stopwatch
from voice.match_record.ledger import Ledger
from voice.speaking.printer import Printer
from voice.translation import N_, Foreign

MAX_PASSING = 24 * 60 * 60  # the most seconds one line `+SECONDS` lets pass


class TranscriptError(RefereeError):
    """The transcript could not be read to its end; what came before it is recorded."""

    def __init__(self, message: str, match_id: int, ledger: Ledger, /, **fields: object) -> None:
        super().__init__(message, match_id=match_id, **fields)
        self.match_id = match_id
        self.path = ledger.record.path


def transcript_phrases(lines: Iterable[str]) -> Iterator[str]:
    """The utterances of a transcript: blank lines and lines starting with # are skipped."""
    for line in lines:
        text = line.strip()
        if text and not text.startswith("#"):
            yield text


def play_transcript(ledger: Ledger, lines: Iterable[str], voice: Printer, where: str) -> None:
    """Feed each phrase to the recorded match and voice what it says, then the final state; a
    line `+SECONDS` lets that much time pass, the clock ticking each second as the live loop's."""
    now = 0.0
    watch = Stopwatch()
    watch.follow(ledger.match, now)
    try:
        for text in transcript_phrases(lines):
            passing = _passing(text, where, ledger)
            if passing is None:
                _voiced(ledger, ledger.hear(text), voice)
                watch.follow(ledger.match, now)
            for _ in range(passing or 0):
                now += 1
                tick = watch.tick(now)
                if tick is not None:
                    _voiced(ledger, ledger.command(tick), voice)
                watch.follow(ledger.match, now)
    except UnicodeDecodeError as error:
        raise TranscriptError(
            N_("{where} is not UTF-8 text: {error}; match {match_id} is recorded up to there"),
            ledger.match_id, ledger, where=where, error=Foreign(error),
        ) from None
    voice.state(ledger.match)


def _passing(text: str, where: str, ledger: Ledger) -> int | None:
    """The seconds a line `+SECONDS` lets pass; None for a phrase; TranscriptError if bad."""
    if not text.startswith("+"):
        return None
    seconds = text[1:].strip()
    if not seconds.isdecimal() or not 1 <= int(seconds) <= MAX_PASSING:
        raise TranscriptError(
            N_("{where}: {text!r} is not time passing: write +SECONDS, 1 to {most}; match "
               "{match_id} is recorded up to there"), ledger.match_id, ledger,
            where=where, text=text[:40], most=MAX_PASSING,
        )
    return int(seconds)


def _voiced(ledger: Ledger, said: list[Utterance], voice: Printer) -> None:
    voice.say(said)
    if ledger.written is not None:
        ledger.mark_announced(ledger.written)
