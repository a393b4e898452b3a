"""`referee simulate`: run a match from a file of transcribed phrases, without real time."""

from __future__ import annotations

import argparse
import io
import json
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TextIO

from phrases.render import Utterance
from rules.state import new_match
from rules.summary import summary
from voice.arguments import UsageError, add_setup_arguments, setup_from
from voice.session import Session


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


def simulate(
    session: Session,
    lines: Iterable[str],
    out: TextIO,
    jsonl: bool = False,
    wav_dir: Path | None = None,
) -> None:
    """Feed each phrase to the session and write its announcements, then the final state."""
    speaker = None
    if wav_dir is not None:
        from voice.speak import Synthesiser

        wav_dir.mkdir(parents=True, exist_ok=True)
        speaker = Synthesiser()
    count = 0
    for text in phrases(lines):
        for utterance in session.hear(text):
            out.write((as_json(utterance) if jsonl else show(utterance)) + "\n")
            if speaker is not None and utterance.channel == "pa":
                count += 1
                speaker.render_wav(utterance.text, wav_dir / f"{count:04d}-{utterance.code}.wav")
        out.flush()
    state = summary(session.match)
    if jsonl:
        out.write(json.dumps({"code": "state", **state}, ensure_ascii=False) + "\n")
    else:
        for p in state["players"]:
            out.write(
                f"{p['surname']}: {p['points']} πόντοι, {p['innings']} είσοδοι, "
                f"μέσος όρος {p['average']:.3f}, μεγαλύτερη σειρά {p['highest_run']}\n"
            )
        out.write(f"νικητής: {state['winner'] or '-'}\n")


def register(sub: argparse._SubParsersAction) -> None:
    """Add `simulate` to the command line."""
    sim = sub.add_parser("simulate", help="run a match from transcribed phrases")
    add_setup_arguments(sim)
    sim.add_argument("--input", help="UTF-8 file, one phrase a line (default: standard input)")
    sim.add_argument("--jsonl", action="store_true", help="one JSON object per announcement")
    sim.add_argument("--wav", type=Path, help="also render each PA announcement to a WAV here")
    sim.set_defaults(run=run)


def read_lines(path: str | None) -> tuple[Iterable[str], str]:
    """The input's lines (standard input when no path) and how to name it in errors."""
    if path is None:
        return io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8"), "standard input"
    where = f"--input {path}"
    try:
        return Path(path).read_text(encoding="utf-8").splitlines(), where
    except OSError as error:
        raise UsageError(f"cannot read {where}: {error.strerror}") from None
    except UnicodeDecodeError as error:
        raise UsageError(f"{where} is not UTF-8 text: {error}") from None


def run(args: argparse.Namespace) -> int:
    """`referee simulate`."""
    setup = setup_from(args)
    lines, where = read_lines(args.input)
    try:
        simulate(Session(new_match(setup)), lines, sys.stdout, args.jsonl, args.wav)
    except UnicodeDecodeError as error:
        raise UsageError(f"{where} is not UTF-8 text: {error}") from None
    return 0
