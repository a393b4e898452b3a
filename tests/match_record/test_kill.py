"""The kill test: `referee simulate`/`resume` killed with SIGKILL at random moments lose nothing."""

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest

SOAK = Path(__file__).parents[2] / "bench" / "kill_soak.py"
SEEDS = (11, 12)  # two soaks side by side, each on its own record
KILLS = 30


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="SIGKILL is POSIX only")
def test_sixty_kills_lose_no_committed_event_and_resume_where_the_record_stops(tmp_path):
    soaks = [
        subprocess.Popen(
            [sys.executable, str(SOAK), "--kills", str(KILLS), "--seed", str(seed),
             "--dir", str(tmp_path / str(seed))],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        for seed in SEEDS
    ]
    for soak in soaks:
        out, err = soak.communicate(timeout=300)
        figures = json.loads(out)
        assert soak.returncode == 0, (figures, err)
        assert figures["kills"] == KILLS and figures["matches"] >= KILLS // 10
        assert figures["events_recorded"] > 5 * KILLS
        for failure in ("events_lost", "events_unexpected", "announced_unheard",
                        "output_mismatches", "stalls", "child_errors"):
            assert figures[failure] == 0, (failure, figures)
