"""Rate limits per client address, over moving windows (`limits`): wrong tokens, public reads."""

from __future__ import annotations

import ipaddress
import math
import time
from dataclasses import dataclass

from limits import RateLimitItem, parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter


@dataclass(frozen=True)
class Limits:
    """How many of each an address may send, in the `limits` notation ("10/minute")."""

    wrong_tokens: str = "10/minute"
    reads: str = "120/minute"  # pages, states, events and WebSocket connections


class Throttle:
    """Counts each address's wrong tokens and reads; an answer is the seconds to wait, or None.

    Reads from this machine are not counted: it serves the loopback clients it was started for
    (the benchmarks, the browser on the same computer), and Host checks stop rebinding pages.
    """

    def __init__(self, limits: Limits) -> None:
        self._windows = MovingWindowRateLimiter(MemoryStorage())
        self._wrong = parse(limits.wrong_tokens)
        self._reads = parse(limits.reads)

    def locked(self, address: str) -> float | None:
        """The wait before this address may try a token again, None if it may now."""
        if self._windows.test(self._wrong, address):
            return None
        return self._seconds(self._wrong, address)

    def wrong_token(self, address: str) -> None:
        """Count a wrong (or missing) token from this address."""
        self._windows.hit(self._wrong, address)

    def read(self, address: str) -> float | None:
        """Count a public read; the wait before the next, None when this one may go ahead."""
        if this_machine(address) or self._windows.hit(self._reads, address):
            return None
        return self._seconds(self._reads, address)

    def _seconds(self, item: RateLimitItem, address: str) -> float:
        reset = self._windows.get_window_stats(item, address).reset_time
        return max(1.0, math.ceil(reset - time.time()))


def this_machine(address: str) -> bool:
    """Whether a client address is a loopback one: a client on this machine."""
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False
