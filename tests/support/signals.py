"""The stop signals as a program started at a terminal gets them, whatever this test run inherited.

`nohup` starts a program with SIGHUP ignored; a script's `&` and some CI runners with SIGINT
ignored. A program keeps an inherited SIG_IGN, as POSIX shells expect, and so do `referee run`
and `serve`: the tests that stop them with a signal set the terminal's dispositions first.
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager

SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


@contextmanager
def as_at_a_terminal() -> Iterator[None]:
    """In this process, for the block: Ctrl-C raises KeyboardInterrupt, the others are default."""
    previous = {number: signal.signal(number, signal.SIG_DFL) for number in SIGNALS}
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def at_a_terminal() -> None:
    """A child's `preexec_fn`: the default dispositions, before it runs (Python then makes
    SIGINT raise KeyboardInterrupt)."""
    for number in SIGNALS:
        signal.signal(number, signal.SIG_DFL)
