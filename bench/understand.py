"""Wrong and false commands on tests/data/understand.tsv, through `referee understand`'s own
code: of the command utterances, the share taken as another command (wrong) and as the meant one
(right); of the other speech and noise, the share taken as a command (false). Per source, per
voice and per noise level. Targets: wrong ≤ 1 %, false ≤ 1 %.

    .venv/bin/python bench/understand.py [--threshold N]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from rules.command import Command, Kind
from voice.cli.main import main as referee

CORPUS = Path(__file__).resolve().parents[1] / "tests" / "data" / "understand.tsv"
PLAYERS = "Παπαδόπουλος,Κωνσταντίνου"
TARGET = 0.01  # the most wrong commands (of command utterances) and false commands (of others)


@dataclass(frozen=True)
class Row:
    """One transcript of the corpus and what the referee meant by it (None: no command)."""

    heard: str
    meant: Command | None
    discipline: str
    source: str  # "hand: …", or "whisper VOICE/RATE/LEVEL"
    said: str


def read_corpus(path: Path = CORPUS) -> list[Row]:
    """The rows of a corpus file: heard, meant, discipline, source, said (tab-separated)."""
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            continue
        heard, meant, name, source, said = line.split("\t")
        rows.append(Row(heard, meant_command(meant), name, source, said))
    return rows


def meant_command(text: str) -> Command | None:
    """ "-" (none), "KIND", "KIND SURNAME", "ball_off COLOUR,…" or "KIND FRAME …"."""
    if text == "-":
        return None
    kind, *args = text.split(" ")
    if not args:
        return Command(Kind(kind))
    if kind == "ball_off":
        return Command(Kind.BALL_OFF, balls=tuple(args[0].split(",")))
    if args[0].isdigit():
        return Command(Kind(kind), frames=tuple(int(a) for a in args))
    return Command(Kind(kind), player=" ".join(args))


def understood(rows: Sequence[Row], *options: str) -> list[Command | None]:
    """What `referee understand --players PLAYERS [options]` makes of each row's transcript."""
    got: dict[int, Command | None] = {}
    for name in dict.fromkeys(r.discipline for r in rows):
        chosen = [i for i, r in enumerate(rows) if r.discipline == name]
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "heard.txt"
            path.write_text("".join(rows[i].heard + "\n" for i in chosen), encoding="utf-8")
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                code = referee(["understand", "--input", str(path), "--discipline", name,
                                "--players", PLAYERS, *options])
            assert code == 0
        answers = [json.loads(line)["command"] for line in out.getvalue().splitlines()]
        got.update(zip(chosen, (Command.from_dict(a) if a else None for a in answers),
                       strict=True))
    return [got[i] for i in range(len(rows))]


@dataclass(frozen=True)
class Tally:
    """Counts over some rows: command utterances, wrong and right; others, false."""

    commands: int
    wrong: int
    right: int
    others: int
    false: int

    def line(self, name: str) -> str:
        """The rates, each with its count."""
        def rate(part: int, whole: int) -> str:
            return f"{100 * part / whole:5.1f} % ({part}/{whole})" if whole else "    -"
        return (f"{name:24} wrong {rate(self.wrong, self.commands):18} false "
                f"{rate(self.false, self.others):18} right {rate(self.right, self.commands)}")


def tally(pairs: Iterable[tuple[Row, Command | None]]) -> Tally:
    """Wrong, right and false commands among (row, what was understood) pairs."""
    counts = [0, 0, 0, 0, 0]
    for row, got in pairs:
        if row.meant is None:
            counts[3] += 1
            counts[4] += got is not None
        else:
            counts[0] += 1
            counts[1] += got is not None and got != row.meant
            counts[2] += got == row.meant
    return Tally(*counts)


def groups(row: Row) -> list[str]:
    """The groups a row is counted in: its source, and a Whisper row's voice and noise level."""
    if not row.source.startswith("whisper "):
        return ["hand-written"]
    voice, rate, level = row.source.removeprefix("whisper ").split("/")
    return ["whisper", f"whisper {voice}/{rate}", f"whisper {level}"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--threshold", help="as `referee understand --threshold`")
    args = parser.parse_args()
    rows = read_corpus()
    got = understood(rows, *(["--threshold", args.threshold] if args.threshold else []))
    names = dict.fromkeys(name for row in rows for name in groups(row))
    for name in sorted(names, key=lambda n: (n != "hand-written", n != "whisper", n)):
        print(tally((r, g) for r, g in zip(rows, got, strict=True) if name in groups(r))
              .line(name))
    whole = tally(zip(rows, got, strict=True))
    print(whole.line("all"))
    print(f"targets: wrong ≤ {100 * TARGET:g} %, false ≤ {100 * TARGET:g} %")


if __name__ == "__main__":
    main()
