"""The text espeak-ng is given: words and letters it misreads respelt as `espeak.toml` says."""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Callable
from importlib.resources import files

STRESS_MARK = "ˈ"  # IPA's primary stress: espeak-ng stresses the word after it on its accent


@functools.cache
def _rules() -> tuple[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]], ...]:
    data = tomllib.loads(files(__package__).joinpath("espeak.toml").read_text(encoding="utf-8"))
    stressed = "|".join(map(re.escape, data["stressed"]))
    words = {word.casefold(): said for word, said in data["words"].items()}
    return (
        (re.compile(rf"\b({stressed})\b", re.IGNORECASE), rf"{STRESS_MARK}\1"),
        (re.compile(rf"\b({'|'.join(map(re.escape, words))})\b", re.IGNORECASE),
         lambda found: words[found[0].casefold()]),
        *((re.compile(pattern, re.IGNORECASE), said) for pattern, said in data["letters"].items()),
    )


def for_espeak(text: str) -> str:
    """`text` as espeak-ng's Greek voice should be given it: «είκοσι ένα, ποιος ξεκινά;» as
    «είκοσι ˈένα, πιος ξεκινά;»."""
    for pattern, said in _rules():
        text = pattern.sub(said, text)
    return text
