"""`referee understand`: recogniser transcripts → the commands the live loop would act on."""

from __future__ import annotations

import argparse
import json
import sys

from rules.discipline import DISCIPLINES, discipline
from rules.vocabulary import Vocabulary
from voice.cli.arguments import (
    Subcommands,
    UsageError,
    add_command,
    add_phrase_table_argument,
    add_settings_arguments,
    add_threshold_argument,
    phrase_table,
    read_lines,
    settings_from,
)
from voice.cli.listen import PLACEHOLDER_PLAYERS
from voice.hearing.understanding import understand
from voice.translation import N_, _


def register(sub: Subcommands) -> None:
    """Add `understand` to the command line."""
    parser = add_command(sub, "understand", _(
        "map recogniser transcripts, one a line, to the commands the live loop would act on "
        "(one JSON object a line)"
    ))
    parser.add_argument("--input", help=_("UTF-8 file, one transcript a line "
                                          "(default: standard input)"))
    parser.add_argument("--discipline", default="libre", choices=list(DISCIPLINES),
                        help=_("whose phrases to expect (default: libre)"))
    parser.add_argument("--players", help=_(
        'the two surnames, "SURNAME_A,SURNAME_B"; each may add how it is said: '
        '"Jaspers=Γιάσπερς,Β" (default: {players})'
    ).format(players=",".join(PLACEHOLDER_PLAYERS)))
    add_threshold_argument(parser)
    add_settings_arguments(parser, endpoint=False)
    add_phrase_table_argument(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """`referee understand`."""
    players, spoken = players_from(args.players)
    vocabulary = Vocabulary(players, discipline(args.discipline), spoken)
    table = phrase_table(args.phrase_table)
    settings, profile = settings_from(args, threshold=args.threshold)
    lines, _ = read_lines(args.input)
    for line in lines:
        heard = line.rstrip("\r\n")
        command, confidence = understand(heard, vocabulary, settings.threshold, table,
                                         profile.aliases)
        sys.stdout.write(json.dumps({
            "heard": heard, "command": command.to_dict() if command else None,
            "confidence": round(confidence, 1),
        }, ensure_ascii=False) + "\n")
    return 0


def players_from(text: str | None) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The surnames of --players "A=said,B", and how each is said (itself when not given)."""
    if text is None:
        return PLACEHOLDER_PLAYERS, PLACEHOLDER_PLAYERS
    given = [name.partition("=") for name in text.split(",")]
    players = tuple(written.strip() for written, _, _ in given)
    spoken = tuple((said if equals else written).strip() for written, equals, said in given)
    if len(players) != 2 or not all(players) or not all(spoken):
        raise UsageError(N_('--players needs exactly two surnames "A,B" (each may add "=how it is '
                            'said"), got {given!r}'), given=text)
    return players, spoken
