"""Record soak: many processes on ONE record file, any of them SIGKILLed at random, nothing lost.

Two `referee serve` servers (written to through their panel API, read through GET
/api/matches/{id}), `referee simulate --db` fed phrases through standard input, a plain Python
writer (bench/ledger_writer.py, a `Ledger`), and readers (`referee matches`, `referee export`)
share one record for `--minutes`; a killer SIGKILLs one of them every few seconds (a killed server
is started again). A write is acknowledged by a 200 reply carrying "recorded": SEQ, by the
announcement `simulate --jsonl` prints after the commit, or by the writer's {"recorded": SEQ}.

At the end, from a fresh connection: every acknowledged event is found once, with its command,
at a number above everything acknowledged before it was asked for; an event nobody acknowledged
is allowed only where a writer was killed (or cut off) with that write in flight ("committed,
unacknowledged"). Meanwhile: PRAGMA integrity_check every few seconds from a fresh connection,
each child's descriptors (/proc/PID/fd) never name a deleted file of the record, and each read
shows at least what was acknowledged before it began. Prints one JSON line, then a table;
exits 1 if any check failed.

    nice -n 10 .venv/bin/python bench/record_soak.py --minutes 10 --seed 1
"""

from __future__ import annotations

import http.client
import json
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager, suppress
from dataclasses import asdict, dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests.support, run from anywhere

from bench.kill_soak import (
    COMMON,
    LINE_SECONDS,
    PLAYERS,
    REFEREE,
    Child,
    arguments,
    folder,
)
from rules.command import Kind
from rules.grammar import parse
from rules.state import MAX_DISTANCE, Setup, new_match
from tests.support.server import deleted_files, free_port, wait_for
from voice.match_record.database import Record
from voice.session import Session
from voice.speaking.printer import utterance_json

LEDGER_WRITER = (str(Path(__file__).with_name("ledger_writer.py")),)
SETUP = Setup("libre", MAX_DISTANCE, PLAYERS)  # no match ends: every point and miss is taken
KINDS = (Kind.POINT, Kind.MISS)
WORDS = [word for word, _ in COMMON if parse(word, PLAYERS).kind in KINDS]
SHARED = 2  # matches every server and the ledger writer write to, made before the soak
SERVERS = 2
CLI_READERS = 2  # `referee matches` / `referee export` loops, each one process at a time
KILL_GAP = (0.3, 2.5)  # seconds between two kills
INTEGRITY_SECONDS = 10.0  # how often PRAGMA integrity_check runs from a fresh connection
SCAN_SECONDS = 0.5  # how often every child's descriptors are looked at
HTTP_SECONDS = 30.0  # a reply slower than this is a stall (the record's busy wait is 10 s)
SHOWN_SECONDS = 5.0  # how long a server's board may take to show what others acknowledged
MAX_BATCH = 40  # commands (phrases) one writer process is given before it ends
MAX_STEPS = 1_000_000  # no loop of the soak goes round more often than this
PROBLEMS_KEPT = 10
STARTED = "hall overview "  # how the line `referee serve` writes once it listens begins
FAILURES = {  # each way the soak can go wrong, with what it means: every count must stay 0
    "events_lost": "acknowledged, then missing from the record or another command there",
    "events_duplicated": "one event number acknowledged to two writers, or stored twice",
    "events_unexpected": "found, acknowledged to nobody, and no write in flight to explain it",
    "out_of_order": "numbered at or below one acknowledged before it was asked for, or a gap",
    "integrity_errors": "PRAGMA integrity_check said something other than ok",
    "deleted_descriptors": "children seen holding a deleted file of the record open",
    "stale_reads": "a read showing less than was acknowledged before it began",
    "vanished": "an event a reader saw that the record no longer holds",
    "child_errors": "a child that failed, stalled or answered an error without being killed",
}


