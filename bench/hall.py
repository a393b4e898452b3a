"""Many tables, one hall: 16 tables record a command every 2 simulated seconds (every 0.5 s real,
a clock compressed 4 times) for 10 simulated minutes, each pushing to a throwaway PostgreSQL
that is stopped for 60 real seconds in the middle; 16 more tables record the same without
pushing, side by side, for the latency ratio. `referee serve --db postgresql://…` serves the
hall and a viewer follows every table's board over its WebSocket, as a hall's screen does.

    .venv/bin/python bench/hall.py [--tables 16] [--commands 300] [--period 0.5] [--outage 60]

It prints, in one run: events recorded vs found in the hall (lost, doubled), the catch-up time
after the outage, table commit → hall board (p50, p95; outside the outage), and each table's
command latency with and without pushing (p50, p95 and their ratios).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import psycopg
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests.support, run from anywhere

from rules.command import Command, Kind
from rules.state import Setup
from tests.support.postgres import Cluster, cluster
from tests.support.server import REFEREE, free_port
from voice.hall.outbox import Outbox
from voice.hall.target import Target
from voice.match_record.database import Record
from voice.match_record.ledger import Ledger

HALL = "Bench hall"
PLAYERS = ("Παπαδόπουλος", "Κωνσταντίνου")
START_SECONDS = 10.0  # from launching the tables to their first command: imports, outboxes
PROBE_SECONDS = 0.05  # how often the hall is asked, after the outage, whether it caught up


def table(db: Path, name: str, url: str, period: float, count: int, start: float) -> None:
    """One table (its own process, as on its own machine): a command every `period` seconds
    from `start` (time.time()), each committed to its record; pushed to `url` unless empty.
    One JSON line per command: its number, when it was committed, how long it took."""
    record = Record.open(db)
    ledger = Ledger(record, record.create_match(Setup("libre", 10_000, PLAYERS, 0, table=name)))
    outbox = None if not url else Outbox(db, Target(url, HALL, name), lambda line: None)
    if outbox is not None:
        outbox.start()
    for n in range(count):
        time.sleep(max(0.0, start + n * period - time.time()))
        started = time.perf_counter()
        ledger.command(Command(Kind.POINT if n % 3 else Kind.MISS))
        took = time.perf_counter() - started
        print(json.dumps({"seq": ledger.written, "at": time.time(), "took": took}), flush=True)
    behind = None if outbox is None else outbox.close()
    print(json.dumps({"behind": behind}), flush=True)
    record.close()


@dataclass
class Table:
    """What the orchestrator learns of one table from its lines."""

    name: str
    db: Path
    pushing: bool
    committed: dict[int, float] = field(default_factory=dict)  # seq → time.time() of commit
    took: list[float] = field(default_factory=list)
    behind: int | None = None
    shown: dict[int, float] = field(default_factory=dict)  # seq → when the hall's board had it


async def follow(process: asyncio.subprocess.Process, table: Table) -> None:
    """Read the table's lines until it exits."""
    assert process.stdout is not None
    async for line in process.stdout:
        data = json.loads(line)
        if "behind" in data:
            table.behind = data["behind"]
        else:
            table.committed[data["seq"]] = data["at"]
            table.took.append(data["took"])
    await process.wait()


async def watch(base: str, number: int, table: Table, stop: asyncio.Event) -> None:
    """Follow match `number`'s board over its WebSocket, noting when each event first shows."""
    async with websockets.connect(f"ws{base[4:]}/ws/matches/{number}") as socket:
        while not stop.is_set():
            try:
                text = await asyncio.wait_for(socket.recv(), 0.5)
            except TimeoutError:
                continue
            arrived = time.time()
            seq = json.loads(text)["seq"]
            for earlier in range(max(table.shown, default=0) + 1, seq + 1):
                table.shown[earlier] = arrived


def numbers(base: str, count: int) -> dict[str, int]:
    """Each table's match number in the hall, once every table's match is there."""
    while True:
        with urllib.request.urlopen(f"{base}/api/matches", timeout=10) as answer:
            listed = {state["table"]: state["match"] for state in json.load(answer)}
        if len(listed) == count:
            return listed
        time.sleep(0.2)


def held(url: str) -> dict[str, tuple[int, int, int]]:
    """Each table's events in the hall: how many rows, distinct numbers, the newest."""
    with psycopg.connect(url) as db:
        rows = db.execute(
            "SELECT m.table_name, count(e.seq), count(DISTINCT e.seq), coalesce(max(e.seq), 0)"
            " FROM matches AS m LEFT JOIN events AS e ON e.match_id = m.id GROUP BY m.id"
        ).fetchall()
    return {name: (rows_, distinct, newest) for name, rows_, distinct, newest in rows}


def caught_up(url: str, wanted: dict[str, int]) -> bool:
    """Whether the hall holds every table's events up to `wanted`."""
    try:
        found = held(url)
    except psycopg.Error:
        return False
    return all(found.get(name, (0, 0, 0))[2] >= seq for name, seq in wanted.items())


