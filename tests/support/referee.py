"""The one in-process `referee` runner the command-line tests share."""

from __future__ import annotations

import io
import sys
from contextlib import redirect_stderr, redirect_stdout
from typing import NamedTuple
from unittest import mock


class Ran(NamedTuple):
    """What one `referee` command did: its exit code and what it wrote."""

    code: int
    out: str
    err: str


def referee(*args: object, stdin: str | bytes = b"") -> Ran:
    """Run `referee ARGS...` in this process, with `stdin` as its standard input."""
    from voice.cli.main import main  # not at import: the core's tests load nothing of voice/

    data = stdin.encode("utf-8") if isinstance(stdin, str) else stdin
    out, err = io.StringIO(), io.StringIO()
    stream = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    with redirect_stdout(out), redirect_stderr(err), mock.patch.object(sys, "stdin", stream):
        try:
            code = main([str(a) for a in args])
        except SystemExit as done:  # argparse's usage errors and --help
            code = done.code if isinstance(done.code, int) else 2
    return Ran(code, out.getvalue(), err.getvalue())
