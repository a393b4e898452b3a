"""Zone positions (ENTRÉES, DEDANS) of the libre triangles and the cadre frames and anchors."""

from __future__ import annotations

from rules.announcement import Announcement, Code
from rules.discipline import Discipline
from rules.state import Zone
from rules.zone_kind import ZoneKind


def entered(kind: ZoneKind, rules: Discipline) -> Zone:
    """A zone the object balls have just come into.

    Of the points allowed inside, the last must take an object ball out, so the caroms that
    may leave both balls inside are one fewer: none in cadre 47/1, hence DEDANS at once.
    """
    return Zone(kind, rules.points_inside - 1)


def position(zone: Zone) -> Announcement:
    """The call for a zone's position: DEDANS when no carom may leave the balls in it."""
    code = Code.DEDANS if zone.strokes_left == 0 else Code.ENTREES
    return Announcement(code, variant=zone.kind)


def frame_kind(rules: Discipline) -> ZoneKind:
    """The big zone of the discipline: the libre triangle or the cadre frame."""
    if rules.zone is None:
        raise ValueError(f"{rules.name} has no zones")
    return rules.zone


def after_carom(zones: tuple[Zone, ...]) -> tuple[tuple[Zone, ...], list[Announcement]]:
    """The zones after a carom that left both balls in them, and the DEDANS calls it makes."""
    kept = tuple(Zone(z.kind, z.strokes_left - 1) for z in zones)
    return kept, [position(z) for z in kept if z.strokes_left == 0]


def blocking(zones: tuple[Zone, ...]) -> Zone | None:
    """The first zone (frame before anchor) where a carom keeping the balls in is RESTÉES."""
    return next((z for z in zones if z.strokes_left == 0), None)
