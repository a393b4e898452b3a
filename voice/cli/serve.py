"""`referee serve`: the hall scoreboard and the referee's control panel, served by this machine."""

from __future__ import annotations

import argparse
import ipaddress
import os
import re
import secrets
import socket
import ssl
import sys
from contextlib import suppress
from pathlib import Path

from voice.cli.arguments import Subcommands, UsageError, add_command, add_db_argument, within
from voice.cli.pushing import add_push_arguments, pushing
from voice.cli.reading import hall_record
from voice.cli.stopping import on_stop_signal
from voice.match_record.database import NoRecord, Record
from voice.translation import N_, _

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765
TOKEN = re.compile(r"[!-~]{16,}")  # printable ASCII without spaces: it travels in an HTTP header
TOKEN_VARIABLE = "REFEREE_TOKEN"  # where the token is read from when no option gives it
GENERATE = "generate"  # --token generate: a new random token, printed once
BACKLOG = 2048  # connections waiting to be accepted: a hall of boards reconnects at once
WS_MAX_BYTES = 64 * 1024  # the boards send nothing; a larger WebSocket message closes it


def register(sub: Subcommands) -> None:
    """Add `serve` to the command line."""
    serve = add_command(sub, "serve", _("the hall scoreboard and the referee's control panel"))
    add_db_argument(serve, hall=True)
    serve.add_argument(
        "--host", default=DEFAULT_HOST,
        help=_("the address to listen on (default: {host}, this machine only; any other "
               "needs --token)").format(host=DEFAULT_HOST),
    )
    serve.add_argument("--port", type=port, default=DEFAULT_PORT,
                       help=_("the TCP port (default: {port})").format(port=DEFAULT_PORT))
    given = serve.add_mutually_exclusive_group()
    given.add_argument(
        "--token",
        help=_("a secret of 16 or more characters every control request must carry "
               "(Authorization: Bearer TOKEN), or `{generate}` for a new one, printed once; "
               "the scoreboard stays public. Other processes see it: prefer ${variable} "
               "or --token-file").format(generate=GENERATE, variable=TOKEN_VARIABLE),
    )
    given.add_argument("--token-file", type=Path, metavar="PATH",
                       help=_("read the token from the first line of this file"))
    serve.add_argument(
        "--allowed-host", action="append", default=[], metavar="NAME",
        help=_("another host name the server answers to (the loopback names, --host and, "
        "beyond this machine, its own name and any address are always allowed)"),
    )
    serve.add_argument("--create", action="store_true",
                       help=_("start a new, empty record at --db if there is none"))
    serve.add_argument("--certfile", type=Path, help=_("serve HTTPS with this certificate (PEM)"))
    serve.add_argument("--keyfile", type=Path, help=_("the certificate's private key (PEM)"))
    add_push_arguments(serve)
    serve.set_defaults(run=run)


def port(text: str) -> int:
    """An argparse type: a TCP port number."""
    return within(text, int, 1, 65535, N_("a port number ({low}-{high})"))


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
        raise UsageError(
            N_("the token must be 16 or more printable ASCII characters without spaces "
               "(--token {generate} makes one)"), generate=GENERATE,
        )
    if token is None and not loopback(host):
        raise UsageError(
            N_("--host {host} lets other machines connect: give a token too (--token "
               "{generate}, --token-file or ${variable}), so that only the referee controls "
               "the match"), host=host, generate=GENERATE, variable=TOKEN_VARIABLE,
        )


def token_of(args: argparse.Namespace) -> str | None:
    """The control token: --token (a new one for `generate`), --token-file, or $REFEREE_TOKEN."""
    if args.token == GENERATE:
        return secrets.token_urlsafe(24)
    if args.token is not None:
        return str(args.token)
    if args.token_file is not None:
        try:
            lines = args.token_file.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as error:
            reason = getattr(error, "strerror", None) or error
            raise UsageError(N_("cannot read --token-file {path}: {reason}"),
                             path=args.token_file, reason=str(reason)) from None
        return lines[0].strip() if lines else ""
    return os.environ.get(TOKEN_VARIABLE) or None


