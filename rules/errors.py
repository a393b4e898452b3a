"""The one base class of the project's own errors: each states the fault where it arises."""

from __future__ import annotations


class RefereeError(Exception):
    """A fault the referee assistant reports in one line; the edge that shows it adds the fix."""
