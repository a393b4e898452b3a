"""How the statistics read on every surface: one rule for the average.

The average is points per inning truncated to 3 decimals, as UMB result sheets print it (2 in
3 innings: 0.666, never 0.667): a number with a point in machine formats (JSON, the board's
API), the same digits with the decimal comma on the Greek surfaces (the protocol, the board, the
summary) and in the CSV, which a Greek spreadsheet reads (there "1.666" is 1666).
"""

from __future__ import annotations

DECIMALS = 3
SCALE: int = 10**DECIMALS


def truncated(points: int, innings: int) -> int:
    """Points per inning in thousandths, truncated (0 before the first inning).

    >>> truncated(2, 3), truncated(31, 15), truncated(5, 0)
    (666, 2066, 0)
    """
    return points * SCALE // innings if innings else 0


def average(points: int, innings: int) -> float:
    """The average for machine formats: the truncated thousandths as a number.

    >>> average(2, 3), average(31, 15)
    (0.666, 2.066)
    """
    return truncated(points, innings) / SCALE


def written(points: int, innings: int) -> str:
    """The average as text, all 3 decimals, with the decimal comma the Greek surfaces and the
    CSV print.

    >>> written(2, 3), written(31, 15), written(0, 4), written(1, 2)
    ('0,666', '2,066', '0,000', '0,500')
    """
    whole, part = divmod(truncated(points, innings), SCALE)
    return f"{whole},{part:0{DECIMALS}d}"
