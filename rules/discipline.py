"""The disciplines of Article 3 as one table of the few facts in which they differ."""

from __future__ import annotations

from dataclasses import dataclass

from rules.announcement import Reason
from rules.command import Kind
from rules.errors import RefereeError
from rules.zone_kind import ZoneKind


class SetupError(RefereeError, ValueError):
    """A match set-up the rules cannot play: the message says which part and why."""


# The commands that speak of the zones, and LIBRES, which Article 3 names among the terms of
# the games with zones (libre, and cadre like it) and never for the cushion games.
ZONE_KINDS = frozenset(
    {Kind.POINT_OUT, Kind.POINT_ENTREES, Kind.ENTREES, Kind.OUT, Kind.A_CHEVAL, Kind.LIBRES}
)
ANCHOR_KINDS = frozenset(
    {Kind.POINT_OUT_ANCHOR, Kind.POINT_ENTREES_ANCHOR, Kind.ENTREES_ANCHOR, Kind.A_CHEVAL_ANCHOR}
)


@dataclass(frozen=True)
class Discipline:
    """What distinguishes one discipline's rules from another's."""

    name: str
    zone: ZoneKind | None  # the libre triangles, the cadre frames, or None (cushion games)
    anchors: bool  # cadre: the small anchor squares count as zones too
    points_inside: int  # points allowed while both object balls stay in one zone
    reminder: int  # "για πέντε" (5) in the series games, "για τρεις" (3) in three-cushion
    touchent_respot_mandatory: bool  # libre: re-spot at once; others: only if the player asks
    fault_six_respot: bool  # libre: fault 6 re-spots the break position for the opponent
    respot_on_spots: bool  # three-cushion: the re-spot after TOUCHENT uses the balls' spots

    def refusal(self, kind: Kind) -> Reason | None:
        """Why `kind` makes no sense here (no zones, no anchors), if it does not."""
        if kind in ZONE_KINDS and self.zone is None:
            return Reason.NO_ZONES
        if kind in ANCHOR_KINDS and not self.anchors:
            return Reason.NO_ANCHORS
        return None


DISCIPLINES: dict[str, Discipline] = {
    d.name: d
    for d in (
        Discipline("libre", ZoneKind.TRIANGLE, False, 2, 5, True, True, False),
        Discipline("cadre-47-2", ZoneKind.FRAME, True, 2, 5, False, False, False),
        Discipline("cadre-71-2", ZoneKind.FRAME, True, 2, 5, False, False, False),
        Discipline("cadre-47-1", ZoneKind.FRAME, True, 1, 5, False, False, False),
        Discipline("one-cushion", None, False, 0, 5, False, False, False),
        Discipline("three-cushion", None, False, 0, 3, False, False, True),
    )
}


def discipline(name: str) -> Discipline:
    """The discipline called `name`; raises SetupError listing the valid names."""
    try:
        return DISCIPLINES[name]
    except KeyError:
        raise SetupError("unknown discipline {name!r}; choose one of: {names}", name=name,
                         names=", ".join(DISCIPLINES)) from None
