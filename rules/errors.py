"""The one base class of the project's own errors: each states the fault where it arises."""

from __future__ import annotations


class RefereeError(Exception):
    """A fault the referee assistant reports in one line; the edge that shows it adds the fix.

    Given `fields`, `message` is a template ({name}) the edge may show translated."""

    def __init__(self, message: str, /, **fields: object) -> None:
        super().__init__(message.format(**fields) if fields else message)
        self.message = message
        self.fields = fields
