"""`referee push`: a match record made earlier, or still growing, sent to the hall's PostgreSQL."""

from __future__ import annotations

import argparse
import sys
import threading

from voice.cli.arguments import Subcommands, add_command, add_db_argument
from voice.cli.pushing import add_push_arguments, target_from
from voice.cli.stopping import on_stop_signal
from voice.match_record.database import Record
from voice.translation import _


def register(sub: Subcommands) -> None:
    """Add `push` to the command line."""
    push = add_command(sub, "push", _("push a match record to the hall's PostgreSQL"))
    add_db_argument(push)
    push.add_argument(
        "--to", metavar="URL",
        help=_("the hall's PostgreSQL: a libpq connection string, postgresql://USER@HOST/"
               "DATABASE (default: hall.push; libpq's PG* variables and service file fill in "
               "what it leaves out)"),
    )
    push.add_argument("--follow", action="store_true",
                      help=_("go on pushing what is recorded next, until stopped (Ctrl-C)"))
    add_push_arguments(push)
    push.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """`referee push`."""
    from voice.hall.outbox import Outbox
    from voice.hall.pusher import Pusher
    from voice.live.loop import log_to_stderr

    args.push = None  # --to is this command's --push
    target = target_from(args, args.to)
    if target is None:
        target = target_from(args, "")  # libpq's environment and service file alone
    assert target is not None
    with Record.open(args.db, create=False) as record:
        if not args.follow:
            pusher = Pusher(record, target)
            try:
                pushed = pusher.round()
            finally:
                pusher.close()
            sys.stdout.write(_("{count} new events of {path} pushed to {target}").format(
                count=pushed, path=args.db, target=target.shown()) + "\n")
            return 0
    stop = threading.Event()
    outbox = Outbox(args.db, target, log_to_stderr)
    with on_stop_signal(stop.set):
        outbox.start()
        try:
            while not stop.wait(1.0):
                pass
        except KeyboardInterrupt:
            pass
        outbox.close()
    sys.stderr.write(_("stopped") + "\n")
    return 0
