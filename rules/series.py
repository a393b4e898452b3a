"""An immutable sequence that grows at its end and shares what it held with what it grew into.

`appended` costs O(CHUNK) time and new memory, whatever the length: the items are kept in
chunks of CHUNK, complete chunks linked newest first and shared by every later series, so N
series each grown from the one before hold O(N · CHUNK) in all, not O(N²).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import Generic, TypeVar, overload

T = TypeVar("T")

CHUNK = 32  # items per complete chunk: an append copies at most this many


@dataclass(frozen=True, slots=True)
class _Chunk(Generic[T]):
    """CHUNK items, linked to the complete chunk before them."""

    items: tuple[T, ...]
    earlier: _Chunk[T] | None


class Series(Sequence[T]):
    """Items in order: complete chunks, shared, then a tail of fewer than CHUNK items."""

    __slots__ = ("_chunks", "_tail", "_length")

    def __init__(self, items: Iterable[T] = ()) -> None:
        chunks: _Chunk[T] | None = None
        tail = tuple(items)
        length = len(tail)
        while len(tail) >= CHUNK:
            chunks, tail = _Chunk(tail[:CHUNK], chunks), tail[CHUNK:]
        self._chunks, self._tail, self._length = chunks, tail, length

    def appended(self, item: T) -> Series[T]:
        """This series and `item` after it; this one is not changed, and all its complete
        chunks are shared."""
        grown: Series[T] = Series()
        tail = (*self._tail, item)
        if len(tail) == CHUNK:
            grown._chunks, grown._tail = _Chunk(tail, self._chunks), ()
        else:
            grown._chunks, grown._tail = self._chunks, tail
        grown._length = self._length + 1
        return grown

    def chunks(self) -> Iterator[tuple[T, ...]]:
        """The complete chunks, newest first: the storage later series share."""
        chunk = self._chunks
        while chunk is not None:
            yield chunk.items
            chunk = chunk.earlier

    def __len__(self) -> int:
        return self._length

    def __iter__(self) -> Iterator[T]:
        return chain(*reversed(list(self.chunks())), self._tail)

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[T, ...]: ...

    def __getitem__(self, index: int | slice) -> T | tuple[T, ...]:
        return tuple(self)[index]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Series) or len(self) != len(other):
            return False
        if self._chunks is other._chunks:
            return self._tail == other._tail
        return tuple(self) == tuple(other)

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"Series({list(self)!r})"
