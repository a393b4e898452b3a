"""Small helpers for driving a match from phrases in the rules tests."""

from __future__ import annotations

from hypothesis import strategies as st

from rules.announcement import Announcement
from rules.command import Command, Kind
from rules.grammar import grammar, parse
from rules.match import apply
from rules.state import Match, Setup, new_match

PLAYERS = ("Παπαδόπουλος", "Κωνσταντίνου")
A, B = PLAYERS


def start(discipline: str, distance: int = 50, first: int = 0) -> Match:
    """A new match between the two test players."""
    return new_match(Setup(discipline, distance, PLAYERS, first))


def say(match: Match, *phrases: str) -> tuple[Match, list[Announcement]]:
    """Apply each phrase in turn; returns the match and every announcement, in order."""
    said: list[Announcement] = []
    for text in phrases:
        command = parse(text, PLAYERS)
        assert command is not None, f"the grammar does not know {text!r}"
        match, out = apply(match, command)
        said.extend(out)
    return match, said


def do(match: Match, *commands: Command) -> tuple[Match, list[Announcement]]:
    """Apply each command in turn."""
    said: list[Announcement] = []
    for command in commands:
        match, out = apply(match, command)
        said.extend(out)
    return match, said


def codes(said: list[Announcement]) -> list[str]:
    """The announcements as `code` or `code.variant` strings."""
    return [f"{a.code}.{a.variant}" if a.variant else a.code for a in said]


def points(match: Match) -> tuple[int, int]:
    """Both players' points."""
    return match.players[0].points, match.players[1].points


def spoken_sentences() -> st.SearchStrategy[str]:
    """Any sentence of the grammar, each command kind as likely as another (though {frames}
    gives a few kinds hundreds of sentences)."""
    by_kind: dict[Kind, list[str]] = {}
    for sentence in grammar().sentences(PLAYERS):
        command = parse(sentence, PLAYERS)
        assert command is not None  # every sentence of the grammar is a command
        by_kind.setdefault(command.kind, []).append(sentence)
    return st.sampled_from(list(by_kind.values())).flatmap(st.sampled_from)
