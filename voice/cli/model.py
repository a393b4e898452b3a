"""`referee model check|fetch`: is a directory a usable vosk model; download and unpack one."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from voice.cli.arguments import Parser, Subcommands, UsageError, add_command
from voice.hearing.fetch import HEX64, KNOWN, Needs, fetch, kept_sha256, needs
from voice.hearing.model import ModelInfo, check_model
from voice.translation import N_, Line, _

DEFAULT_NAME = "vosk-model-el-gr-0.7"


def register(sub: Subcommands) -> None:
    """Add `model check` and `model fetch` to the command line."""
    model = add_command(sub, "model", _("check or download a vosk speech model"))
    actions = model.add_subparsers(dest="action", required=True, parser_class=Parser)
    check = add_command(actions, "check", _("say whether a directory is a usable vosk model"))
    check.add_argument("path", type=Path, help=_("the model directory"))
    check.set_defaults(run=run_check)
    get = add_command(actions, "fetch", _("download, verify and unpack a vosk model"))
    get.add_argument("--name", default=DEFAULT_NAME,
                     help=_("the model, and the folder it is unpacked as (default: {name})")
                     .format(name=DEFAULT_NAME))
    get.add_argument("--url", help=_("where to download the zip (default: the known model's)"))
    get.add_argument("--sha256", metavar="HEX",
                     help=_("the archive's SHA-256 (default: the pinned one; without one, the "
                     "download must come over HTTPS and its SHA-256 is printed and kept)"))
    get.add_argument("--dest", type=Path, default=Path("models"),
                     help=_("the folder to unpack into (default: models)"))
    get.set_defaults(run=run_fetch)


def describe(info: ModelInfo) -> str:
    """What a usable model offers, in one line."""
    graph = (_("runtime grammars: yes (lookahead graph HCLr.fst + Gr.fst)")
             if info.runtime_grammars
             else _("runtime grammars: no (static HCLG.fst: free-form recognition)"))
    return _("{path}: a usable vosk model; {graph}; vocabulary: {count:,} words (from {words})"
             ).format(path=info.path, graph=graph, count=len(info.vocabulary),
                      words=info.words_source.relative_to(info.path))


def run_check(args: argparse.Namespace) -> int:
    """`referee model check`."""
    info = check_model(args.path)
    sys.stdout.write(describe(info) + "\n")
    return 0


def run_fetch(args: argparse.Namespace) -> int:
    """`referee model fetch`."""
    known = KNOWN.get(args.name)
    url = args.url or (known.url if known else None)
    if url is None:
        raise UsageError(N_("--name {name} is not a model this project knows ({known}); give its "
                            "--url"), name=args.name, known=", ".join(KNOWN))
    if args.sha256 is not None and not HEX64.fullmatch(args.sha256):
        raise UsageError(N_("--sha256 must be 64 hexadecimal digits, got {given!r}"),
                         given=args.sha256)
    kept = kept_sha256(args.dest, args.name)
    sha256 = args.sha256 or (known.sha256 if known else None) or kept
    if known is not None and known.size is not None and not args.url:
        sys.stdout.write(plan(args.name, args.dest, needs(known.size, args.dest)) + "\n")
        sys.stdout.flush()
    progress = _Progress()
    try:
        fetched = fetch(url, sha256, args.dest, args.name, progress)
    finally:
        progress.end()
    from_kept = kept is not None and sha256 == kept
    checked = (_("checked against the one kept from the first fetch") if from_kept
               else _("checked") if sha256 else _(
        "not checked against any: compare it with a colleague's or the publisher's, and pin it "
        "in voice/hearing/fetch.py"
    ))
    sys.stdout.write(describe(fetched.info) + "\n" + _(
        "SHA-256 of the archive: {sha256} ({checked}); kept in {path}"
    ).format(sha256=fetched.sha256, checked=checked, path=fetched.sha256_file) + "\n")
    return 0


def plan(name: str, dest: Path, need: Needs) -> str:
    """What a model takes, said before its download: disk and memory, against what there is."""
    gb = 1e9
    line = Line(N_("{name}: about {download:.1f} GB to download; it needs about {disk:.1f} GB "
                   "free in {dest} (the archive and the model unpacked; free now: {free:.1f} GB) "
                   "and about {memory:.1f} GB of memory once loaded"),
                name=name, download=need.download / gb, disk=need.disk / gb, dest=dest,
                free=need.free / gb, memory=need.memory / gb).shown()
    if need.available is not None:
        line += Line(N_(" (available now: {available:.1f} GB)"),
                     available=need.available / gb).shown()
        if need.available < need.memory:
            line += _("; this computer has too little memory free to load it: close other "
                      "programs, or run the match on a computer with more")
    return line


class _Progress:
    """A progress bar on one stderr line, redrawn as the download goes."""

    WIDTH = 30

    def __init__(self) -> None:
        self.shown = False

    def __call__(self, done: int, total: int | None) -> None:
        if total:
            filled = self.WIDTH * done // total
            bar = f"[{'#' * filled}{'.' * (self.WIDTH - filled)}] {100 * done // total:3d} % "
            line = bar + Line(N_(" {done:.1f} of {total:.1f} MB"), done=done / 1e6,
                              total=total / 1e6).shown()
        else:
            line = f"{done / 1e6:.1f} MB"
        sys.stderr.write(f"\rreferee model fetch: {line}")
        sys.stderr.flush()
        self.shown = True

    def end(self) -> None:
        if self.shown:
            sys.stderr.write("\n")
