"""The PA's echo kept between sessions for each pair of devices."""

import os
from datetime import UTC, datetime

import pytest

from voice.hearing.echo_memory import EchoMemoryError, Kept, keep, recall

WHEN = datetime(2026, 12, 4, 17, 0, tzinfo=UTC)


def test_an_echo_kept_for_two_devices_is_recalled_for_them_alone(tmp_path):
    path = tmp_path / "state" / "echoes.json"
    assert recall(path, "USB mic", "Hall PA") is None  # no file yet
    keep(path, "USB mic", "Hall PA", Kept(0.05, WHEN))
    keep(path, "USB mic", "Bar PA", Kept(0.5, WHEN))
    kept = recall(path, "USB mic", "Hall PA")
    assert kept is not None and round(kept.db, 1) == -13.0 and kept.measured == WHEN
    assert recall(path, "Other mic", "Hall PA") is None
    keep(path, "USB mic", "Hall PA", Kept(0.1, WHEN))  # measured again: the newer is kept
    assert round(recall(path, "USB mic", "Hall PA").db, 1) == -10.0
    assert round(recall(path, "USB mic", "Bar PA").db, 1) == -3.0


@pytest.mark.parametrize("text", ["{not json", '{"version": 1}', '{"version": 7, "echoes": {}}',
                                  "[]"])
def test_a_file_that_is_not_one_of_kept_echoes_is_named(tmp_path, text):
    path = tmp_path / "echoes.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(EchoMemoryError, match="is not a file of kept echoes; delete it"):
        recall(path, "mic", "PA")
    with pytest.raises(EchoMemoryError):  # nor is it overwritten
        keep(path, "mic", "PA", Kept(0.1, WHEN))
    assert path.read_text(encoding="utf-8") == text


@pytest.mark.parametrize("entry", ['"loud"', '{"echo_db": "x", "measured": "2026-12-04"}',
                                   '{"echo_db": 1e999, "measured": "2026-12-04"}',
                                   '{"echo_db": -10}'])
def test_a_malformed_echo_is_named_with_its_devices(tmp_path, entry):
    path = tmp_path / "echoes.json"
    path.write_text(f'{{"version": 1, "echoes": {{"mic → PA": {entry}}}}}', encoding="utf-8")
    with pytest.raises(EchoMemoryError, match="the echo kept for mic → PA is malformed"):
        recall(path, "mic", "PA")


def test_a_place_it_cannot_read_or_write_is_named(tmp_path):
    (tmp_path / "state").write_text("a file where its folder should be", encoding="utf-8")
    with pytest.raises(EchoMemoryError, match="cannot read the echoes kept in .*echoes.json: "):
        recall(tmp_path / "state" / "echoes.json", "mic", "PA")
    (tmp_path / f"echoes.json.{os.getpid()}.new").mkdir()  # written, then put in its place
    with pytest.raises(EchoMemoryError, match="cannot keep the echo in .*echoes.json: "):
        keep(tmp_path / "echoes.json", "mic", "PA", Kept(0.1, WHEN))
