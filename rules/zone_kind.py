"""The kinds of zone the object balls can lie in: libre's triangles, cadre's frames and anchors."""

from __future__ import annotations

from enum import StrEnum


class ZoneKind(StrEnum):
    """A zone's kind; it is also the variant of the call (ENTRÉES, DEDANS …) that names it."""

    TRIANGLE = "triangle"  # libre: a corner triangle
    FRAME = "frame"  # cadre: one of the nine frames the balk lines draw
    ANCHOR = "anchor"  # cadre: an anchor square, within a frame