def check_tls(certfile: Path | None, keyfile: Path | None) -> None:
    """UsageError unless both or neither are given, and together they make a usable pair."""
    if certfile is None and keyfile is None:
        return
    if certfile is None or keyfile is None:
        raise UsageError(N_("HTTPS needs both --certfile and --keyfile"))
    try:
        ssl.create_default_context(ssl.Purpose.CLIENT_AUTH).load_cert_chain(certfile, keyfile)
    except (OSError, ssl.SSLError) as error:
        reason = getattr(error, "strerror", None) or error.args[-1]
        raise UsageError(
            N_("cannot serve HTTPS with --certfile {certfile} and --keyfile {keyfile}: {reason}"),
            certfile=certfile, keyfile=keyfile, reason=str(reason),
        ) from None


def listen(host: str, number: int) -> socket.socket:
    """A listening socket on `host`:`number`; UsageError saying why there cannot be one."""
    bound = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    try:
        bound.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # restart at once after Ctrl-C
        bound.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # no 40 ms wait on a reply
        bound.bind((host, number))
        bound.listen(BACKLOG)
    except OSError as error:
        bound.close()
        raise UsageError(N_("cannot listen on {host}:{port}: {reason}"), host=host, port=number,
                         reason=error.strerror or str(error)) from None
    return bound


def check_record(db: Path, create: bool) -> None:
    """A record that cannot be used stops us before we listen; a mistyped --db is no new one."""
    try:
        Record.open(db, create=create).close()
    except NoRecord:
        raise UsageError(N_("there is no match record at {path}: check --db, or give --create "
                            "to start an empty one"), path=db) from None


def check_hall(args: argparse.Namespace) -> str:
    """The hall's PostgreSQL reached once before we listen (RecordError if it cannot be);
    shown without its password."""
    if args.push is not None:
        raise UsageError(N_("--push sends a table's record to the hall: with --db "
                            "postgresql://… this server reads the hall's already"))
    hall = hall_record(args.db)
    hall.close()
    return str(hall.path)


def run(args: argparse.Namespace) -> int:
    """`referee serve`: until interrupted (Ctrl-C, SIGTERM or SIGHUP)."""
    token = token_of(args)
    check_access(args.host, token)
    check_tls(args.certfile, args.keyfile)
    import uvicorn

    from voice.scoreboard.app import create_app
    from voice.scoreboard.connections import protocols
    from voice.scoreboard.guard import Hosts

    hall = isinstance(args.db, str)
    if hall:
        shown = check_hall(args)
    else:
        check_record(args.db, args.create)
    names = [*args.allowed_host]
    if not loopback(args.host):
        names += [socket.gethostname(), f"{socket.gethostname()}.local"]
    with listen(args.host, args.port) as bound, pushing(args, None if hall else args.db):
        app = create_app(args.db, token, Hosts.bound_to(args.host, *names))
        scheme = "https" if args.certfile else "http"
        where = f"{scheme}://{f'[{args.host}]' if ':' in args.host else args.host}:{args.port}"
        if args.token == GENERATE:
            sys.stdout.write(_("token: {token}").format(token=token) + "\n")  # shown once only
            sys.stdout.flush()
        if hall:
            sys.stderr.write(_(
                "hall overview {where}/ and scoreboards {where}/board/MATCH of every table "
                "pushing to {target}; read-only: each table is controlled at the table"
            ).format(where=where, target=shown) + "\n")
        else:
            sys.stderr.write(_(
                "hall overview {where}/, scoreboard {where}/board/MATCH, control panel "
                "{where}/referee/MATCH (matches of {path}: `referee matches --db {path}`)"
            ).format(where=where, path=args.db) + "\n")
        sys.stderr.flush()
        http, ws = protocols()  # the header time limit and the connections per address
        config = uvicorn.Config(
            app, log_level="warning", ssl_certfile=args.certfile, ssl_keyfile=args.keyfile,
            http=http, ws=ws, ws_max_size=WS_MAX_BYTES,
            # Boards get a small JSON text per event: compressing it for each viewer apart
            # would cost more than it saves, and the same bytes go to all.
            ws_per_message_deflate=False,
            proxy_headers=False,  # no proxy in front: X-Forwarded-For must not change the client
        )
        server = uvicorn.Server(config)
        # uvicorn shuts down cleanly on SIGINT and SIGTERM, then raises the signal again for the
        # handler it found: ours, for SIGTERM. SIGHUP it leaves to us: we ask it to shut down.
        with (
            on_stop_signal(lambda: setattr(server, "should_exit", True)),
            suppress(KeyboardInterrupt),  # uvicorn has shut down cleanly, then re-raised Ctrl-C
        ):
            server.run(sockets=[bound])
        sys.stderr.write(_("stopped") + "\n")
    return 0
