"""The signals that stop a long-running command gracefully, and the handler that catches them."""

from __future__ import annotations

import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager

# The hall's service manager stops with SIGTERM; a closed terminal or SSH session sends SIGHUP.
# Either way what is queued is finished and the record told: Ctrl-C (SIGINT) stops the same way,
# through KeyboardInterrupt.
STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP)


@contextmanager
def on_stop_signal(stop: Callable[[], None]) -> Iterator[None]:
    """Call `stop` on any of STOP_SIGNALS while the block runs (in the main thread, between
    bytecodes), instead of dying; the previous handlers come back after it.

    A signal ignored when the command started stays ignored: `nohup referee run` must outlive
    the session that started it, as POSIX programs keep an inherited SIG_IGN."""
    caught = [n for n in STOP_SIGNALS if signal.getsignal(n) is not signal.SIG_IGN]
    previous = {number: signal.signal(number, lambda _, __: stop()) for number in caught}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
