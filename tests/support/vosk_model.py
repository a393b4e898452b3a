"""Fake vosk model directories: the right layout around junk, for the model checks."""

from __future__ import annotations

import struct
from pathlib import Path


def fst_header(flags: int) -> bytes:
    """An OpenFst binary header (magic, type, arc type, version, flags, counts) and no body."""
    strings = b"".join(len(t).to_bytes(4, "little") + t for t in (b"vector", b"standard"))
    return struct.pack("<i", 2125659606) + strings + struct.pack("<ii", 2, flags) + bytes(32)


def fake_static_model(path: Path, words: str) -> Path:
    """A static-graph (HCLG.fst) model directory: right layout, junk acoustic model."""
    for part in ["am/final.mdl", "conf/mfcc.conf", "conf/model.conf"]:
        (path / part).parent.mkdir(parents=True, exist_ok=True)
        (path / part).write_bytes(b"junk")
    (path / "graph").mkdir()
    (path / "graph" / "HCLG.fst").write_bytes(fst_header(flags=0))
    (path / "graph" / "words.txt").write_text(words, encoding="utf-8")
    return path
