"""Kill soak: SIGKILL `referee simulate` and `referee resume` at random moments, check the record.

Each round runs `referee simulate --db` (a new match) or `referee resume --db` in a subprocess,
feeds it phrases through standard input and kills it with SIGKILL at a random moment: while it
starts, between two phrases, or while it takes one. After every round a fresh `Record` must hold
every event whose announcement came out (the child announces only after the commit), nothing
it was not given, in order, and no event marked announced whose announcement never came out;
the next `resume` must announce what the replay of the record says. Prints the figures as JSON;
exits 1 if any check failed.

    .venv/bin/python bench/kill_soak.py --kills 500 --seed 1
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import queue
import random
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

from rules.command import Command, Kind
from rules.grammar import grammar, parse
from rules.state import Match, Setup, new_match
from rules.summary import summary
from voice.match_record.database import Record
from voice.session import Session
from voice.speaking.printer import utterance_json

STATUS = re.compile(r"match \d+ recorded in .*\n?")  # what simulate and resume say first

PLAYERS = ("Παπαδόπουλος", "Κωνσταντίνου")
DISCIPLINES = ("libre", "cadre-47-2", "three-cushion", "cadre-71-2", "one-cushion", "cadre-47-1")
DISTANCE = 25
KILLS_PER_MATCH = 10
MAX_PHRASES = 40
LINE_SECONDS = 30.0  # a child that says nothing for this long has stalled
REFEREE = ("-m", "voice.cli.main")  # what `Child` runs unless told otherwise
COMMON = [("πόντος", 40), ("άστοχο", 20), ("διόρθωση", 7), ("σκορ", 3)]


@dataclass
class Figures:
    """What the soak did, and each way it could have gone wrong (those must stay 0)."""

    kills: int = 0
    rounds: int = 0
    matches: int = 0
    phrases_sent: int = 0
    events_recorded: int = 0
    seconds: float = 0.0
    events_lost: int = 0  # announced by the child, missing from the record after the kill
    events_unexpected: int = 0  # in the record but not what the phrases sent lead to
    announced_unheard: int = 0  # marked announced though its announcement never came out
    output_mismatches: int = 0  # a line the child wrote that the replay does not predict
    stalls: int = 0
    child_errors: int = 0
    stray_files: int = 0  # left next to the record: a new record's aside file, killed mid-make

    def failures(self) -> int:
        """How many checks failed (a stray file is litter, not a failure: it is never read)."""
        return (self.events_lost + self.events_unexpected + self.announced_unheard
                + self.output_mismatches + self.stalls + self.child_errors)


class Child:
    """`referee` (or the Python script `program`) in a subprocess whose standard output is read
    line by line on a thread."""

    def __init__(self, args: list[str], program: tuple[str, ...] = REFEREE) -> None:
        self.process = subprocess.Popen(
            [sys.executable, *program, *args],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True, encoding="utf-8",
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.received: list[str] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        """The reader thread: every line the child writes, then None at its end."""
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, text: str, close: bool = False) -> None:
        """Write to the child's standard input (nothing if it is gone); close it if asked."""
        with contextlib.suppress(BrokenPipeError, OSError):
            self.process.stdin.write(text)
            self.process.stdin.flush()
            if close:
                self.process.stdin.close()

    def read(self, count: int) -> bool:
        """Wait for `count` more lines; False if the child stalled or ended first."""
        for _ in range(count):
            try:
                line = self.lines.get(timeout=LINE_SECONDS)
            except queue.Empty:
                return False
            if line is None:
                self.lines.put(None)
                return False
            self.received.append(line)
        return True

    def kill(self) -> None:
        """SIGKILL: the child gets no chance to clean up or flush anything."""
        os.kill(self.process.pid, signal.SIGKILL)

    def finish(self) -> tuple[int, str]:
        """Wait for the end; every line written before it is in `received`. Exit code, and
        stderr without the status line that says where the match is recorded."""
        code = self.process.wait(timeout=LINE_SECONDS)
        self.reader.join(timeout=LINE_SECONDS)
        while (line := self.lines.get()) is not None:
            self.received.append(line)
        error = "".join(line for line in self.process.stderr if not STATUS.fullmatch(line))
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            with contextlib.suppress(BrokenPipeError, OSError):
                stream.close()
        return code, error


