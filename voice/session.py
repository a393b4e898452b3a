"""A match driven by the referee's words: grammar → rules → phrase bank, one call per phrase."""

from __future__ import annotations

from collections.abc import Callable

from phrases.render import Utterance, render
from rules.announcement import Announcement, Code
from rules.command import Command
from rules.grammar import parse
from rules.match import apply
from rules.state import Match


class Session:
    """Holds the current match; `on_accept` sees each accepted command before it is voiced."""

    def __init__(self, match: Match, on_accept: Callable[[Command], None] | None = None) -> None:
        self.match = match
        self._on_accept = on_accept

    def hear(self, text: str) -> list[Utterance]:
        """The utterances for one recognised phrase; «δεν κατάλαβα» when it says nothing."""
        setup = self.match.setup
        command = parse(text, setup.players, setup.spoken)
        if command is None:
            return [render(Announcement(Code.NOT_UNDERSTOOD))]
        return self.command(command)

    def command(self, command: Command) -> list[Utterance]:
        """Apply `command`; record it if accepted, then render what is to be said."""
        new, said = apply(self.match, command)
        if new is not self.match:
            if self._on_accept:
                self._on_accept(command)
            self.match = new
        return self.utterances(said)

    def utterances(self, said: list[Announcement]) -> list[Utterance]:
        """What the voice says for `said`, the match's surnames as they are pronounced."""
        names = self.match.setup.pronounced
        return [render(a, names=names) for a in said]
