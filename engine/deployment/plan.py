"""The deployment plan a scenario gives a game (pp. 28-31): each side's area, its waiting units,
how many may start on the table and how far apart. :mod:`engine.deployment.placing` applies it."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from engine import geometry
from engine.rules.movement import movement_allowance
from engine.state import Point, TableSize, Unit
from engine.wording import side_name

Edge = Literal["near", "far", "left", "right"]
Span = tuple[float, float]  # from and to, in inches along an edge (x on near/far, y on left/right)
Box = tuple[float, float, float, float]  # x1, y1, x2, y2 in inches


class Zone(BaseModel):
    """Where a side may set up, measured from one table edge."""

    edge: Edge
    nearest: float = 0.0  # inches from the edge
    furthest: float | None = None  # None: up to the far edge
    within_one_move: bool = False  # no further from the edge than the unit's normal move
    spans: tuple[Span, ...] | None = None  # parts of the edge it covers (corners, roads...); None: all

    def furthest_for(self, unit: Unit) -> float | None:
        """How far from the edge ``unit`` may set up: one normal move of its own where the area
        reaches that far out (Capture and Breakthrough's attacker, pp. 30-31), else the area's
        depth (None: up to the far edge). The check and the set-up picture both measure by it."""
        if self.within_one_move:
            return movement_allowance(unit.profile, rapid=False, road=False)
        return self.furthest

    def problem(self, unit: Unit, at: Point, table: TableSize) -> str | None:
        gap = geometry.edge_gap(at, table, self.edge)
        limit = self.furthest_for(unit)
        if gap < self.nearest:
            edge = f'the {self.edge} edge ({gap:.1f}")'
            return f'{unit.name} must set up at least {self.nearest:g}" from {edge}'
        if limit is not None and gap > limit:
            return f'{unit.name} must set up within {limit:g}" of the {self.edge} edge ({gap:.1f}")'
        along = at.x if self.edge in ("near", "far") else at.y
        if self.spans is not None and not any(low <= along <= high for low, high in self.spans):
            axis = "x" if self.edge in ("near", "far") else "y"
            parts = " or ".join(f"{low:g} to {high:g}" for low, high in self.spans)
            return f"{unit.name} must set up in its side's part of the {self.edge} edge: {axis} from {parts}"
        return None

    def rectangles(self, table: TableSize, reach: float) -> list[Box]:
        """The area as rectangles (one per part of the edge), ``reach`` deep where it reaches
        one normal move out."""
        furthest = reach if self.within_one_move else self.furthest
        across = self.edge in ("near", "far")
        deep = table.depth if across else table.width
        far = min(deep, furthest if furthest is not None else deep)
        near = self.nearest
        length = table.width if across else table.depth
        rectangles = []
        for low, high in self.spans if self.spans is not None else ((0.0, length),):
            rectangles.append(
                {
                    "near": (low, near, high, far),
                    "far": (low, table.depth - far, high, table.depth - near),
                    "left": (near, low, far, high),
                    "right": (table.width - far, low, table.width - near, high),
                }[self.edge]
            )
        return rectangles


class RefereeZone(BaseModel):
    """A rectangle a referee drew for one side to set up in (p. 25), in place of the scenario's
    area: ``x1`` <= ``x2`` and ``y1`` <= ``y2``, in inches."""

    model_config = ConfigDict(frozen=True)

    side: str
    x1: float
    y1: float
    x2: float
    y2: float

    def __str__(self) -> str:
        return f"{Point(x=self.x1, y=self.y1)} to {Point(x=self.x2, y=self.y2)}"

    def problem(self, unit: Unit, at: Point, table: TableSize) -> str | None:
        if self.x1 <= at.x <= self.x2 and self.y1 <= at.y <= self.y2:
            return None
        return f"{unit.name} must set up in the referee's zone for {side_name(self.side)}, {self}"


class SidePlan(BaseModel):
    zone: Zone
    waiting: list[str]  # units not yet set up, by id
    on_table_limit: int
    spacing: float = 0.0  # the least distance between two of its units (Breakthrough defender)
    may_hold_back: bool = True  # units not set up go into reserve; otherwise all must be set up
    under_markers: bool = False  # hidden deployment: each unit goes down as a numbered marker (p. 26)
    done: bool = False
    full: bool = False  # at its share of the table: nothing waiting that it may still set up


class DeploymentPlan(BaseModel):
    sides: dict[str, SidePlan]
    order: Literal["alternating", "defender_first", "plotted"]
    first: str  # who places first (alternating) or the defender
    placed: int = 0
    last: str | None = None  # the side that placed the last unit
    set_up: list[str] = Field(default_factory=list)  # the units set up, in order (taken back: gone)
    log: list[str] = Field(default_factory=list)
