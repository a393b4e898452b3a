"""A real `referee serve` process on a free loopback port, for the socket and browser tests."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import uvicorn

from rules.state import Setup
from tests.support.match import PLAYERS
from tests.support.signals import at_a_terminal
from voice.match_record.database import Record, RecordedEvent
from voice.scoreboard.app import create_app
from voice.scoreboard.connections import ConnectionLimits, protocols
from voice.scoreboard.guard import Hosts

STARTUP_SECONDS = 15.0
REFEREE = Path(sys.executable).with_name("referee")  # the installed command line
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
TEST_HOST = Hosts.bound_to("testserver")  # the name TestClient calls the app by


def new_record(path: Path, discipline: str = "libre", distance: int = 10) -> Path:
    """A record holding match 1 between the test players."""
    with Record.open(path) as record:
        record.create_match(Setup(discipline, distance, PLAYERS))
    return path


def stored(db: Path) -> list[tuple[RecordedEvent, ...]]:
    """Every event of every match, as the record holds them."""
    with Record.open(db) as record:
        return [record.load(entry.id).events for entry in record.matches()]


def free_port() -> int:
    """A TCP port nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def serving(db: Path, *args: str) -> Iterator[str]:
    """`referee serve --db DB ARGS` until the block ends (then Ctrl-C: it must exit with 0)."""
    with started(db, *args) as (url, _):
        yield url


@contextmanager
def started(
    db: Path, *args: str, stop: int = signal.SIGINT
) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """`serving`, with the process too (its standard output is a pipe to read), stopped by
    `stop`."""
    port = free_port()
    command = [str(REFEREE), "serve", "--create", "--db", str(db), "--port", str(port)]
    process = subprocess.Popen(
        [*command, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=at_a_terminal,  # stopped by a signal whatever this test run inherited
    )
    scheme = "https" if "--certfile" in args else "http"
    try:
        wait_for(port, process)
        yield f"{scheme}://127.0.0.1:{port}", process
    finally:
        process.send_signal(stop)
        _, err = process.communicate(timeout=STARTUP_SECONDS)
    assert process.returncode == 0, err
    assert f":{port}/board/MATCH, control panel http" in err, err
    assert "Traceback" not in err, err
    assert err.endswith("stopped\n"), err


@contextmanager
def served_here(db: Path, limits: ConnectionLimits) -> Iterator[int]:
    """The app over `db` served by uvicorn on a thread of this process, as `referee serve` serves
    it but within `limits`, on a free loopback port (yielded) until the block ends."""
    http, ws = protocols(limits)
    config = uvicorn.Config(create_app(db), port=free_port(), http=http, ws=ws, log_config=None)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="uvicorn")
    thread.start()
    try:
        deadline = time.monotonic() + STARTUP_SECONDS
        while not server.started:
            assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
            time.sleep(0.02)
        yield config.port
    finally:
        server.should_exit = True
        thread.join(STARTUP_SECONDS)
    assert not thread.is_alive()


def deleted_files(pid: int | str, db: Path) -> list[str]:
    """The files of record `db` (itself, its log, its index) that process `pid` holds open though
    they no longer have a name."""
    links = []
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            links.append(os.readlink(f"/proc/{pid}/fd/{fd}"))
        except OSError:  # closed meanwhile
            continue
    return [link for link in links if link.startswith(str(db)) and link.endswith(" (deleted)")]


def wait_for(port: int, process: subprocess.Popen) -> None:
    """Return once `process` listens on `port`; AssertionError if it exits or takes too long."""
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"referee serve exited with {process.returncode}")
        with suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.2):
            return
        time.sleep(0.05)
    raise AssertionError(f"referee serve did not listen on port {port}")
