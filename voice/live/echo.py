"""The echo guard: a phrase heard while or just after the PA spoke, that the PA's words hold, is
the PA's own voice (the second line, behind the echo canceller)."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable

from rules.command import Command
from voice.hearing.understanding import UNKNOWN
from voice.speaking.announcer import Played

ECHO_MS = 300  # a phrase ending this long after the PA stopped may still be its echo
MAX_ECHO_MS = 5000  # the longest echo a hall may set


def words(text: str) -> list[str]:
    """The words of `text`, casefolded, without accents or punctuation."""
    plain = "".join(c for c in unicodedata.normalize("NFD", text.casefold())
                    if not unicodedata.combining(c))
    return "".join(c if c.isalnum() else " " for c in plain).split()


def _holds(text: str, phrase: str, understood: bool) -> bool:
    """True when the words of `phrase` come, in order and together, in `text`; a phrase not
    understood is held without the model's unknown words (all unknown: held)."""
    said, heard = words(text), words(phrase)
    if not understood:
        heard = [word for word in heard if word not in words(UNKNOWN)]
        if not heard:
            return True
    return bool(heard) and any(said[i : i + len(heard)] == heard
                               for i in range(len(said) - len(heard) + 1))


class EchoGuard:
    """Tells the PA's echo from the referee: a phrase heard while the PA spoke (or just after),
    whose words the PA said or whose command the PA's text is; or not understood, with no word
    the model knows (the canceller's residue)."""

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

    def echoed(self, phrase: str, command: Command | None, heard_at: float) -> Played | None:
        """The PA utterance that `phrase`, meaning `command` (None: not understood) and heard
        at `heard_at` (time.monotonic()), is the echo of; None when it is the referee's own."""
        ended = heard_at - self.lag
        for played in reversed(list(self.played())):
            if played.started <= ended <= played.ended + self.after and (
                _holds(played.text, phrase, command is not None)
                or (command is not None and self.parse(played.text) == command)
            ):
                return played
        return None
