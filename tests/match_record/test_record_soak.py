"""The record soak for a few seconds: servers, writers, readers on one file, killed at random."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

SOAK = Path(__file__).parents[2] / "bench" / "record_soak.py"


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="reads descriptors in /proc")
def test_a_short_soak_loses_duplicates_and_damages_nothing(tmp_path):
    done = subprocess.run(
        [sys.executable, str(SOAK), "--minutes", "0.2", "--seed", "3", "--dir", str(tmp_path)],
        capture_output=True, text=True, timeout=60,
    )
    figures = json.loads(done.stdout.splitlines()[0])
    assert done.returncode == 0, (figures, done.stderr)
    assert figures["most_processes_at_once"] >= 6 and sum(figures["kills"].values()) > 0
    assert figures["events_acknowledged"] > 0 and figures["integrity_checks"] >= 1
    assert figures["events_found"] == (figures["events_acknowledged"]
                                       + figures["committed_unacknowledged"])
    assert "events_lost" in figures["failed"], figures
    assert not any(figures["failed"].values()), figures
