"""A plain writer for bench/record_soak.py: a `Ledger` on one recorded match, outside `referee`.

Reads one command kind a line from standard input ("point", "miss"); after each command is
committed it writes {"recorded": SEQ} (null when the rules refused it) and flushes.

    .venv/bin/python bench/ledger_writer.py DB MATCH
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from rules.command import Command, Kind
from voice.match_record.database import Record
from voice.match_record.ledger import Ledger


def main() -> int:
    """Take each command of standard input through the ledger, saying what it recorded."""
    db, match_id = Path(sys.argv[1]), int(sys.argv[2])
    with Record.open(db, create=False) as record:
        ledger = Ledger(record, match_id)
        for line in sys.stdin:
            ledger.command(Command(Kind(line.strip())))
            sys.stdout.write(json.dumps({"recorded": ledger.written}) + "\n")
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
