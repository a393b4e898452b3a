"""The reference pages of docs/, written from the code: every command's help, the JSONL lines and
the phrase bank's announcements. `python -m voice.cli.reference` rewrites them."""

from __future__ import annotations

import argparse
import functools
import json
import sys
from collections.abc import Iterator
from pathlib import Path

from phrases.bank import bank
from rules.state import Setup, new_match
from rules.summary import summary
from voice.cli.main import parser
from voice.match_record import database
from voice.session import Session
from voice.settings import default_path as settings_path
from voice.speaking.printer import utterance_json

WIDTH = 100  # the help's line width, whatever the terminal's
DOCS = Path(__file__).resolve().parents[2] / "docs"
# What each field of the JSONL lines means; a field the code adds needs a line here.
FIELDS = {
    "code": "the announcement's code (table below), or `state` on the last line",
    "channel": "`pa` (the hall) or `headset` (the referee only)",
    "text": "the Greek the voice says",
    "display": "the written form screens show",
    "player": "the surname (as written) the announcement is about, or null",
    "points": "the points it gives, or null",
}
STATE_FIELDS = {
    "discipline": "the discipline, as `--discipline` names it",
    "distance": "the distance (the longer one under a handicap)",
    "target": "the points that win now (the extension's included)",
    "extension": "0, or the number of the extension (or play-off) being played",
    "single_stroke": "whether each turn is one stroke (from the second extension on)",
    "innings_limit": "`--innings`, or null",
    "on_tie": "what a tie brings: `extension`, `draw` or `playoff`",
    "playoff": "whether the phase being played is a play-off",
    "sets": "`--sets` (best of N), or null",
    "sets_won": "the sets each player has won, in the order of `--players`",
    "players": "each player's line, in the order of `--players` (fields below)",
    "turn": "the surname at the table, or null",
    "run": "the points of the run in play",
    "zones": "the zones the object balls are in: `triangle`, `frame`, `anchor`",
    "touchent": "whether the balls touch",
    "break": "the surname on a break, or null",
    "winner": "the winner's surname, or null",
    "drawn": "whether the match ended in a draw",
    "warm_up": "the surname warming up, or null",
}
PLAYER_FIELDS = {
    "surname": "as written",
    "points": "points so far",
    "innings": "innings begun",
    "average": "points / innings, truncated to 3 decimals (2 in 3 innings: 0.666)",
    "highest_run": "the best run",
    "break_taken": "whether his break (Article 5) is used",
    "time_outs": "the time-outs he has used",
    "set_points": "his points in the set being played (all his points without sets)",
    "distance": "his own distance",
    "target": "the points that win for him now",
    "innings_points": "each inning's points, the one in play included",
    "innings_left": "innings left under `--innings` (the current included), or null",
}


def command_line() -> str:
    """docs/cli.md: `referee --help` and every subcommand's, as a terminal WIDTH wide shows them."""
    data, config = database.default_path().parent, settings_path().parent
    lines = [
        "# Command-line reference",
        "",
        "Written by `python -m voice.cli.reference` from the parsers themselves, and checked",
        "against them by `tests/test_docs.py`. `<data dir>` and `<config dir>` are the user's",
        "directories (platformdirs: `~/.local/share/carom-referee` and `~/.config/carom-referee`",
        "on Linux).",
    ]
    for name, command in _parsers(parser()):
        for action in command._actions:
            if action.help:
                action.help = action.help.replace(str(data), "<data dir>").replace(
                    str(config), "<config dir>"
                )
        kind = command.formatter_class
        if isinstance(kind, type) and issubclass(kind, argparse.HelpFormatter):
            command.formatter_class = functools.partial(kind, width=WIDTH)
        lines += ["", f"## {name}", "", "```text", command.format_help().rstrip(), "```"]
    return "\n".join(lines) + "\n"


def _parsers(
    command: argparse.ArgumentParser, name: str = "referee"
) -> Iterator[tuple[str, argparse.ArgumentParser]]:
    """`command` and each of its subcommands' parsers, depth first, with their full names."""
    yield name, command
    for action in command._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub, subparser in action.choices.items():
                yield from _parsers(subparser, f"{name} {sub}")


def announcements() -> str:
    """docs/announcements.md: the JSONL lines' fields and every form of every announcement."""
    match = new_match(Setup("libre", 50, ("Παπαδόπουλος", "Κωνσταντίνου")))
    example = utterance_json(Session(match).hear("πόντος")[0])
    state = summary(match)
    lines = [
        "# Announcements and the JSONL lines",
        "",
        "Written by `python -m voice.cli.reference` from the code (`voice/speaking/printer.py`,",
        "`rules/summary.py`, `phrases/bank.toml`), and checked against it by `tests/test_docs.py`.",
        "",
        "## One line per announcement",
        "",
        "`referee simulate --jsonl` (and `resume`) print one JSON object per announcement, in",
        "speaking order; the first carom of a libre match gives:",
        "",
        "```json",
        example,
        "```",
        "",
        *_table(("field", "meaning"), [(f"`{key}`", FIELDS[key]) for key in json.loads(example)]),
        "",
        "## The last line: the state",
        "",
        '`{"code": "state", ...}` with the match as it ended:',
        "",
        *_table(("field", "meaning"), [(f"`{key}`", STATE_FIELDS[key]) for key in state]),
        "",
        "Each of `players`:",
        "",
        *_table(
            ("field", "meaning"),
            [(f"`{key}`", PLAYER_FIELDS[key]) for key in state["players"][0]],
        ),
        "",
        "## Every announcement",
        "",
        "Each form the rules and the live loop make, as `phrases/bank.toml` voices it: the code",
        "(and its variant after the dot), where it is heard, what the voice says and what",
        "screens show. `{player}`, `{points}` … are filled in; `{pause}` is a short silence;",
        "a chime opens the PA's non-routine announcements.",
        "",
        *_table(
            ("code", "channel", "said", "shown", "chime"),
            [
                (f"`{key}`", template.channel, template.text, template.display,
                 "yes" if template.chime else "")
                for key, template in sorted({**bank().templates, **bank().prompts}.items())
            ],
        ),
    ]
    return "\n".join(lines) + "\n"


def _table(header: tuple[str, ...], rows: list[tuple[str, ...]]) -> list[str]:
    """A Markdown table."""
    def row(cells: tuple[str, ...]) -> str:
        return "| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |"

    return [row(header), row(tuple("---" for _ in header)), *map(row, rows)]


PAGES = {"cli.md": command_line, "announcements.md": announcements}


def main() -> int:
    """Rewrite the generated pages in docs/."""
    for name, page in PAGES.items():
        (DOCS / name).write_text(page(), encoding="utf-8")
        sys.stdout.write(f"wrote {DOCS / name}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
