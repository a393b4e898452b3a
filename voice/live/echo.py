"""The echo guard: a phrase heard while the PA said that very command is the PA's own voice."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from rules.command import Command
from voice.speaking.announcer import Played

ECHO_MS = 300  # a phrase ending this long after the PA stopped may still be its echo
MAX_ECHO_MS = 5000  # the longest echo a hall may set


class EchoGuard:
    """Tells the PA's echo from the referee: same command, heard while the PA said it."""

    def __init__(
        self,
        played: Callable[[], Iterable[Played]],
        parse: Callable[[str], Command | None],
        after_ms: int = ECHO_MS,
        lag_ms: int = 0,
    ) -> None:
        self.played = played  # the PA's latest utterances
        self.parse = parse  # text → the command it says, as the referee's phrases are parsed
        self.after = after_ms / 1000
        self.lag = lag_ms / 1000  # from a phrase's end to its being heard: the endpoint

    def echoed(self, command: Command, heard_at: float) -> Played | None:
        """The PA utterance that a phrase meaning `command`, heard at `heard_at`
        (time.monotonic()), is the echo of; None when it is the referee's own."""
        ended = heard_at - self.lag
        for played in reversed(list(self.played())):
            if played.started <= ended <= played.ended + self.after and (
                self.parse(played.text) == command
            ):
                return played
        return None