@dataclass
class Figures:
    """What the soak did, and how often each of FAILURES happened."""

    kills: dict[str, int] = field(default_factory=dict)  # by role: serve, simulate, …
    minutes: float = 0.0
    seed: int = 0
    processes_started: int = 0
    most_processes_at_once: int = 0
    ports_taken: int = 0  # a server's free port taken by another program before it listened
    failed: dict[str, int] = field(default_factory=lambda: dict.fromkeys(FAILURES, 0))
    events_acknowledged: int = 0
    events_found: int = 0
    committed_unacknowledged: int = 0  # found, not acknowledged, its writer killed in flight
    reads: int = 0
    integrity_checks: int = 0
    problems: list[str] = field(default_factory=list)  # the first few, to start looking from


@contextmanager
def fresh(db: Path) -> Iterator[sqlite3.Connection]:
    """A new read-only connection to the record, closed after the block."""
    with closing(sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True, timeout=HTTP_SECONDS)) as new:
        yield new


def integrity(db: Path) -> list[str]:
    """What PRAGMA integrity_check says of the record, from a fresh connection."""
    with fresh(db) as connection:
        return [row[0] for row in connection.execute("PRAGMA integrity_check")]


def match_ids(db: Path) -> set[int]:
    """The matches in the record, from a fresh connection."""
    with fresh(db) as connection:
        return {row[0] for row in connection.execute("SELECT id FROM matches")}


def events_in(db: Path) -> tuple[dict[int, dict[int, str]], int]:
    """From a fresh connection: each match's events (number: command kind), and how many event
    numbers are stored more than once."""
    found: dict[int, dict[int, str]] = {match_id: {} for match_id in match_ids(db)}
    twice = 0
    with fresh(db) as connection:
        for match_id, seq, command, copies in connection.execute(
            "SELECT match_id, seq, min(command), count(*) FROM events GROUP BY match_id, seq"
        ):
            found[match_id][seq] = json.loads(command)["kind"]
            twice += copies - 1
    return found, twice


