"""Check that a directory holds a usable vosk model before vosk itself is asked to load it."""

from __future__ import annotations

import mmap
import struct
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from rules.errors import RefereeError
from voice.translation import N_

_FST_MAGIC = 2125659606
_SYMBOL_TABLE_MAGIC = 2125658996
_HAS_ISYMBOLS = 1
_HAS_OSYMBOLS = 2


class ModelError(RefereeError):
    """A speech model is missing or unusable; the message names the path and the fix."""


@dataclass(frozen=True)
class ModelInfo:
    """What check_model found: the model directory, its graph and where its words come from."""

    path: Path
    runtime_grammars: bool  # lookahead graph (HCLr.fst + Gr.fst) rather than a static HCLG.fst
    words_source: Path  # graph/words.txt, or the FST whose output symbol table lists the words

    @cached_property
    def vocabulary(self) -> frozenset[str]:
        """Every word the model can output (read on first use: ~1 s for a 500k-word table)."""
        if self.words_source.name == "words.txt":
            return _read_words_txt(self.words_source)
        return _read_fst_output_symbols(self.words_source)


def check_model(path: str | Path) -> ModelInfo:
    """Say whether `path` is a usable vosk model (v2 layout); raise ModelError if not."""
    path = Path(path)
    if not path.is_dir():
        raise ModelError(N_("no vosk model at {path}"), path=path)
    graph = path / "graph"
    hclg = graph / "HCLG.fst"
    lookahead = [graph / "HCLr.fst", graph / "Gr.fst", graph / "disambig_tid.int"]
    required = [path / "am/final.mdl", path / "conf/mfcc.conf", path / "conf/model.conf"]
    # vosk prefers a static HCLG.fst when both graphs are present.
    runtime_grammars = not hclg.exists()
    required += lookahead if runtime_grammars else [hclg]
    missing = [str(p.relative_to(path)) for p in required if not _non_empty(p)]
    if missing:
        message = (N_("{path} is not a usable vosk model: missing or empty {missing} (graph/ "
                      "needs HCLG.fst, or HCLr.fst+Gr.fst)") if runtime_grammars else
                   N_("{path} is not a usable vosk model: missing or empty {missing}"))
        raise ModelError(message, path=path, missing=", ".join(missing))
    # Like vosk: words embedded in the graph win over graph/words.txt.
    fst = graph / ("Gr.fst" if runtime_grammars else "HCLG.fst")
    words_txt = graph / "words.txt"
    if _has_output_symbols(fst):
        words_source = fst
    elif _non_empty(words_txt):
        words_source = words_txt
    else:
        raise ModelError(N_("{path} is not a usable vosk model: no graph/words.txt and {fst} "
                            "carries no word symbol table"), path=path, fst=fst.name)
    return ModelInfo(path=path, runtime_grammars=runtime_grammars, words_source=words_source)


def _non_empty(path: Path) -> bool:
    """True if `path` is a file with at least one byte."""
    return path.is_file() and path.stat().st_size > 0


def _has_output_symbols(fst: Path) -> bool:
    """True if the OpenFst file at `fst` embeds an output symbol table; ModelError if corrupt."""
    with fst.open("rb") as f:
        return bool(_FstHeader(f.read(4096), fst).flags & _HAS_OSYMBOLS)


def _read_words_txt(path: Path) -> frozenset[str]:
    """The first column of a Kaldi words.txt ("word id" per line)."""
    with path.open(encoding="utf-8") as f:
        return frozenset(line.split()[0] for line in f if line.strip())


def _read_fst_output_symbols(fst: Path) -> frozenset[str]:
    """The output symbols embedded in an OpenFst binary file's header."""
    with fst.open("rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as data:
        header = _FstHeader(data, fst)
        if header.flags & _HAS_ISYMBOLS:
            header.symbol_table()
        return frozenset(header.symbol_table())


class _FstHeader:
    """A reader over an OpenFst binary header, positioned after the fixed fields."""

    def __init__(self, data: bytes | mmap.mmap, path: Path) -> None:
        self.data, self.path, self.pos = data, path, 0
        if self._int32() != _FST_MAGIC:
            raise ModelError(N_("{path} is not an OpenFst file (bad magic number)"), path=path)
        self._string()  # FST type, e.g. "vector", "const", "ngram", "olabel_lookahead"
        self._string()  # arc type, e.g. "standard"
        self._int32()  # version
        self.flags = self._int32()
        self.pos += 8 * 4  # properties, start state, number of states, number of arcs

    def symbol_table(self) -> list[str]:
        """Read the symbol table at the current position and return its symbols."""
        if self._int32() != _SYMBOL_TABLE_MAGIC:
            raise ModelError(N_("{path}: corrupt symbol table"), path=self.path)
        self._string()  # table name
        self.pos += 8  # available key
        (size,) = struct.unpack_from("<q", self.data, self.pos)
        self.pos += 8
        data, pos, symbols = self.data, self.pos, []
        for _ in range(size):
            n = int.from_bytes(data[pos : pos + 4], "little")
            symbols.append(data[pos + 4 : pos + 4 + n].decode("utf-8"))
            pos += 4 + n + 8  # length, symbol, 64-bit key
        if pos > len(data):
            raise ModelError(N_("{path}: truncated symbol table"), path=self.path)
        self.pos = pos
        return symbols

    def _int32(self) -> int:
        try:
            (value,) = struct.unpack_from("<i", self.data, self.pos)
        except struct.error:
            raise ModelError(N_("{path}: truncated OpenFst header"), path=self.path) from None
        self.pos += 4
        return int(value)

    def _string(self) -> bytes:
        n = self._int32()
        value = self.data[self.pos : self.pos + n]
        self.pos += n
        return value
