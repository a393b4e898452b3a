"""The echo a `referee run` session learns, kept for the next as it goes and at its end."""

import numpy as np
import pytest

from voice.cli.kept_echo import KEEP_EVERY_S, EchoKeeper
from voice.hearing.audio import TARGET_RATE
from voice.hearing.echo_level import EchoLevel
from voice.hearing.echo_memory import recall
from voice.settings import echoes_path

FAR = (np.random.default_rng(1).normal(0, 0.1, TARGET_RATE) * 32767).astype(np.int16)  # 1 s


def heard(level: EchoLevel, seconds: int, echo_db: float) -> None:
    """`seconds` of the PA through `level`, its echo `echo_db` against it in the microphone."""
    for _ in range(seconds):
        level.note((FAR * 10 ** (echo_db / 20)).astype(np.int16), FAR)


def kept_db() -> float | None:
    kept = recall(echoes_path(), "mic", "PA")
    return None if kept is None else round(kept.db, 1)


def test_a_session_keeps_its_echo_once_learned_not_only_at_its_end():
    level, lines, clock = EchoLevel(), [], [0.0]
    keeper = EchoKeeper(level, "mic", "PA", lines.append, clock=lambda: clock[0])
    heard(level, 1, -13)
    keeper.watch()  # two blocks: too few to keep
    assert lines == [] and kept_db() is None
    heard(level, 4, -13)
    keeper.watch()  # learned: kept at once, so a session killed later has kept it
    assert lines == ["the PA's echo in the microphone, -13.0 dB, kept for the next session"]
    assert kept_db() == -13.0
    heard(level, 10, -10)
    clock[0] = KEEP_EVERY_S - 1
    keeper.watch()  # moved by 3 dB, but kept less than a minute ago
    assert kept_db() == -13.0
    clock[0] = KEEP_EVERY_S
    keeper.watch()
    assert kept_db() == -10.0 and len(lines) == 2
    heard(level, 10, -10.5)
    clock[0] = 10 * KEEP_EVERY_S
    keeper.watch()  # moved by half a decibel: not written again
    assert kept_db() == -10.0 and len(lines) == 2
    keeper.close()  # the end keeps it as last learned
    assert kept_db() == -10.5 and len(lines) == 3
    keeper.close()  # kept already: not again
    assert len(lines) == 3


def test_a_session_that_learned_no_echo_keeps_none(tmp_path):
    level, lines = EchoLevel(), []
    keeper = EchoKeeper(level, "mic", "PA", lines.append)
    heard(level, 1, -13)
    keeper.watch()
    keeper.close()
    assert lines == [] and not echoes_path().exists()


def test_an_echo_that_cannot_be_kept_is_said_once_then_tried_at_the_end(monkeypatch, tmp_path):
    blocked = tmp_path / "file"
    blocked.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("XDG_STATE_HOME", str(blocked))  # the state folder cannot be made
    level, lines, clock = EchoLevel(), [], [0.0]
    keeper = EchoKeeper(level, "mic", "PA", lines.append, clock=lambda: clock[0])
    for minute in range(3):
        heard(level, 5, -13 + 5 * minute)
        clock[0] = minute * KEEP_EVERY_S
        keeper.watch()
    assert len(lines) == 1 and lines[0].startswith(f"cannot read the echoes kept in {blocked}/")
    assert lines[0].endswith("; the next session measures the echo afresh")
    keeper.close()
    assert len(lines) == 2 and keeper.kept is None


@pytest.mark.parametrize("closing", [True, False], ids=["stopped", "killed"])
def test_the_echo_kept_does_not_wait_for_the_session_to_stop(closing):
    level = EchoLevel()
    keeper = EchoKeeper(level, "mic", "PA", lambda line: None)
    heard(level, 5, -20)
    keeper.watch()
    if closing:
        keeper.close()
    assert kept_db() == -20.0
