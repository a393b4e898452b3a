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
from rules.vocabulary import DEFAULT_THRESHOLD, Vocabulary
from voice.arguments import UsageError, add_db_argument, confidence, match_number
from voice.audio import CHUNK_MS, TARGET_RATE, chunked, read_wav, resample, to_pcm16_bytes
from voice.ledger import Ledger
from voice.loop import LiveLoop
from voice.model import ModelError
from voice.phrase_table import PhraseTable
from voice.record import Record
from voice.simulate import Printer

if TYPE_CHECKING:  # vosk loads only when a model is used, not on every `referee` command
    from voice.pipeline import Heard, Listener

PLACEHOLDER_PLAYERS = ("Πρώτος", "Δεύτερος")


def register(sub: argparse._SubParsersAction) -> None:
    """Add `listen` to the command line."""
    parser = sub.add_parser(
        "listen", help="recognise the referee's phrases in WAV files, as the live loop would"
    )
    parser.add_argument("--model", required=True, type=Path, help="the vosk model directory")
    parser.add_argument("--wav", required=True, nargs="+", type=Path, metavar="FILE",
                        help="WAV files (any sample rate), each one recording")
    parser.add_argument("--discipline", default="libre", choices=list(DISCIPLINES),
                        help="whose phrases to expect (default: libre)")
    parser.add_argument("--players", help='the two surnames, "SURNAME_A,SURNAME_B" '
                        f"(default: {','.join(PLACEHOLDER_PLAYERS)})")
    add_threshold_argument(parser)
    parser.add_argument("--jsonl", action="store_true", help="one JSON object per phrase")
    parser.add_argument(
        "--match", type=match_number,
        help="apply what is heard to this recorded match (in --db) and print its announcements",
    )
    add_db_argument(parser)
    add_phrase_table_argument(parser)
    add_early_argument(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """`referee listen`."""
    players = _players(args.players)
    table = phrase_table(args.phrase_table)
    recordings = [(path, _read(path)) for path in args.wav]
    if args.match is None:
        listener = prepare(args.model, Vocabulary(players, discipline(args.discipline)), table,
                           args.threshold, args.early)
        for path, (samples, rate) in recordings:
            _report(path, listen(listener, samples, rate), args.jsonl)
        return 0
    with Record.open(args.db, create=False) as record:
        ledger = Ledger(record, args.match)
        setup = ledger.match.setup
        listener = prepare(args.model, Vocabulary(setup.players, setup.rules), table,
                           args.threshold, args.early)
        loop = LiveLoop(listener, ledger, Printer(sys.stdout, args.jsonl))
        for path, (samples, rate) in recordings:
            _report(path, listen(listener, samples, rate), args.jsonl, loop.act)
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
        sys.stdout.write(f"{path}:\n" if heard else f"{path}:\n  nothing heard\n")
    for at, h in heard:
        sys.stdout.write((as_json(path, at, h) if jsonl else f"  {show(at, h)}") + "\n")
        if act is not None:
            act(h)


def listen(
    listener: Listener, samples: np.ndarray, rate: int, chunk_ms: int = CHUNK_MS
) -> list[tuple[float, Heard]]:
    """Feed one recording through `listener` in `chunk_ms` chunks; (seconds into it, heard)."""
    listener.reset()
    heard = []
    fed = 0
    for chunk in chunked(to_pcm16_bytes(resample(samples, rate, TARGET_RATE)), chunk_ms):
        fed += len(chunk)
        found = listener.feed(chunk)
        if found is not None:
            heard.append((fed / 2 / TARGET_RATE, found))
    last = listener.finish()
    return [*heard, (fed / 2 / TARGET_RATE, last)] if last else heard


def show(at: float, heard: Heard) -> str:
    """A human-readable line for one recognised phrase."""
    said = f"«{heard.text}»" + (f" = «{heard.phrase}»" if heard.phrase != heard.text else "")
    notes = [note for note, on in (
        ("early", heard.early),
        (f"confidence {heard.confidence:.0f}", heard.confidence < 100),
        (f"replaces the early {_command(heard.replaces)}", heard.replaces is not None),
    ) if on]
    extra = f"  ({'; '.join(notes)})" if notes else ""
    return f"{at:6.2f} s  {said} → {_command(heard.command)}{extra}"


def as_json(path: Path, at: float, heard: Heard) -> str:
    """The JSONL form of one recognised phrase."""
    return json.dumps({
        "file": str(path), "at": round(at, 3), "text": heard.text, "phrase": heard.phrase,
        "command": heard.command.to_dict() if heard.command else None,
        "confidence": round(heard.confidence, 1), "early": heard.early,
        "replaces": heard.replaces.to_dict() if heard.replaces else None,
    }, ensure_ascii=False)


def _command(command: Command | None) -> str:
    if command is None:
        return "not understood"
    args = [f"{key}={','.join(map(str, value)) if isinstance(value, list) else value}"
            for key, value in command.to_dict().items() if key != "kind"]
    return " ".join([command.kind.value, *args])


def _players(text: str | None) -> tuple[str, ...]:
    if text is None:
        return PLACEHOLDER_PLAYERS
    players = tuple(name.strip() for name in text.split(","))
    if len(players) != 2 or not all(players):
        raise UsageError(f'--players needs exactly two surnames "A,B", got {text!r}')
    return players


def add_threshold_argument(parser: argparse.ArgumentParser) -> None:
    """--threshold: the confidence free-form text needs to become a command."""
    parser.add_argument("--threshold", type=confidence, default=DEFAULT_THRESHOLD,
                        help="the confidence (0-100) a phrase not heard exactly needs "
                        f"(default: {DEFAULT_THRESHOLD:g})")


def add_early_argument(parser: argparse.ArgumentParser) -> None:
    """--early: also act on a complete partial result before the endpoint (off: see README)."""
    parser.add_argument(
        "--early", action="store_true",
        help="also commit a complete phrase from a partial result, before the endpoint "
        "(faster for some phrases, but makes false commits)",
    )


def add_phrase_table_argument(parser: argparse.ArgumentParser) -> None:
    """--phrase-table: for testing the pipeline with a model of another language."""
    parser.add_argument("--phrase-table", type=Path, metavar="TOML",
                        help='testing with a non-Greek model: a TOML file of `word = "Greek '
                        'text"` lines; the grammar is spelled in these words')


def phrase_table(path: Path | None) -> PhraseTable | None:
    """The table at `path` (None without one); UsageError naming the file's fault."""
    try:
        return PhraseTable.load(path) if path else None
    except ValueError as error:
        raise UsageError(f"--phrase-table: {error}") from None


def _read(path: Path) -> tuple[np.ndarray, int]:
    try:
        return read_wav(path)
    except OSError as error:
        raise UsageError(f"--wav {path}: cannot read it: {error.strerror}") from None
    except ValueError as error:
        raise UsageError(f"--wav {error}; give a WAV recording (sox converts others)") from None


def prepare(
    model: Path,
    vocabulary: Vocabulary,
    table: PhraseTable | None = None,
    threshold: float = DEFAULT_THRESHOLD,
    early: bool = False,
    prog: str = "referee listen",
) -> Listener:
    """Load the model, build the pipeline and say on stderr what it can hear, and how fast."""
    from voice.pipeline import Listener, coverage_report, speed_report
    from voice.recognise import load_model

    try:
        listener = Listener(
            load_model(model), vocabulary, table=table, threshold=threshold, early=early
        )
    except ModelError as error:
        raise UsageError(str(error)) from None
    except ValueError as error:  # not one phrase of the grammar is in the model's vocabulary
        raise UsageError(f"--model {model}: {error}") from None
    mode = (f"free-form, commands matched by similarity (--threshold {threshold:g})"
            if listener.free_form else f"a runtime grammar of {len(listener.recogniser.grammar)}"
            " phrases")
    lines = [f"model {model}: {mode}", *coverage_report(listener),
             *speed_report(listener.recogniser.time_decode(), listener.free_form)]
    sys.stderr.writelines(f"{prog}: {line}\n" for line in lines)
    return listener
