"""`referee config show|init`: the hall's settings in force and where each came from; a fresh,
commented settings file."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from voice.cli.arguments import (
    Parser,
    Subcommands,
    UsageError,
    add_command,
    add_settings_arguments,
    settings_from,
)
from voice.settings import KEYS, commented_file, default_path, toml
from voice.translation import N_, _


def register(sub: Subcommands) -> None:
    """Add `config show` and `config init` to the command line."""
    config = add_command(sub, "config", _("the hall's settings: show them, or write a fresh file"))
    actions = config.add_subparsers(dest="action", required=True, parser_class=Parser)
    show = add_command(actions, "show", _("the settings in force, and where each came from"))
    add_settings_arguments(show, endpoint=False)
    show.set_defaults(run=run_show)
    init = add_command(actions, "init", _("write a settings file of every key, commented"))
    init.add_argument("--config", type=Path, metavar="PATH",
                      help=_("where to write it (default: {path})").format(path=default_path()))
    init.add_argument("--force", action="store_true", help=_("overwrite an existing file"))
    init.set_defaults(run=run_init)


def run_show(args: argparse.Namespace) -> int:
    """`referee config show`."""
    settings, _profile = settings_from(args)
    path = args.config or default_path()
    found = "" if path.exists() else _(" (none there: `referee config init` writes one)")
    sys.stdout.write(_("hall settings file: {path}").format(path=path) + found + "\n")
    if args.profile is not None:
        sys.stdout.write(_("referee profile: {path}").format(path=args.profile) + "\n")
    width = max(len(key.key) for key in KEYS.values())
    for name, key in KEYS.items():
        value = getattr(settings, name)
        value = hidden(value) if name == "push" and value is not None else value
        shown = _("(not set)") if value is None else toml(value)
        sys.stdout.write(f"{key.key:<{width}}  {shown:<12}  {_(settings.source(name))}\n")
    return 0


def hidden(conninfo: str) -> str:
    """The hall's connection string without its password (none of it without psycopg)."""
    try:
        from voice.hall.target import shown
    except ImportError:
        return "…"
    return shown(conninfo)


def run_init(args: argparse.Namespace) -> int:
    """`referee config init`."""
    path: Path = args.config or default_path()
    if path.exists() and not args.force:
        raise UsageError(N_("{path} already exists; `referee config show --config {path}` shows "
                            "it, --force overwrites it"), path=path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(commented_file(), encoding="utf-8")
    except OSError as error:
        raise UsageError(N_("cannot write {path}: {reason}"), path=path,
                         reason=error.strerror) from None
    sys.stdout.write(_("wrote {path}: every key at its default, with what it allows")
                     .format(path=path) + "\n")
    return 0
