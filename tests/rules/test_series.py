"""The innings' sequence: grown one item at a time, it reads as a tuple of its items, and each
longer series shares the complete chunks of the one it grew from."""

from hypothesis import given
from hypothesis import strategies as st

from rules.series import CHUNK, Series

ITEMS = st.lists(st.integers(0, 50), max_size=4 * CHUNK + 3)


def grown(items: list[int]) -> list[Series[int]]:
    """The series from empty to `items`, one appended item at a time."""
    series = [Series[int]()]
    for item in items:
        series.append(series[-1].appended(item))
    return series


@given(ITEMS, st.integers(-5 * CHUNK, 5 * CHUNK), st.integers(-5 * CHUNK, 5 * CHUNK))
def test_a_grown_series_reads_as_the_tuple_of_its_items(items, start, stop):
    every = grown(items)
    series, expected = every[-1], tuple(items)
    assert tuple(series) == expected and len(series) == len(expected)
    assert series[start:stop] == expected[start:stop] and series[:start] == expected[:start]
    if expected:
        assert series[start % len(expected)] == expected[start % len(expected)]
    assert [tuple(s) for s in every] == [expected[:n] for n in range(len(expected) + 1)]


@given(ITEMS)
def test_series_with_the_same_items_are_equal_however_made(items):
    series = grown(items)[-1]
    assert series == Series(items) and hash(series) == hash(Series(items))
    assert series != Series([*items, 0]) and series != tuple(items)


@given(ITEMS)
def test_growing_shares_every_complete_chunk_and_copies_at_most_one(items):
    every = grown(items)
    for shorter, longer in zip(every, every[1:], strict=False):
        before, after = list(shorter.chunks()), list(longer.chunks())
        assert all(len(chunk) == CHUNK for chunk in after)
        assert all(a is b for a, b in zip(after[len(after) - len(before) :], before, strict=True))
        assert len(after) - len(before) in (0, 1)
