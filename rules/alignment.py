"""Word-by-word alignment of heard text with a phrase: every word on both sides accounted for."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from functools import cache, lru_cache

from rapidfuzz import fuzz

WORD_SCORE = 75.0  # the similarity (0–100) below which a word is not accounted for at all
JOINED_SCORE = 85.0  # the same for words written together: merges rarely change the spelling
MAX_JOINED = 3  # words a recogniser may split one word into, or merge into one
MAX_SKIPPED = 2  # hesitations passed over in one utterance
# (heard words, said words) one pair may hold: one against one, or against several joined.
SPANS = ((1, 1), *((n, 1) for n in range(2, MAX_JOINED + 1)),
         *((1, n) for n in range(2, MAX_JOINED + 1)))


def align(
    heard: Sequence[str], said: Sequence[str], skippable: Collection[str],
    fold: Callable[[str], str],
) -> float | None:
    """How well `heard` is `said`, word for word: the lowest similarity of a matched pair.

    Words are compared as `fold` spells them. A pair is one word against one, or against up to
    MAX_JOINED consecutive words of the other side written together («ποντοσεξω» is «πόντος
    έξω»), each of which must be found in it. Up to MAX_SKIPPED `skippable` heard words may be
    passed over (`skippable` is folded). None when a word, heard or said, has no counterpart scoring
    WORD_SCORE (JOINED_SCORE when written together).
    """

    @cache
    def best(i: int, j: int, skipped: int) -> float | None:
        if i == len(heard) and j == len(said):
            return 100.0
        found: list[float] = []
        if i < len(heard) and fold(heard[i]) in skippable and skipped < MAX_SKIPPED:
            rest = best(i + 1, j, skipped + 1)
            if rest is not None:
                found.append(rest)
        for a, b in SPANS:
            if i + a > len(heard) or j + b > len(said):
                continue
            score = similarity(tuple(heard[i : i + a]), tuple(said[j : j + b]), fold)
            if score < (WORD_SCORE if a == b else JOINED_SCORE):
                continue
            rest = best(i + a, j + b, skipped)
            if rest is not None:
                found.append(min(score, rest))
        return max(found, default=None)

    return best(0, 0, 0)


@lru_cache(maxsize=1 << 16)
def similarity(
    heard: tuple[str, ...], said: tuple[str, ...], fold: Callable[[str], str]
) -> float:
    """How alike the words are written together (0–100), as spelled or as folded, whichever is
    closer; when one side is several words, no more than the worst-found of them."""
    return max(_joined(heard, said), _joined(tuple(map(fold, heard)), tuple(map(fold, said))))


def _joined(heard: tuple[str, ...], said: tuple[str, ...]) -> float:
    one, many = ("".join(heard), said) if len(said) > 1 else ("".join(said), heard)
    score = fuzz.ratio("".join(heard), "".join(said))
    if len(many) > 1:
        score = min(score, *(fuzz.partial_ratio(word, one) for word in many))
    return float(score)