def said(session: Session, command: Command) -> list[str]:
    """The JSONL lines the child writes for `command`."""
    return [utterance_json(u) for u in session.command(command)]


def preamble(record: Record, match_id: int) -> tuple[list[tuple[str, int]], Match]:
    """What `resume` must say first, each line with its event (0: the score); and the state."""
    loaded = record.load(match_id)
    session = Session(new_match(loaded.setup))
    lines = []
    for event in loaded.events:
        out = said(session, event.command)
        if not event.announced:
            lines.extend((line, event.seq) for line in out)
    assert session.match == loaded.match
    lines.extend((line, 0) for line in said(session, Command(Kind.SCORE)))
    return lines, loaded.match


class Soak:
    """The soak's state between rounds: the record, the match being played, what came out."""

    def __init__(self, db: Path, seed: int) -> None:
        self.db = db
        self.rng = random.Random(seed)
        self.figures = Figures()
        self.match_id: int | None = None
        self.setup = Setup(DISCIPLINES[0], DISTANCE, PLAYERS)
        self.heard: set[tuple[int, int]] = set()  # (match, seq) whose announcement came out
        self.sentences = grammar().sentences(PLAYERS)

    def phrase(self) -> str:
        """A random phrase: mostly points and misses, some corrections, any sentence at all."""
        if self.rng.random() < 0.7:
            words, weights = zip(*COMMON, strict=True)
            return self.rng.choices(words, weights)[0]
        return self.rng.choice(self.sentences)

    def run(self, kills: int) -> Figures:
        """Rounds until `kills` kills, a new match (the next discipline) every few kills."""
        started = time.monotonic()
        while self.figures.kills < kills:
            if self.figures.kills >= KILLS_PER_MATCH * self.figures.matches:
                discipline = DISCIPLINES[self.figures.matches % len(DISCIPLINES)]
                self.setup = Setup(discipline, DISTANCE, PLAYERS)
                self.match_id = None
            self.round()
        self.figures.seconds = round(time.monotonic() - started, 1)
        with Record.open(self.db, create=False) as record:
            self.figures.events_recorded = sum(
                len(record.load(e.id).events) for e in record.matches()
            )
        kept = {self.db.name, f"{self.db.name}-wal", f"{self.db.name}-shm"}
        self.figures.stray_files = sum(p.name not in kept for p in self.db.parent.iterdir())
        return self.figures

    def ids(self) -> set[int]:
        """The matches in the record (none while there is no record)."""
        if not self.db.exists():
            return set()
        with Record.open(self.db, create=False) as record:
            return {e.id for e in record.matches()}

    def round(self) -> None:
        """One child: start it, feed it phrases, kill it (mostly), then check the record."""
        before: list[Command] = []
        expected: list[tuple[str, int, int]] = []  # line, event it announces (0), phrase (-1)
        known = self.ids()
        if self.match_id is None:
            session = Session(new_match(self.setup))
            child = Child(["simulate", "--discipline", self.setup.discipline, "--distance",
                           str(DISTANCE), "--players", ",".join(PLAYERS), "--db", str(self.db),
                           "--jsonl"])
        else:
            with Record.open(self.db, create=False) as record:
                opening, state = preamble(record, self.match_id)
                before = list(record.load(self.match_id).commands)
            expected = [(line, seq, -1) for line, seq in opening]
            session = Session(state)
            child = Child(["resume", str(self.match_id), "--db", str(self.db), "--jsonl"])

        phrases = [self.phrase() for _ in range(self.rng.randint(1, MAX_PHRASES))]
        accepted: list[tuple[int, Command]] = []  # (phrase, command) in the order taken
        starts: list[int] = []  # where each phrase's lines start in `expected`
        for index, text in enumerate(phrases):
            starts.append(len(expected))
            was = session.match
            lines = [utterance_json(u) for u in session.hear(text)]
            seq = 0
            if session.match is not was:
                accepted.append((index, parse(text, PLAYERS)))
                seq = len(before) + len(accepted)
            expected.extend((line, seq, index) for line in lines)

        mode = self.rng.random()
        killed = mode >= 0.1
        if mode < 0.1:  # no kill: the match must end in the state the replay gives
            child.send("".join(f"{p}\n" for p in phrases), close=True)
        elif mode < 0.2:  # anywhere: while starting, opening the record, taking phrases
            child.send("".join(f"{p}\n" for p in phrases))
            time.sleep(self.rng.uniform(0, 0.6))
            child.kill()
        else:  # paced: each phrase answered before the next; the kill while one is taken
            victim = self.rng.randrange(len(phrases))
            stalled = not child.read(starts[0])
            for index in range(victim):
                if stalled:
                    break
                child.send(f"{phrases[index]}\n")
                stalled = not child.read(starts[index + 1] - len(child.received))
            if not stalled:
                child.send(f"{phrases[victim]}\n")
                time.sleep(self.rng.choice([0, self.rng.uniform(0, 0.004)]))
            child.kill()
            self.figures.stalls += stalled
        code, error = child.finish()
        self.figures.rounds += 1
        self.figures.kills += killed
        self.figures.phrases_sent += len(phrases)
        if code != (-signal.SIGKILL if killed else 0) or error:
            self.figures.child_errors += 1
        self.check(child.received, expected, before, accepted, killed, known)

    def check(
        self,
        received: list[str],
        expected: list[tuple[str, int, int]],
        before: list[Command],
        accepted: list[tuple[int, Command]],
        killed: bool,
        known: set[int],
    ) -> None:
        """Compare what came out and what the record holds with what the phrases lead to."""
        figures = self.figures
        if self.match_id is None:
            new = sorted(self.ids() - known)
            if not new:  # killed before it recorded the match: it must not have spoken
                figures.output_mismatches += bool(received)
                return
            self.match_id = new[0]
            figures.matches += 1
        with Record.open(self.db, create=False) as record:
            loaded = record.load(self.match_id)
        stored = list(loaded.commands)

        lines = [line for line, _, _ in expected]
        if not killed:
            state = {"code": "state", **summary(loaded.match)}
            lines.append(json.dumps(state, ensure_ascii=False))
        same = 0
        while same < min(len(received), len(lines)) and received[same] == lines[same]:
            same += 1
        if same < len(received) or (not killed and same < len(lines)):
            figures.output_mismatches += 1

        # A line out means its phrase was taken, and every phrase before it: all committed.
        last = max((phrase for _, _, phrase in expected[:same]), default=-1)
        confirmed = len(before) + sum(1 for phrase, _ in accepted if phrase <= last)
        sent = before + [command for _, command in accepted]
        common = 0
        while common < min(len(stored), len(sent)) and stored[common] == sent[common]:
            common += 1
        figures.events_lost += max(0, confirmed - common)
        figures.events_unexpected += len(stored) - common

        out = {seq for _, seq, _ in expected[:same]} - {seq for _, seq, _ in expected[same:]}
        silent = set(range(len(before) + 1, len(sent) + 1)) - {seq for _, seq, _ in expected}
        self.heard |= {(self.match_id, seq) for seq in out | silent if seq}
        unheard = {(self.match_id, e.seq) for e in loaded.events if e.announced} - self.heard
        figures.announced_unheard += len(unheard)
        self.heard |= unheard  # counted once


def arguments(description: str) -> argparse.ArgumentParser:
    """The options every soak takes: --seed and --dir."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--seed", type=int, default=1, help="the random seed (1)")
    parser.add_argument("--dir", type=Path, help="where the record goes (default: a temp dir)")
    return parser


@contextlib.contextmanager
def folder(given: Path | None, prefix: str) -> Iterator[Path]:
    """Where the soak keeps its record: `given` (made if missing), or a temporary directory."""
    with tempfile.TemporaryDirectory(prefix=prefix) as temporary:
        chosen = (given or Path(temporary)).resolve()
        chosen.mkdir(parents=True, exist_ok=True)
        yield chosen


def main() -> int:
    """Run the soak and print its figures."""
    parser = arguments(__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=500, help="SIGKILLs to survive (500)")
    args = parser.parse_args()
    with folder(args.dir, "kill-soak-") as where:
        figures = Soak(where / "matches.sqlite3", args.seed).run(args.kills)
    print(json.dumps(asdict(figures), indent=2))
    return 1 if figures.failures() else 0


if __name__ == "__main__":
    sys.exit(main())
