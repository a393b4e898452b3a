"""Tables push their records to the hall's PostgreSQL: every event once, in order, through an
outage of the hall and a kill of the table."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import psycopg
import pytest

from tests.hall.helpers import held, new_match, play, played, recorded, wait_for
from tests.support.postgres import Cluster
from tests.support.server import serving
from voice import translation
from voice.hall.outbox import Outbox
from voice.hall.target import Target
from voice.match_record.database import Record

ROOT = Path(__file__).resolve().parents[2]


def outbox(path: Path, url: str, lines: list[str], table: str = "1") -> Outbox:
    return Outbox(path, Target(url, "Academy", table), lines.append)


def test_the_same_record_pushed_twice_is_in_the_hall_once(referee, tmp_path, hall_url):
    db = tmp_path / "table.sqlite3"
    played(db, 5)
    played(db, 7)
    first = referee("push", "--db", db, "--to", hall_url, "--hall", "Academy", "--table", "3")
    again = referee("push", "--db", db, "--to", hall_url)
    assert first.code == 0 and again.code == 0, first.err + again.err
    assert first.out.startswith("12 new events") and again.out.startswith("0 new events")
    assert held(hall_url) == recorded(db)
    with psycopg.connect(hall_url) as hall:
        rows = hall.execute("SELECT hall, table_name, local_id FROM matches ORDER BY local_id")
        assert rows.fetchall() == [("Academy", "3", 1), ("Academy", "3", 2)]


def test_a_match_s_own_hall_and_table_are_the_hall_s_over_the_push_s(referee, tmp_path, hall_url):
    db = tmp_path / "table.sqlite3"
    new_match(db, table="3", hall="Ακαδημία").record.close()
    played(db, 1)  # a match whose set-up names neither
    pushed = referee("push", "--db", db, "--to", hall_url, "--hall", "Academy", "--table", "9")
    assert pushed.code == 0, pushed.err
    with psycopg.connect(hall_url) as hall:
        rows = hall.execute("SELECT hall, table_name FROM matches ORDER BY local_id").fetchall()
    assert rows == [("Ακαδημία", "3"), ("Academy", "9")]


def test_a_match_recorded_before_ids_gets_one_kept_in_its_record(referee, tmp_path, hall_url):
    db = tmp_path / "old.sqlite3"
    played(db, 4)
    with Record.open(db) as record:  # as a record made before match ids were
        record._db.execute("DROP TABLE match_uids")
    assert referee("push", "--db", db, "--to", hall_url).code == 0
    assert referee("push", "--db", db, "--to", hall_url).out.startswith("0 new events")
    assert held(hall_url) == recorded(db)
    assert list(held(hall_url).values()) == [[1, 2, 3, 4]]


def test_several_tables_push_at_once(tmp_path, hall_url):
    tables = [tmp_path / f"table{n}.sqlite3" for n in range(4)]
    boxes = [outbox(path, hall_url, [], table=str(n)) for n, path in enumerate(tables)]
    for box in boxes:
        box.start()
    players = [threading.Thread(target=played, args=(path, 40)) for path in tables]
    for thread in players:
        thread.start()
    for thread in players:
        thread.join()
    want = {uid: seqs for path in tables for uid, seqs in recorded(path).items()}
    assert wait_for(lambda: held(hall_url) == want)
    assert [box.close() for box in boxes] == [0, 0, 0, 0]
    assert all(seqs == list(range(1, 41)) for seqs in held(hall_url).values())
    with psycopg.connect(hall_url) as hall:
        names = hall.execute("SELECT table_name FROM matches ORDER BY table_name").fetchall()
    assert names == [("0",), ("1",), ("2",), ("3",)]


def test_the_hall_stopped_mid_match_loses_and_doubles_nothing_and_the_table_never_waits(
    tmp_path, hall_url, postgres: Cluster
):
    db = tmp_path / "table.sqlite3"
    ledger = new_match(db)
    log: list[str] = []
    box = outbox(db, hall_url, log)
    box.start()
    play(ledger, 10)
    assert wait_for(lambda: held(hall_url) == recorded(db))
    postgres.stop()
    try:
        slowest = 0.0
        for _ in range(10):  # the table goes on: each command is on disk, none waits for the hall
            started = time.monotonic()
            play(ledger, 1)
            slowest = max(slowest, time.monotonic() - started)
        assert ledger.record.last_seq(ledger.match_id) == 20
        assert wait_for(lambda: any(line.startswith("not pushed yet") for line in log))
        assert slowest < 1.0  # a bound, far above a local commit, far below any network wait
    finally:
        postgres.start()
    assert wait_for(lambda: held(hall_url) == recorded(db))
    assert list(held(hall_url).values()) == [list(range(1, 21))]
    assert box.close() == 0
    assert [line for line in log if "again" in line] == [
        "the hall's database takes the record again"]


def test_the_outbox_logs_in_greek_and_libpq_s_own_words_keep_their_line_english(tmp_path):
    db = tmp_path / "table.sqlite3"
    new_match(db)
    with socket.socket() as unused:  # a port nothing listens on: libpq's connection is refused
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]
    log: list[str] = []
    box = outbox(db, f"postgresql://referee@127.0.0.1:{port}/hall", log)
    translation.use("el")
    try:
        box.start()
        assert wait_for(lambda: len(log) == 2)
    finally:
        box.close(timeout=1.0)
        translation.use("en")
    target = box.target.shown()
    assert log[0] == f"το {db} στέλνεται στη βάση της αίθουσας {target}"
    assert log[1].startswith(f"not pushed yet: the hall's database {target}: connection ")


def test_a_table_killed_mid_push_resumes_where_the_hall_stops(tmp_path, hall_url):
    db = tmp_path / "table.sqlite3"
    table = subprocess.Popen(
        [sys.executable, "-m", "voice.cli.main", "simulate", "--discipline", "libre",
         "--distance", "1000", "--players", "Παπαδόπουλος,Κωνσταντίνου", "--db", str(db),
         "--push", hall_url, "--table", "7"],
        stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert table.stdin is not None
    try:
        for n in range(400):  # one phrase a line, as a referee says them; killed on the way
            table.stdin.write(("πόντος\n" if n % 3 else "άστοχο\n").encode())
            table.stdin.flush()
            time.sleep(0.02)
            if n % 10 == 9 and sum(map(len, held(hall_url).values())) >= 5:
                break
        table.send_signal(signal.SIGKILL)
    finally:
        table.kill()
        table.wait(30)
        assert table.stderr is not None
        table.stderr.close()
        table.stdin.close()
    assert sum(map(len, held(hall_url).values())) >= 5
    before = sum(map(len, recorded(db).values()))
    resumed = subprocess.run(
        [sys.executable, "-m", "voice.cli.main", "resume", "--db", str(db), "--push", hall_url],
        input="πόντος\nάστοχο\n".encode(), capture_output=True, cwd=ROOT, timeout=60,
    )
    assert resumed.returncode == 0, resumed.stderr.decode()
    assert held(hall_url) == recorded(db)
    assert list(held(hall_url).values()) == [list(range(1, before + 3))]


def test_the_hall_hears_of_each_new_event(tmp_path, hall_url, referee):
    db = tmp_path / "table.sqlite3"
    played(db, 1)
    assert referee("push", "--db", db, "--to", hall_url).code == 0  # the schema is made
    with psycopg.connect(hall_url, autocommit=True) as listener:
        listener.execute("LISTEN referee_hall")
        played(db, 3)
        assert referee("push", "--db", db, "--to", hall_url).code == 0
        heard = [n.payload for n in listener.notifies(timeout=10, stop_after=1)]
    assert heard == [uid for uid, seqs in recorded(db).items() if len(seqs) == 3]


@pytest.mark.parametrize("wrong", [False, True])
def test_the_password_is_never_shown(referee, tmp_path, hall_url, postgres, wrong):
    db = tmp_path / "table.sqlite3"
    played(db, 2)
    url = hall_url.replace(postgres.password, "not-the-password") if wrong else hall_url
    secret = "not-the-password" if wrong else postgres.password
    done = referee("push", "--db", db, "--to", url)
    assert done.code == (2 if wrong else 0)
    assert ("password authentication failed" in done.err) is wrong
    assert secret not in done.out + done.err
    followed = referee("simulate", "--discipline", "libre", "--distance", "9", "--players",
                       "A,B", "--db", db, "--push", url, stdin="πόντος\n")
    assert followed.code == 0
    assert ("not pushed yet" in followed.err) is wrong
    assert secret not in followed.out + followed.err


def test_libpq_environment_and_service_file_say_where_the_hall_is(
    referee, tmp_path, hall_url, postgres, monkeypatch
):
    db = tmp_path / "table.sqlite3"
    played(db, 3)
    name = hall_url.partition("@/")[2].partition("?")[0]
    (tmp_path / "services").write_text(
        f"[hall]\nhost={postgres.folder}\nport=5432\ndbname={name}\nuser=referee\n")
    (tmp_path / "pgpass").write_text(f"*:*:*:referee:{postgres.password}\n")
    (tmp_path / "pgpass").chmod(0o600)
    monkeypatch.setenv("PGSERVICEFILE", str(tmp_path / "services"))
    monkeypatch.setenv("PGPASSFILE", str(tmp_path / "pgpass"))
    monkeypatch.setenv("PGSERVICE", "hall")
    done = referee("push", "--db", db)
    assert done.code == 0, done.err
    assert held(hall_url) == recorded(db)


def test_serve_pushes_what_the_table_records_meanwhile(tmp_path, hall_url):
    db = tmp_path / "table.sqlite3"
    ledger = new_match(db)
    with serving(db, "--push", hall_url, "--hall", "Academy", "--table", "5"):
        play(ledger, 6)
        assert wait_for(lambda: held(hall_url) == recorded(db))
    assert list(held(hall_url).values()) == [[1, 2, 3, 4, 5, 6]]


def test_the_hall_settings_file_says_where_to_push(referee, tmp_path, hall_url, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    (tmp_path / "carom-referee").mkdir()
    (tmp_path / "carom-referee" / "settings.toml").write_text(
        f'[hall]\nname = "Academy"\ntable = "9"\npush = "{hall_url}"\n')
    db = tmp_path / "table.sqlite3"
    played(db, 3)
    done = referee("push", "--db", db)
    assert done.code == 0, done.err
    assert held(hall_url) == recorded(db)
    with psycopg.connect(hall_url) as hall:
        assert hall.execute("SELECT hall, table_name FROM matches").fetchall() == [("Academy", "9")]
