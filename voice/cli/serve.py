"""`referee serve`: the hall scoreboard and the referee's control panel, served by this machine."""

from __future__ import annotations

import argparse
import ipaddress
import re
import socket
import sys

from voice.cli.arguments import Subcommands, UsageError, add_db_argument
from voice.match_record.database import Record

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765
TOKEN = re.compile(r"[!-~]+")  # printable ASCII without spaces: it travels in an HTTP header


def register(sub: Subcommands) -> None:
    """Add `serve` to the command line."""
    serve = sub.add_parser("serve", help="the hall scoreboard and the referee's control panel")
    add_db_argument(serve)
    serve.add_argument(
        "--host", default=DEFAULT_HOST,
        help=f"the address to listen on (default: {DEFAULT_HOST}, this machine only; "
        "any other needs --token)",
    )
    serve.add_argument("--port", type=port, default=DEFAULT_PORT,
                       help=f"the TCP port (default: {DEFAULT_PORT})")
    serve.add_argument(
        "--token",
        help="a secret every control request must carry (Authorization: Bearer TOKEN); "
        "the scoreboard stays public",
    )
    serve.set_defaults(run=run)


def port(text: str) -> int:
    """An argparse type: a TCP port number."""
    if not text.isdigit() or not 1 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"{text[:20]!r} is not a port number (1-65535)")
    return int(text)


def loopback(host: str) -> bool:
    """Whether `host` is reachable from this machine only."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_access(host: str, token: str | None) -> None:
    """UsageError unless the token is usable, and given whenever other machines can connect."""
    if token is not None and not TOKEN.fullmatch(token):
        raise UsageError("--token must be printable ASCII characters without spaces")
    if token is None and not loopback(host):
        raise UsageError(
            f"--host {host} lets other machines connect: give --token SECRET too, so that only "
            "the referee can control the match"
        )


def listen(host: str, number: int) -> socket.socket:
    """A listening socket on `host`:`number`; UsageError saying why there cannot be one."""
    bound = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    try:
        bound.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # restart at once after Ctrl-C
        bound.bind((host, number))
        bound.listen()
    except OSError as error:
        bound.close()
        raise UsageError(f"cannot listen on {host}:{number}: {error.strerror or error}") from None
    return bound


def run(args: argparse.Namespace) -> int:
    """`referee serve`: until interrupted (Ctrl-C or SIGTERM)."""
    check_access(args.host, args.token)
    import uvicorn

    from voice.scoreboard.app import create_app

    Record.open(args.db).close()  # a record that cannot be used stops us before we listen
    with listen(args.host, args.port) as bound:
        app = create_app(args.db, args.token)
        where = f"http://{f'[{args.host}]' if ':' in args.host else args.host}:{args.port}"
        sys.stderr.write(
            f"scoreboard {where}/board/MATCH, control panel {where}/referee/MATCH "
            f"(matches of {args.db}: `referee matches --db {args.db}`)\n"
        )
        sys.stderr.flush()
        try:
            uvicorn.Server(uvicorn.Config(app, log_level="warning")).run(sockets=[bound])
        except KeyboardInterrupt:  # uvicorn has shut down cleanly, then re-raised the Ctrl-C
            sys.stderr.write("stopped\n")
    return 0