@contextmanager
def served(url: str) -> Iterator[str]:
    """`referee serve --db URL` on a free port until the block ends."""
    port = free_port()
    server = subprocess.Popen([str(REFEREE), "serve", "--db", url, "--port", str(port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):
            try:
                urllib.request.urlopen(f"{base}/api/matches", timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        yield base
    finally:
        server.send_signal(signal.SIGINT)
        _, err = server.communicate(timeout=30)
        sys.stderr.write("".join(f"  serve: {line}\n" for line in err.splitlines()[1:]))


def quantile(values: list[float], q: float) -> float:
    """The q-quantile of `values` (inclusive method)."""
    return statistics.quantiles(values, n=100, method="inclusive")[round(q * 100) - 1]


async def bench(args: argparse.Namespace, hall: Cluster, folder: Path) -> None:
    """Run the tables, the outage and the viewer; print what was measured."""
    with psycopg.connect(hall.url(), autocommit=True) as db:
        db.execute("CREATE DATABASE hall")
    url = hall.url("hall")
    tables = [Table(f"{n:02d}", folder / f"push{n}.sqlite3", True) for n in range(args.tables)]
    tables += [Table(f"c{n:02d}", folder / f"alone{n}.sqlite3", False)
               for n in range(args.tables)]
    run_seconds = args.commands * args.period
    with served(url) as base:
        start = time.time() + START_SECONDS
        processes = [await asyncio.create_subprocess_exec(
            sys.executable, __file__, "table", str(t.db), t.name, url if t.pushing else "",
            str(args.period), str(args.commands), str(start), stdout=asyncio.subprocess.PIPE,
        ) for t in tables]
        reading = [asyncio.create_task(follow(p, t))
                   for p, t in zip(processes, tables, strict=True)]
        pushing = {t.name: t for t in tables if t.pushing}
        await asyncio.sleep(max(0.0, start + 2.0 - time.time()))
        boards = await asyncio.to_thread(numbers, base, len(pushing))
        stop = asyncio.Event()
        viewers = [asyncio.create_task(watch(base, boards[name], t, stop))
                   for name, t in pushing.items()]
        watched = time.time() + 1.0  # events after this are timed to the board
        await asyncio.sleep(max(0.0, start + (run_seconds - args.outage) / 2 - time.time()))
        down = time.time()
        await asyncio.to_thread(hall.stop)
        await asyncio.sleep(max(0.0, down + args.outage - time.time()))
        await asyncio.to_thread(hall.start)
        up = time.time()
        wanted = {name: max(t.committed, default=0) for name, t in pushing.items()}
        while not await asyncio.to_thread(caught_up, url, wanted):
            await asyncio.sleep(PROBE_SECONDS)
        catch_up = time.time() - up
        await asyncio.gather(*reading)
        await asyncio.sleep(2.0)  # the last boards
        stop.set()
        await asyncio.gather(*viewers)
    # The boards caught up when each showed what its table had committed when the hall was back.
    shown = max(t.shown.get(wanted[name], float("inf")) for name, t in pushing.items())
    report(args, tables, held(url), (catch_up, shown - up), watched, down, shown)


def report(args: argparse.Namespace, tables: list[Table], found: dict[str, tuple[int, int, int]],
           catch_up: tuple[float, float], watched: float, down: float, back: float) -> None:
    """The measurements as a Markdown table's rows; board delays are of the events committed
    from `watched` on, but not from `down` (the outage) to `back` (the boards caught up)."""
    pushing = [t for t in tables if t.pushing]
    recorded = sum(len(t.committed) for t in pushing)
    rows = sum(found[t.name][0] for t in pushing)
    lost = sum(len(t.committed) - found[t.name][1] for t in pushing)
    doubled = rows - sum(found[t.name][1] for t in pushing)
    delays = [t.shown[seq] - at for t in pushing for seq, at in t.committed.items()
              if watched < at and not down <= at <= back and seq in t.shown]
    unseen = sum(1 for t in pushing for seq, at in t.committed.items()
                 if watched < at and seq not in t.shown)
    with_push = [s for t in pushing for s in t.took]
    alone = [s for t in tables if not t.pushing for s in t.took]
    simulated = args.commands * 2.0 / 60
    print(f"{len(pushing)} tables pushing, {len(tables) - len(pushing)} alone; a command every "
          f"{args.period} s real (2 s simulated) × {args.commands} = {simulated:.0f} simulated "
          f"minutes; PostgreSQL stopped {args.outage:.0f} s real; outboxes left behind: "
          f"{sorted({t.behind for t in pushing}, key=str)}")
    print("| measure | value | target |\n| --- | --- | --- |")
    print(f"| events recorded / found in the hall | {recorded} / {rows} | equal |")
    print(f"| lost / doubled | {lost} / {doubled} | 0 / 0 |")
    print(f"| catch-up after the outage: the hall holds all {len(pushing)} tables' backlog | "
          f"{catch_up[0]:.2f} s | ≤ 5 s |")
    print(f"| … and every hall board shows it | {catch_up[1]:.2f} s | |")
    print(f"| table commit → hall board, p50 / p95 ({len(delays)} events outside the outage;"
          f" {unseen} never shown) | {1000 * statistics.median(delays):.0f} / "
          f"{1000 * quantile(delays, 0.95):.0f} ms | p95 ≤ 500 ms |")
    p50, p95 = statistics.median(with_push), quantile(with_push, 0.95)
    a50, a95 = statistics.median(alone), quantile(alone, 0.95)
    print(f"| table's command, pushing: p50 / p95 | {1000 * p50:.2f} / {1000 * p95:.2f} ms | |")
    print(f"| table's command, alone: p50 / p95 | {1000 * a50:.2f} / {1000 * a95:.2f} ms | |")
    print(f"| ratio pushing / alone: p50 / p95 | {p50 / a50:.2f} / {p95 / a95:.2f} | ≤ 1.1 |")


def main() -> int:
    """The bench, or (`table …`) one of its tables."""
    if sys.argv[1:2] == ["table"]:
        db, name, url, period, count, start = sys.argv[2:8]
        table(Path(db), name, url, float(period), int(count), float(start))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=16)
    parser.add_argument("--commands", type=int, default=300, help="per table (2 s simulated)")
    parser.add_argument("--period", type=float, default=0.5, help="real seconds per command")
    parser.add_argument("--outage", type=float, default=60.0, help="real seconds")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-hall-") as folder, cluster() as hall:
        asyncio.run(bench(args, hall, Path(folder)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
