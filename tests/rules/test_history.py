"""What a command and an undo cost: the history is shared, never copied, and an undo replays
only the commands since the checkpoint before it (counted, not timed); the checkpoints share
what grows with the match, so memory is linear in its length (traced, not timed)."""

import gc
import tracemalloc
from collections.abc import Iterator
from contextlib import contextmanager
from itertools import pairwise

import pytest

import rules.match
from rules.command import Command, Kind
from rules.match import apply, replay
from rules.state import CHECKPOINT_EVERY, Match, Setup, new_match
from tests.support.match import PLAYERS

SETUP = Setup("libre", 10_000, PLAYERS)
POINT, MISS, UNDO = Command(Kind.POINT), Command(Kind.MISS), Command(Kind.UNDO)


def strokes(count: int) -> list[Command]:
    """`count` strokes: runs of three points, then a miss."""
    return [MISS if n % 4 == 3 else POINT for n in range(count)]


@contextmanager
def counted(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Command]]:
    """Every command the rules apply inside the block, the replays of an undo included."""
    applied: list[Command] = []
    original = rules.match.apply

    def counting(match: Match, command: Command) -> rules.match.Result:
        applied.append(command)
        return original(match, command)

    monkeypatch.setattr(rules.match, "apply", counting)
    yield applied
    monkeypatch.undo()


def test_a_command_extends_the_history_and_shares_all_of_it():
    match = replay(SETUP, strokes(500))
    new, _ = apply(match, POINT)
    assert len(new.history) == 501
    assert new.history.newest is not None and new.history.newest.earlier is match.history.newest


@pytest.mark.parametrize("count", [1, CHECKPOINT_EVERY - 1, CHECKPOINT_EVERY, 1000, 20_000])
def test_an_undo_replays_fewer_commands_than_the_checkpoint_interval(monkeypatch, count):
    match = replay(SETUP, strokes(count))
    with counted(monkeypatch) as applied:
        undone, _ = rules.match.apply(match, UNDO)
    assert undone == replay(SETUP, strokes(count - 1))
    assert 1 <= len(applied) <= CHECKPOINT_EVERY  # the undo itself, and at most 15 replayed


def test_a_record_with_many_undos_replays_in_linear_time(monkeypatch):
    record = []
    for n, command in enumerate(strokes(5000)):
        record.append(command)
        if n % 10 == 9:  # 500 undos, some of them in a row
            record.extend([UNDO] * (1 + n % 3))
    with counted(monkeypatch) as applied:
        match = rules.match.replay(SETUP, record)
    undos = record.count(UNDO)
    assert len(applied) <= len(record) + undos * (CHECKPOINT_EVERY - 1)
    assert match == replay(SETUP, list(match.history))


def test_checkpoints_share_every_complete_chunk_of_the_innings():
    match = replay(SETUP, strokes(5000))
    checkpoints = [e.before for e in match.history.entries() if e.before is not None]
    assert len(checkpoints) == 5000 // CHECKPOINT_EVERY + 1
    for newer, older in pairwise(checkpoints):
        for new, old in zip(newer.players, older.players, strict=True):
            mine, theirs = list(new.innings_points.chunks()), list(old.innings_points.chunks())
            assert all(a is b for a, b in zip(mine[len(mine) - len(theirs) :], theirs, strict=True))
    assert min(len(list(p.innings_points.chunks())) for p in match.players) >= 10


def kept(count: int) -> int:
    """The bytes a match replayed through `count` strokes keeps, as tracemalloc counts them."""
    commands = strokes(count)
    gc.collect()
    tracemalloc.start()
    try:
        match = replay(SETUP, commands)
        gc.collect()
        assert len(match.history) == count
        return tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()


def test_a_match_four_times_as_long_keeps_at_most_five_times_the_memory():
    kept(100)  # what the first replay caches is not the match's
    assert kept(10_000) <= 5 * kept(2500)  # with a copy of the innings per checkpoint: 9.5×


def test_equal_histories_compare_equal_though_built_apart():
    built = replay(SETUP, strokes(40))
    undone, _ = apply(apply(built, POINT)[0], UNDO)
    assert undone == built and hash(undone) == hash(built)
    assert undone.history.newest is not built.history.newest
    assert new_match(SETUP).history != built.history
