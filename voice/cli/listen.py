"""`referee listen`: the live loop's recognition pipeline, fed from WAV files instead of a mic."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from rules.command import Command
from rules.discipline import DISCIPLINES, discipline
from rules.vocabulary import Vocabulary
from voice.cli.arguments import (
    Subcommands,
    UsageError,
    add_command,
    add_db_argument,
    add_early_argument,
    add_phrase_table_argument,
    add_settings_arguments,
    add_threshold_argument,
    match_number,
    phrase_table,
    settings_from,
)
from voice.cli.listening import start_listener
from voice.hearing.audio import WavError, read_wav
from voice.live.loop import LiveLoop, log_to_stderr
from voice.match_record.database import Record
from voice.match_record.ledger import LiveLedger
from voice.speaking.printer import Printer
from voice.translation import KINDS, N_, Line, _

if TYPE_CHECKING:  # vosk loads only when a model is used, not on every `referee` command
    from voice.hearing.listener import Heard

PLACEHOLDER_PLAYERS = ("Πρώτος", "Δεύτερος")


def register(sub: Subcommands) -> None:
    """Add `listen` to the command line."""
    parser = add_command(
        sub, "listen", _("recognise the referee's phrases in WAV files, as the live loop would")
    )
    parser.add_argument("--model", required=True, type=Path, help=_("the vosk model directory"))
    parser.add_argument("--wav", required=True, nargs="+", type=Path, metavar="FILE",
                        help=_("WAV files (any sample rate), each one recording"))
    parser.add_argument("--discipline", default="libre", choices=list(DISCIPLINES),
                        help=_("whose phrases to expect (default: libre)"))
    parser.add_argument("--players", help=_('the two surnames, "SURNAME_A,SURNAME_B" '
                                            "(default: {players})")
                        .format(players=",".join(PLACEHOLDER_PLAYERS)))
    add_threshold_argument(parser)
    add_settings_arguments(parser)
    parser.add_argument("--jsonl", action="store_true", help=_("one JSON object per phrase"))
    parser.add_argument(
        "--match", type=match_number,
        help=_("apply what is heard to this recorded match (in --db) and print its announcements"),
    )
    add_db_argument(parser)
    add_phrase_table_argument(parser)
    add_early_argument(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """`referee listen`."""
    players = _players(args.players)
    table = phrase_table(args.phrase_table)
    settings, profile = settings_from(args, threshold=args.threshold, endpoint_ms=args.endpoint)
    recordings = [(path, _read(path)) for path in args.wav]
    from voice.hearing.listener import hear_recording  # loads vosk

    if args.match is None:
        vocabulary = Vocabulary(players, discipline(args.discipline))
        listener = start_listener(args.model, vocabulary, table, settings, profile, args.early)
        for path, (samples, rate) in recordings:
            _report(path, hear_recording(listener, samples, rate), args.jsonl)
        return 0
    with Record.open(args.db, create=False) as record:
        setup = record.setup(args.match)[1]
        vocabulary = Vocabulary(setup.players, setup.rules, setup.spoken)
        listener = start_listener(args.model, vocabulary, table, settings, profile, args.early)
        ledger = LiveLedger(record, args.match, log_to_stderr)
        loop = LiveLoop(listener, ledger, Printer(sys.stdout, args.jsonl), confirm=False)
        for path, (samples, rate) in recordings:
            _report(path, hear_recording(listener, samples, rate), args.jsonl, loop.act)
        loop.close()
    return 0


def _report(
    path: Path,
    heard: list[tuple[float, Heard]],
    jsonl: bool,
    act: Callable[[Heard], None] | None = None,
) -> None:
    """Print each phrase heard in one recording; with `act`, act on it right after."""
    if not jsonl:
        sys.stdout.write(f"{path}:\n" if heard else f"{path}:\n  {_('nothing heard')}\n")
    for at, h in heard:
        sys.stdout.write((heard_json(path, at, h) if jsonl else f"  {show(at, h)}") + "\n")
        if act is not None:
            act(h)


def show(at: float, heard: Heard) -> str:
    """A human-readable line for one recognised phrase."""
    said = f"«{heard.text}»" + (f" = «{heard.phrase}»" if heard.phrase != heard.text else "")
    notes = [note.shown() for note, on in (
        (Line(N_("early")), heard.early),
        (Line(N_("confidence {confidence:.0f}"), confidence=heard.confidence),
         heard.confidence < 100),
        (Line(N_("replaces the early {command}"), command=_command(heard.replaces)),
         heard.replaces is not None),
        (Line(N_("may as well be «{rival}»: asked again"), rival=heard.rival),
         heard.rival is not None),
    ) if on]
    extra = f"  ({_('; ').join(notes)})" if notes else ""  # the list's separator
    return Line(N_("{at:6.2f} s  {said} → {command}{extra}"), at=at, said=said,
                command=_command(heard.command), extra=extra).shown()


def heard_json(path: Path, at: float, heard: Heard) -> str:
    """The JSONL form of one recognised phrase."""
    return json.dumps({
        "file": str(path), "at": round(at, 3), "text": heard.text, "phrase": heard.phrase,
        "command": heard.command.to_dict() if heard.command else None,
        "confidence": round(heard.confidence, 1), "early": heard.early,
        "replaces": heard.replaces.to_dict() if heard.replaces else None,
        "rival": heard.rival,
    }, ensure_ascii=False)


def _command(command: Command | None) -> str:
    """The command's name, and its fields as the record writes them."""
    if command is None:
        return _("not understood")
    args = [f"{key}={','.join(map(str, value)) if isinstance(value, list) else value}"
            for key, value in command.to_dict().items() if key != "kind"]
    return " ".join([_(KINDS[command.kind]), *args])


def _players(text: str | None) -> tuple[str, ...]:
    if text is None:
        return PLACEHOLDER_PLAYERS
    players = tuple(name.strip() for name in text.split(","))
    if len(players) != 2 or not all(players):
        raise UsageError(N_('--players needs exactly two surnames "A,B", got {given!r}'),
                         given=text)
    return players


def _read(path: Path) -> tuple[np.ndarray, int]:
    try:
        return read_wav(path)
    except OSError as error:
        raise UsageError(N_("--wav {path}: cannot read it: {reason}"), path=path,
                         reason=error.strerror) from None
    except WavError as error:
        raise UsageError(N_("--wav {error}; give a WAV recording (sox converts others)"),
                         error=error) from None
