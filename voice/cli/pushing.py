"""What `run`, `simulate`, `resume`, `serve` and `push` share: the hall's PostgreSQL to push the
record to (--push, --hall, --table, or the hall's settings), and the outbox pushing meanwhile."""

from __future__ import annotations

import argparse
import socket
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from voice.cli.arguments import UsageError
from voice.settings import load
from voice.translation import N_, _

if TYPE_CHECKING:  # psycopg loads only when a record is pushed (the `hall` extra)
    from voice.hall.target import Target

INSTALL = N_("pushing to a hall's PostgreSQL needs psycopg: pip install 'carom-referee[hall]' "
             "(and Debian's libpq5)")


def add_push_arguments(parser: argparse.ArgumentParser, names: bool = True) -> None:
    """--push (and --hall and --table, where the match set-up does not give them already)."""
    parser.add_argument(
        "--push", metavar="URL",
        help=_("push the record to the hall's PostgreSQL as it grows: a libpq connection "
               "string, postgresql://USER@HOST/DATABASE (default: hall.push); keep the password "
               "in ~/.pgpass, where other processes do not see it"),
    )
    if names:
        parser.add_argument("--hall", help=_("the hall's name, for its PostgreSQL (default: "
                                             "hall.name)"))
        parser.add_argument("--table", help=_("this table's name, for the hall's PostgreSQL "
                                              "(default: hall.table, else the host name)"))


def target_from(args: argparse.Namespace, conninfo: str | None = None) -> Target | None:
    """Where to push: `conninfo`, else --push, else the hall's settings (None: nowhere)."""
    settings = load(getattr(args, "config", None))
    given = next((c for c in (conninfo, args.push, settings.push) if c is not None), None)
    if given is None:
        return None
    try:
        from voice.hall.target import Target
    except ImportError:
        raise UsageError(INSTALL) from None
    return Target(given, args.hall or settings.name,
                  args.table or settings.table or socket.gethostname())


@contextmanager
def pushing(args: argparse.Namespace, path: Path | None) -> Iterator[None]:
    """Push the record at `path` from a thread of its own while the block runs, if the command
    line or the hall's settings say where (never without a `path`); then say what the hall
    may still lack."""
    target = None if path is None else target_from(args)
    if target is None or path is None:
        yield
        return
    from voice.hall.outbox import Outbox
    from voice.live.loop import log_to_stderr

    outbox = Outbox(path, target, log_to_stderr)
    outbox.start()
    try:
        yield
    finally:
        behind = outbox.close()
        if behind != 0:
            sys.stderr.write(_(
                "some events have not reached the hall's database yet: `referee push --db "
                "{path} --to URL` sends them").format(path=path) + "\n")
