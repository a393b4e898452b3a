"""`referee simulate`: run a match from a file of transcribed phrases, without real time."""

from __future__ import annotations

import argparse
import io
import json
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TextIO

from phrases.render import Utterance
from rules.state import Match
from rules.summary import summary
from voice.arguments import UsageError, add_db_argument, add_setup_arguments, setup_from
from voice.ledger import Ledger
from voice.record import Record


def phrases(lines: Iterable[str]) -> Iterator[str]:
    """The utterances of an input: blank lines and lines starting with # are skipped."""
    for line in lines:
        text = line.strip()
        if text and not text.startswith("#"):
            yield text


def show(utterance: Utterance) -> str:
    """A human-readable line for one utterance."""
    said = "" if utterance.text == utterance.display else f"  «{utterance.text}»"
    return f"[{utterance.channel.upper()}] {utterance.display}{said}"


def as_json(utterance: Utterance) -> str:
    """The JSONL form of one announcement (the stable `simulate --jsonl` contract)."""
    fields = ("code", "channel", "text", "display", "player", "points")
    return json.dumps({f: getattr(utterance, f) for f in fields}, ensure_ascii=False)


class Printer:
    """Voices utterances as text or JSONL lines, and as WAV files of the PA ones if asked."""

    def __init__(self, out: TextIO, jsonl: bool = False, wav_dir: Path | None = None) -> None:
        self.out = out
        self.jsonl = jsonl
        self.wav_dir = wav_dir
        self.count = 0
        self.speaker = None
        if wav_dir is not None:
            from voice.speak import Synthesiser

            wav_dir.mkdir(parents=True, exist_ok=True)
            self.speaker = Synthesiser()

    def say(self, utterances: list[Utterance], done: Callable[[], None] | None = None) -> None:
        """Write (and render) each utterance and flush; then `done`: it has been said."""
        for utterance in utterances:
            self.out.write((as_json(utterance) if self.jsonl else show(utterance)) + "\n")
            if self.speaker is not None and utterance.channel == "pa":
                self.count += 1
                wav = self.wav_dir / f"{self.count:04d}-{utterance.code}.wav"
                self.speaker.render_wav(utterance.text, wav)
        self.out.flush()
        if done is not None:
            done()

    def close(self) -> None:
        """Nothing is queued: every `say` has been written by the time it returns."""

    def state(self, match: Match) -> None:
        """The final state: one JSON object, or each player's statistics and the winner."""
        state = summary(match)
        if self.jsonl:
            self.out.write(json.dumps({"code": "state", **state}, ensure_ascii=False) + "\n")
            return
        for p in state["players"]:
            self.out.write(
                f"{p['surname']}: {p['points']} πόντοι, {p['innings']} είσοδοι, "
                f"μέσος όρος {p['average']:.3f}, μεγαλύτερη σειρά {p['highest_run']}\n"
            )
        self.out.write(f"νικητής: {state['winner'] or '-'}\n")


def simulate(ledger: Ledger, lines: Iterable[str], announcer: Printer) -> None:
    """Feed each phrase to the ledger and voice what it says, then write the final state."""
    for text in phrases(lines):
        said = ledger.hear(text)
        announcer.say(said)
        if ledger.written is not None:
            ledger.mark_announced(ledger.written)
    announcer.state(ledger.match)


def add_play_arguments(parser: argparse.ArgumentParser) -> None:
    """--input, --jsonl, --wav and --db: what `simulate` and `resume` share."""
    parser.add_argument("--input", help="UTF-8 file, one phrase a line (default: standard input)")
    parser.add_argument("--jsonl", action="store_true", help="one JSON object per announcement")
    parser.add_argument("--wav", type=Path, help="also render each PA announcement to a WAV here")
    add_db_argument(parser)


def register(sub: argparse._SubParsersAction) -> None:
    """Add `simulate` to the command line."""
    sim = sub.add_parser("simulate", help="run a new, recorded match from transcribed phrases")
    add_setup_arguments(sim)
    add_play_arguments(sim)
    sim.set_defaults(run=run)


def read_lines(path: str | None) -> tuple[Iterable[str], str]:
    """The input's lines (standard input when no path) and how to name it in errors."""
    if path is None:
        return io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8"), "standard input"
    where = f"--input {path}"
    try:
        return Path(path).read_text(encoding="utf-8").splitlines(), where
    except UnicodeDecodeError as error:
        raise UsageError(f"{where} is not UTF-8 text: {error}") from None
    except OSError as error:
        raise UsageError(f"cannot read {where}: {error.strerror}") from None
    except ValueError as error:  # a path with a NUL character in it
        raise UsageError(f"cannot read {where}: {error}") from None


def announcer(args: argparse.Namespace) -> Printer:
    """The announcer that --jsonl and --wav ask for, writing to standard output."""
    return Printer(sys.stdout, args.jsonl, args.wav)


def play(ledger: Ledger, voice: Printer, lines: Iterable[str], where: str) -> None:
    """Run the phrases of `lines` through the recorded match, as `simulate` and `resume` do."""
    try:
        simulate(ledger, lines, voice)
    except UnicodeDecodeError as error:
        raise UsageError(
            f"{where} is not UTF-8 text: {error}; match {ledger.match_id} is recorded up to "
            f"there — `referee resume {ledger.match_id} --db {ledger.record.path}` continues it"
        ) from None


def run(args: argparse.Namespace) -> int:
    """`referee simulate`."""
    setup = setup_from(args)
    lines, where = read_lines(args.input)
    voice = announcer(args)
    with Record.open(args.db) as record:
        play(Ledger(record, record.create_match(setup)), voice, lines, where)
    return 0