class Soak:
    """The processes, what each writer was told, and the figures, shared by the soak's threads."""

    def __init__(self, folder: Path, seed: int, seconds: float) -> None:
        self.db = folder / "matches.sqlite3"
        self.folder = folder
        self.seed = seed
        self.deadline = time.monotonic() + seconds
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.figures = Figures(minutes=round(seconds / 60, 3), seed=seed)
        self.children: dict[int, tuple[str, subprocess.Popen[str]]] = {}  # pid: role, process
        self.urls: list[str | None] = [None] * SERVERS
        self.acks: dict[tuple[int, int], list[str]] = defaultdict(list)  # (match, seq): kinds
        self.newest: Counter[int] = Counter()  # each match's newest acknowledged event
        self.in_flight: Counter[int] = Counter()  # per match: writes whose outcome is unknown
        self.seen: dict[tuple[int, int], str] = {}  # what readers saw: (match, seq): kind
        self.matches: list[int] = []  # the shared ones, then each simulate's
        self.shared: list[int] = []
        self.deleted: set[int] = set()  # pids seen holding a deleted file of the record

    # --- bookkeeping, under the lock -------------------------------------------------------

    def problem(self, figure: str, text: str) -> None:
        """Count one failure of `figure`, keeping its description if it is among the first."""
        with self.lock:
            self.figures.failed[figure] += 1
            if len(self.figures.problems) < PROBLEMS_KEPT:
                self.figures.problems.append(f"{figure}: {text}"[:500])

    def count(self, figure: str) -> None:
        """One more of `figure`."""
        with self.lock:
            setattr(self.figures, figure, getattr(self.figures, figure) + 1)

    def acknowledge(self, match_id: int, seq: int, kind: str, before: int) -> None:
        """Writer told that `kind` is event `seq` of the match; `before` was the newest
        acknowledged when it asked."""
        if seq <= before:
            self.problem("out_of_order", f"match {match_id}: {seq} after {before}")
        with self.lock:
            self.acks[match_id, seq].append(kind)
            self.newest[match_id] = max(self.newest[match_id], seq)

    def uncertain(self, match_id: int, writes: int = 1) -> None:
        """`writes` writes to the match were cut off: each may have been committed or not."""
        with self.lock:
            self.in_flight[match_id] += writes

    @contextmanager
    def child(self, role: str, process: subprocess.Popen[str]) -> Iterator[None]:
        """Let the killer and the scanner see `process` while the block runs."""
        with self.lock:
            self.children[process.pid] = (role, process)
            self.figures.processes_started += 1
            self.figures.most_processes_at_once = max(
                self.figures.most_processes_at_once, len(self.children))
        try:
            yield
        finally:
            with self.lock:
                del self.children[process.pid]

    def ended(self, role: str, code: int, error: str) -> bool:
        """Whether the child exited 0 saying nothing on its standard error; a failure unless it
        did or the soak killed it."""
        if code == 0 and not error:
            return True
        if code != -signal.SIGKILL:
            self.problem("child_errors", f"{role} exited with {code}: {error.strip()[-300:]}")
        return False

    def steps(self) -> Iterator[int]:
        """A loop's rounds: until the end of the soak, and never more than MAX_STEPS."""
        for step in range(MAX_STEPS):
            if self.stop.is_set() or time.monotonic() > self.deadline:
                return
            yield step

    # --- the actors, one thread each -------------------------------------------------------

    def serve(self, slot: int) -> None:
        """Keep server `slot` running: started again whenever it is killed."""
        for step in self.steps():
            port = free_port()
            log = self.folder / f"serve-{slot}-{step}.log"
            with log.open("w") as errors:
                process = subprocess.Popen(
                    [sys.executable, *REFEREE, "serve", "--db", str(self.db), "--port", str(port)],
                    stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=errors, text=True)
            with self.child("serve", process):
                with suppress(AssertionError):  # killed while starting, or failed: see its code
                    wait_for(port, process)
                    self.urls[slot] = f"http://127.0.0.1:{port}"
                while process.poll() is None and not self.stop.wait(0.1):
                    if time.monotonic() > self.deadline:
                        break
                self.urls[slot] = None
                if process.poll() is None:
                    process.kill()
                code = process.wait(timeout=LINE_SECONDS)
            said = [line for line in log.read_text().splitlines() if not line.startswith(STARTED)]
            if code == 2 and said and f"cannot listen on 127.0.0.1:{port}:" in said[-1]:
                self.count("ports_taken")  # the next round tries another port
                continue
            self.ended("serve", code if code != -signal.SIGKILL or said else 0, "\n".join(said))

    def post(self, slot: int) -> None:
        """Commands to the shared matches through server `slot`'s panel API, one at a time."""
        rng = random.Random(f"{self.seed}-post-{slot}")
        for _ in self.steps():
            url = self.urls[slot]
            if url is None:
                self.stop.wait(0.05)
                continue
            match_id, kind = rng.choice(self.shared), rng.choice(KINDS).value
            before = self.newest[match_id]
            request = urllib.request.Request(
                f"{url}/api/matches/{match_id}/commands", json.dumps({"kind": kind}).encode(),
                {"Content-Type": "application/json"})
            try:
                with urllib.request.urlopen(request, timeout=HTTP_SECONDS) as response:
                    reply = json.load(response)
            except urllib.error.HTTPError as error:
                self.uncertain(match_id)  # a 503 may come after the commit
                self.problem("child_errors", f"serve answered {error.code}: {error.read()!r}")
                continue
            except (OSError, ValueError, http.client.HTTPException) as error:
                reason = getattr(error, "reason", error)
                if not isinstance(reason, ConnectionRefusedError):  # refused: never sent
                    self.uncertain(match_id)  # cut off: the server was killed meanwhile
                if isinstance(reason, TimeoutError):
                    self.problem("child_errors", f"serve gave no reply in {HTTP_SECONDS} s")
                continue
            self.acknowledged(match_id, reply["recorded"], kind, before)

    def acknowledged(self, match_id: int, seq: int | None, kind: str, before: int) -> None:
        """`acknowledge` a writer's reply; a refusal is a failure (no match of the soak ends)."""
        if seq is None:
            self.problem("child_errors", f"{kind} refused in match {match_id}")
        else:
            self.acknowledge(match_id, seq, kind, before)

    def ledger_writer(self) -> None:
        """Batches of commands to a shared match through bench/ledger_writer.py."""
        rng = random.Random(f"{self.seed}-ledger")
        for _ in self.steps():
            match_id = rng.choice(self.shared)
            child = Child([str(self.db), str(match_id)], program=LEDGER_WRITER)
            cut = False  # no answer came to the last command: killed, or stalled
            with self.child("ledger", child.process):
                for _ in range(rng.randint(1, MAX_BATCH)):
                    if self.stop.is_set():
                        break
                    kind = rng.choice(KINDS).value
                    before = self.newest[match_id]
                    child.send(f"{kind}\n")
                    if cut := not child.read(1):
                        self.uncertain(match_id)
                        break
                    self.acknowledged(match_id, json.loads(child.received[-1])["recorded"],
                                      kind, before)
                self.done("ledger", child, cut)

    def simulate(self) -> None:
        """`referee simulate --db --jsonl`, a new match each time, fed phrases one by one."""
        rng = random.Random(f"{self.seed}-simulate")
        for _ in self.steps():
            known = match_ids(self.db)
            session = Session(new_match(SETUP))
            child = Child(["simulate", "--discipline", SETUP.discipline, "--distance",
                           str(SETUP.distance), "--players", ",".join(PLAYERS), "--db",
                           str(self.db), "--jsonl"])
            sent: list[str] = []
            heard: list[str] = []  # the lines the phrases announced so far must print
            told = 0  # phrases announced: committed, every one
            with self.child("simulate", child.process):
                for _ in range(rng.randint(1, MAX_BATCH)):
                    if self.stop.is_set():
                        break
                    word = rng.choice(WORDS)
                    lines = [utterance_json(u) for u in session.hear(word)]
                    child.send(f"{word}\n")
                    sent.append(parse(word, PLAYERS).kind.value)
                    if not child.read(len(lines)):
                        break
                    heard.extend(lines)
                    told += 1
                self.done("simulate", child, told < len(sent))
            if child.received[:len(heard)] != heard:  # the state line follows a normal end
                self.problem("child_errors", f"simulate said {child.received[-2:]}")
            self.made(known, sent, told)

    def made(self, known: set[int], sent: list[str], told: int) -> None:
        """Check in the match a simulate round made: `told` of the `sent` were announced."""
        new = sorted(match_ids(self.db) - known)
        if len(new) > 1:
            self.problem("events_unexpected", f"one simulate made matches {new}")
        if not new:
            if told:
                self.problem("events_lost", f"simulate announced {told}, made no match")
            return
        with self.lock:
            self.matches.append(new[0])
        for seq, kind in enumerate(sent[:told], start=1):
            self.acknowledge(new[0], seq, kind, seq - 1)
        self.uncertain(new[0], len(sent) - told)

    def read_cli(self, slot: int) -> None:
        """`referee matches` and `referee export`: each must show what was acknowledged."""
        rng = random.Random(f"{self.seed}-read-{slot}")
        for _ in self.steps():
            with self.lock:
                before = dict(self.newest)
                listed = list(self.matches)
            match_id = rng.choice(listed)
            args = ["matches"] if rng.random() < 0.3 else ["export", str(match_id)]
            child = Child([*args, "--db", str(self.db)])
            child.send("", close=True)
            with self.child(args[0], child.process):
                clean = self.finish(args[0], child)
            if clean:
                self.count("reads")
                self.shown(args[0], child.received, match_id, before, listed)

    def shown(self, role: str, lines: list[str], match_id: int, before: dict[int, int],
              listed: list[int]) -> None:
        """Check what a reader printed against what was acknowledged before it began."""
        if role == "matches":
            ids = {int(word) for line in lines[1:] for word in line.split()[:1] if word.isdigit()}
            if missing := set(listed) - ids:
                self.problem("stale_reads", f"matches did not list {sorted(missing)}")
            if any("cannot be replayed" in line for line in lines):
                self.problem("child_errors", f"matches: {lines[-1]}")
            return
        events = json.loads("\n".join(lines))["events"]
        if [e["seq"] for e in events] != list(range(1, len(events) + 1)):
            self.problem("out_of_order", f"export {match_id} numbered its events with gaps")
        if len(events) < before.get(match_id, 0):
            self.problem("stale_reads", f"export {match_id}: {len(events)} events, "
                         f"{before[match_id]} acknowledged before")
        with self.lock:
            self.seen.update({(match_id, e["seq"]): e["command"]["kind"] for e in events})

    def read_boards(self) -> None:
        """GET /api/matches/{id} from either server: its board must catch up with the acks."""
        rng = random.Random(f"{self.seed}-boards")
        for _ in self.steps():
            url = rng.choice(self.urls)
            if url is None:
                self.stop.wait(0.05)
                continue
            match_id = rng.choice(self.shared)
            before = self.newest[match_id]
            deadline = time.monotonic() + SHOWN_SECONDS
            try:
                for _ in range(MAX_STEPS):
                    with urllib.request.urlopen(f"{url}/api/matches/{match_id}",
                                                timeout=HTTP_SECONDS) as response:
                        shown = int(json.load(response)["seq"])
                    if shown >= before or time.monotonic() > deadline:
                        break
                    time.sleep(0.05)
            except (OSError, ValueError, http.client.HTTPException):
                continue  # the server was killed meanwhile
            self.count("reads")
            if shown < before:
                self.problem("stale_reads", f"board of match {match_id} at {shown}, {before} "
                             f"acknowledged before, after {SHOWN_SECONDS} s")

    def kill(self) -> None:
        """SIGKILL one child, any of them, every few seconds."""
        rng = random.Random(f"{self.seed}-kill")
        for _ in self.steps():
            if self.stop.wait(rng.uniform(*KILL_GAP)):
                return
            with self.lock:
                if not self.children:
                    continue
                role, process = self.children[rng.choice(sorted(self.children))]
                if process.poll() is None:
                    process.send_signal(signal.SIGKILL)
                    self.figures.kills[role] = self.figures.kills.get(role, 0) + 1

    def watch(self) -> None:
        """Every child's descriptors often; the record's integrity from time to time."""
        checked = time.monotonic()
        for _ in self.steps():
            with self.lock:
                pids = list(self.children)
            for pid in pids:
                with suppress(OSError):  # ended meanwhile
                    if deleted_files(pid, self.db) and pid not in self.deleted:
                        self.deleted.add(pid)
                        self.problem("deleted_descriptors",
                                     f"{pid}: {deleted_files(pid, self.db)}")
            if time.monotonic() - checked > INTEGRITY_SECONDS:
                checked = time.monotonic()
                self.check_integrity()
            self.stop.wait(SCAN_SECONDS)

    def check_integrity(self) -> None:
        """PRAGMA integrity_check from a fresh connection."""
        verdict = integrity(self.db)
        self.count("integrity_checks")
        if verdict != ["ok"]:
            self.problem("integrity_errors", "; ".join(verdict[:3]))

    def done(self, role: str, child: Child, cut: bool) -> None:
        """Close the writer's input and end it; `cut` (an answer that never came) is a stall
        unless the soak killed it."""
        child.send("", close=True)
        if self.finish(role, child) and cut:
            self.problem("child_errors", f"{role} gave no answer in {LINE_SECONDS} s")

    def finish(self, role: str, child: Child) -> bool:
        """End the child (killed if it is still there after LINE_SECONDS): whether it exited 0
        saying nothing on its standard error."""
        try:
            code, error = child.finish()
        except subprocess.TimeoutExpired:
            child.kill()
            code, error = child.finish()
            self.problem("child_errors", f"{role} stalled: {error.strip()[-300:]}")
            return False
        return self.ended(role, code, error)

    # --- the whole soak ------------------------------------------------------------------

    def run(self) -> Figures:
        """Make the shared matches, run every actor until the deadline, then check the record."""
        with Record.open(self.db) as record:
            self.shared = [record.create_match(SETUP) for _ in range(SHARED)]
        self.matches = list(self.shared)
        actors: list[Callable[[], None]] = [
            *(lambda s=s: self.serve(s) for s in range(SERVERS)),
            *(lambda s=s: self.post(s) for s in range(SERVERS)),
            self.ledger_writer, self.simulate, self.read_boards, self.kill, self.watch,
            *(lambda s=s: self.read_cli(s) for s in range(CLI_READERS)),
        ]
        threads = [threading.Thread(target=self.guarded, args=(actor,)) for actor in actors]
        try:
            for thread in threads:
                thread.start()
            while not self.stop.wait(0.5) and time.monotonic() < self.deadline:
                pass
        finally:
            self.stop.set()
            self.end(threads)
        self.tally()
        return self.figures

    def guarded(self, actor: Callable[[], None]) -> None:
        """Run one actor; an exception in it is a failure of the soak, not a silent thread."""
        try:
            actor()
        except Exception as error:  # counted and shown, then the soak ends
            self.problem("child_errors", f"the soak itself: {error!r}")
            self.stop.set()

    def end(self, threads: list[threading.Thread]) -> None:
        """Kill every child still there and wait for every thread (each bounded)."""
        for _ in range(3):
            with self.lock:
                processes = [process for _, process in self.children.values()]
            for process in processes:
                with suppress(OSError):
                    process.kill()
            for thread in threads:
                thread.join(timeout=HTTP_SECONDS + LINE_SECONDS)
            if not any(thread.is_alive() for thread in threads):
                return
        self.problem("child_errors", "a soak thread did not end")

    def tally(self) -> None:
        """Compare every acknowledgement with the record, from a fresh connection."""
        self.check_integrity()
        found, twice = events_in(self.db)
        figures, failed = self.figures, self.figures.failed
        failed["events_duplicated"] += twice
        figures.events_found = sum(len(events) for events in found.values())
        for (match_id, seq), kinds in self.acks.items():
            figures.events_acknowledged += len(kinds)
            failed["events_duplicated"] += len(kinds) - 1
            failed["events_lost"] += sum(kind != found.get(match_id, {}).get(seq) for kind in kinds)
        for match_id, events in found.items():
            if list(events) != list(range(1, len(events) + 1)):
                self.problem("out_of_order", f"match {match_id} has gaps in its numbers")
            extra = sum((match_id, seq) not in self.acks for seq in events)
            explained = min(extra, self.in_flight[match_id])
            figures.committed_unacknowledged += explained
            failed["events_unexpected"] += extra - explained
        failed["vanished"] += sum(
            found.get(match_id, {}).get(seq) != kind for (match_id, seq), kind in self.seen.items()
        )


def table(figures: Figures) -> str:
    """The figures as aligned lines for a person: what was done, each failure, the first few
    problems."""
    done = {name: value for name, value in asdict(figures).items()
            if name not in ("failed", "problems")}
    rows = [(name, str(value)) for name, value in done.items()]
    rows += [(name, f"{figures.failed[name]}  ({meaning})") for name, meaning in FAILURES.items()]
    rows += [("problem", text) for text in figures.problems]
    width = max(len(name) for name, _ in rows)
    return "\n".join(f"{name.ljust(width)}  {value}" for name, value in rows)


def main() -> int:
    """Run the soak, print its figures."""
    parser = arguments(__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=10.0,
                        help="how long to soak (10; 0.1 for a few seconds' try)")
    args = parser.parse_args()
    with folder(args.dir, "record-soak-") as where:
        figures = Soak(where, args.seed, args.minutes * 60).run()
    print(json.dumps(asdict(figures), ensure_ascii=False))
    print(table(figures))
    return 1 if any(figures.failed.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
