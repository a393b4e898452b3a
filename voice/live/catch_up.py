"""Catching up on a resumed match: what was recorded but never voiced, then the score."""

from __future__ import annotations

import functools
from collections.abc import Callable

from phrases.render import Utterance
from rules import innings_limit
from rules.announcement import Code
from rules.command import Command, Kind
from voice.match_record.ledger import Ledger
from voice.speaking.announcer import Speaker

# What of a backlog is still worth saying: the zone call of the inning in play, and the break.
ZONE_CALLS = frozenset({Code.ENTREES, Code.DEDANS, Code.RESTEES_DEDANS, Code.A_CHEVAL,
                        Code.TOUCHENT})
BREAK_CALLS = frozenset({Code.BREAK_START, Code.BREAK_WARNING})
# The result, every one of them: each set won, a draw, the winner.
RESULT_CALLS = frozenset({Code.SET, Code.DRAW, Code.WINNER})
# A tie's calls: Article 4's extension (its targets) or the play-off.
TIE_CALLS = frozenset({Code.EXTENSION, Code.PLAYOFF})


def catch_up(
    ledger: Ledger, voice: Speaker, voiced: Callable[[int], None], summarise: bool = False,
    stale: bool = False,
) -> None:
    """Voice what was recorded but never announced, then the score.

    With `summarise`, a backlog of more than one event (with `stale`, of any: what was cut
    short is not said again) is not voiced event by event: the score comes first, then only
    what still holds (`still_relevant`). `voiced(seq)` runs once an event's announcements (or
    the summary standing for them) have been voiced.
    """
    pending = ledger.unannounced()
    score = ledger.command(Command(Kind.SCORE))
    if summarise and len(pending) > (0 if stale else 1):
        seqs = [seq for seq, _ in pending]
        recap = score + still_relevant(ledger, pending)
        voice.say(recap, done=functools.partial(_each, voiced, seqs))
        return
    for seq, said in pending:
        voice.say(said, done=functools.partial(voiced, seq))
    voice.say(score)


def still_relevant(ledger: Ledger, pending: list[tuple[int, list[Utterance]]]) -> list[Utterance]:
    """Of the backlog's announcements, those that still hold: the newest event's zone call, the
    break in progress, the newest tie's calls (with «who starts» while nobody has), the last
    inning being played, and every result (sets, draw, winner) in the order they came."""
    match = ledger.match
    newest = pending[-1][1]
    kept = [u for u in newest if u.code in ZONE_CALLS]
    said = [u for _, utterances in pending for u in utterances]
    if match.pause is not None:
        kept += [u for u in said if u.code in BREAK_CALLS][-1:]
    at_table = match.at_table
    if at_table is not None and innings_limit.last_inning(match, at_table):
        kept += [u for u in said if u.code is Code.LAST_INNING][-1:]
    tied = [number for number, (_, utterances) in enumerate(pending)
            if any(u.code in TIE_CALLS for u in utterances)]
    waiting = not match.over and match.phase.breaker is None
    for number, (_, utterances) in enumerate(pending):
        newest_tie = bool(tied) and number == tied[-1]
        for u in utterances:
            tie_call = u.code in TIE_CALLS or (waiting and u.code is Code.TURN)
            if u.code in RESULT_CALLS or (newest_tie and tie_call):
                kept.append(u)
    return kept


def _each(voiced: Callable[[int], None], seqs: list[int]) -> None:
    for seq in seqs:
        voiced(seq)
