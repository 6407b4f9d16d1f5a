"""The four scenarios on any table (Iron Cross 2015, pp. 28-31): which edges the sides set up
along, where the objectives go, and where a unit may be set up.

The book leaves the ground to the players: deployment areas along long or short edges (or
opposite corners, or roads), at least four objectives 6" from every edge in a Meeting
Engagement and one more per 500 points a side over 1,000 (p. 28), an objective within 6" of
the centreline in Capture (p. 30). On a table it has not seen, the bot places them itself, in
pairs set end for end about the table's centre so that neither side is nearer more of them,
on the terrain that makes an objective (buildings, woods, hills, fortifications) where there is
some.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Literal

from shapely.geometry import box
from shapely.geometry.base import BaseGeometry
from shapely.ops import unary_union

from engine import geometry
from engine.deployment.plan import Edge, Zone
from engine.game_state import GameState
from engine.rules.movement import movement_allowance, terrain_test_score_needed
from engine.rules.scenario import (
    CAPTURE_OBJECTIVE_FROM_CENTRELINE,
    OBJECTIVE_EDGE_DISTANCE,
    objectives_needed,
)
from engine.scenarios.book import Scenario
from engine.state import CoverKind, Objective, Point, TableSize, TerrainFeature, Unit

Along = Literal["long", "short"]
PLACES = ("building", "woods", "hill", "fortification")  # kinds of piece that make an objective
SPOT_STEP = 1.5  # inches between the places tried for a unit
APART = 0.25  # inches between two units' bases when set up


def deployment_edges(table: TableSize, along: Along = "long") -> tuple[Edge, Edge]:
    """The two sides' own edges (the first side's, then the second's): the long edges or the
    short ones (pp. 28-31 allow either)."""
    wide = table.width >= table.depth
    if (along == "long") == wide:
        return "near", "far"
    return "left", "right"


def _end_for_end(at: Point, table: TableSize) -> Point:
    return Point(x=round(table.width - at.x, 2), y=round(table.depth - at.y, 2))


def _inside(at: Point, table: TableSize, margin: float) -> Point:
    return Point(
        x=round(min(max(at.x, margin), table.width - margin), 2),
        y=round(min(max(at.y, margin), table.depth - margin), 2),
    )


def _places(terrain: Sequence[TerrainFeature], table: TableSize) -> list[Point]:
    """The middles of the pieces that make objectives, kept 6" from the edges (p. 28)."""
    found = []
    for feature in terrain:
        if feature.kind in PLACES:
            middle = geometry.feature_shape(feature).centroid
            found.append(_inside(Point(x=middle.x, y=middle.y), table, OBJECTIVE_EDGE_DISTANCE))
    return found


def _spread(candidates: list[Point], chosen: list[Point], count: int, table: TableSize) -> list[Point]:
    """Add ``count`` points (pairs set end for end, the centre for an odd one): terrain places
    in the middle third of the table first, else points on a grid over it, each as far from
    those chosen as it can be, nearest the centreline on a tie."""
    chosen = list(chosen)
    centre = Point(x=table.width / 2, y=table.depth / 2)

    def clear(p: Point) -> bool:
        return all(math.dist((p.x, p.y), (q.x, q.y)) > 3 for q in chosen)

    if count % 2 and clear(centre):
        chosen.append(centre)
        count -= 1
    places = [p for p in candidates if abs(p.y - centre.y) <= table.depth / 6 + 1]
    margin = OBJECTIVE_EDGE_DISTANCE
    grid = [
        Point(x=round(margin + (table.width - 2 * margin) * i / 8, 2), y=round(centre.y + dy, 2))
        for i in range(9)
        for dy in (0.0, -table.depth / 6, table.depth / 6)
    ]

    def score(p: Point) -> tuple[float, float, float]:
        gap = min((math.dist((p.x, p.y), (q.x, q.y)) for q in chosen), default=math.inf)
        return (-min(gap, 18.0), abs(p.y - centre.y), p.x)

    while count > 0:
        options = [p for p in places if clear(p)] or [p for p in grid if clear(p)]
        if not options:
            break
        best = min(options, key=score)
        twin = _end_for_end(best, table)
        chosen.append(best)
        count -= 1
        if count > 0 and clear(twin):
            chosen.append(twin)
            count -= 1
    return chosen


def scenario_objectives(
    scenario: Scenario, table: TableSize, terrain: Sequence[TerrainFeature], points: int = 0
) -> list[Objective]:
    """The scenario's objectives on this table: Meeting Engagement four, and one more for each
    500 points a side over 1,000 (p. 28); Capture one within 6" of the centreline, two on a
    table wider than 6' (p. 30: more in bigger games); none in the others."""
    if scenario.objectives == "per_points":
        places = _spread(_places(terrain, table), [], objectives_needed(points), table)
        return [Objective(id=f"objective-{n}", position=p) for n, p in enumerate(places, start=1)]
    if scenario.objectives == "near_centreline":
        wanted = 2 if table.width > 72 else 1
        line = table.depth / 2
        near = [p for p in _places(terrain, table) if abs(p.y - line) <= CAPTURE_OBJECTIVE_FROM_CENTRELINE]
        near.sort(key=lambda p: abs(p.x - table.width / 2))
        chosen: list[Point] = []
        for place in near:
            if len(chosen) < wanted and all(abs(place.x - q.x) > 12 for q in chosen):
                chosen.append(place)
        for n in range(len(chosen), wanted):  # on the centreline itself
            chosen.append(Point(x=round(table.width * (n + 1) / (wanted + 1), 2), y=line))
        return [Objective(id=f"objective-{n}", position=p) for n, p in enumerate(chosen, start=1)]
    return []


def add_objectives_for_points(state: GameState, scenario: Scenario) -> list[Objective]:
    """Meeting Engagement: once the forces are known, one more objective for each 500 points a
    side over 1,000 (p. 28), placed as :func:`scenario_objectives` places them; the new ones."""
    if scenario.objectives != "per_points":
        return []
    points = max((side.points_limit or 0 for side in state.sides.values()), default=0)
    missing = objectives_needed(points) - sum(1 for o in state.objectives if o.side is None)
    if missing <= 0:
        return []
    here = [o.position for o in state.objectives]
    places = _spread(_places(state.terrain, state.table), here, missing, state.table)[len(here) :]
    taken = {o.id for o in state.objectives}
    added = []
    number = 1
    for place in places:
        while f"objective-{number}" in taken:
            number += 1
        added.append(Objective(id=f"objective-{number}", position=place))
        taken.add(f"objective-{number}")
    state.objectives.extend(added)
    return added


# --- where a unit may be set up ------------------------------------------------------------------


def zone_bounds(zone: Zone, table: TableSize, reach: float) -> tuple[float, float, float, float]:
    """The box around a scenario's set-up area (``reach``: how deep "one normal move" goes):
    left, near, right and far, in inches."""
    parts = zone.rectangles(table, reach)
    return (
        min(p[0] for p in parts),
        min(p[1] for p in parts),
        max(p[2] for p in parts),
        max(p[3] for p in parts),
    )


def zone_ground(zone: Zone, table: TableSize, reach: float) -> BaseGeometry:
    """The ground of a scenario's set-up area, as :meth:`Zone.rectangles` draws it."""
    return unary_union([box(*part) for part in zone.rectangles(table, reach)])


def cover_in(ground: BaseGeometry, terrain: Sequence[TerrainFeature]) -> list[TerrainFeature]:
    """The pieces in that ground that give cover or hide a unit (woods, buildings, hedges,
    walls, fortifications, hills)."""
    return [
        f
        for f in terrain
        if (f.cover is not CoverKind.OPEN or f.blocks_sight or f.kind == "hill")
        and geometry.feature_shape(f).intersects(ground)
        and round(geometry.feature_shape(f).intersection(ground).area, 3) > 1.0
    ]


Ground = list[tuple[TerrainFeature, BaseGeometry, tuple[float, float, float, float]]]


_GROUNDS: dict[int, tuple[Sequence[TerrainFeature], Ground]] = {}
_GROUNDS_KEPT = 16


def _ground(terrain: Sequence[TerrainFeature]) -> Ground:
    """Each piece with its shape and the box around it, for the many places tried; kept for
    the last few terrains (by identity: a game's terrain tuple is made once)."""
    kept = _GROUNDS.get(id(terrain))
    if kept is not None and kept[0] is terrain:
        return kept[1]
    ground = [(f, geometry.feature_shape(f), geometry.feature_shape(f).bounds) for f in terrain]
    if len(_GROUNDS) >= _GROUNDS_KEPT:
        _GROUNDS.pop(next(iter(_GROUNDS)))
    _GROUNDS[id(terrain)] = (terrain, ground)
    return ground


def may_stand(unit: Unit, terrain: Sequence[TerrainFeature] | Ground, at: Point | None = None) -> bool:
    """Whether a unit may stand where it is (or at ``at``, facing as it does): no ground under
    it that it could never cross (p. 9: buildings for vehicles, very rough ground for wheeled
    vehicles and guns)."""
    foot = geometry.footprint_at(unit.unit_class, at or unit.position, unit.facing)
    x0, y0, x1, y1 = foot.bounds
    ground = terrain if terrain and isinstance(terrain[0], tuple) else _ground(terrain)  # type: ignore[arg-type]
    for feature, shape, (fx0, fy0, fx1, fy1) in ground:
        if fx1 < x0 or x1 < fx0 or fy1 < y0 or y1 < fy0 or not shape.intersects(foot):
            continue
        if unit.is_vehicle and feature.building:
            return False
        if terrain_test_score_needed(unit.profile, feature.going_for(unit.profile), wire=feature.wire) == 7:
            return False
    return True


def set_up_spot(
    state: GameState, unit: Unit, zone: Zone, facing: float, taken: Sequence[Unit], spacing: float = 0.0
) -> Point | None:
    """The first place in the zone, row by row from its edge out, where the unit may set up:
    inside the zone, on ground it may stand on, clear of the units in ``taken`` (and
    ``spacing`` from those of its own side, Breakthrough's defender, p. 31); None if none."""
    reach = movement_allowance(unit.profile, rapid=False, road=False)
    minx, miny, maxx, maxy = zone_bounds(zone, state.table, reach)
    across = zone.edge in ("near", "far")
    low, high = (minx, maxx) if across else (miny, maxy)  # along the edge
    rows = int(((maxy - miny) if across else (maxx - minx)) // SPOT_STEP)
    outward = {"near": (miny, 1), "far": (maxy, -1), "left": (minx, 1), "right": (maxx, -1)}[zone.edge]
    facing_unit = unit.model_copy(update={"facing": facing})
    ground = _ground(state.terrain)
    radius = _radius(unit)
    others = [
        (o.position, max(APART, spacing if o.side == unit.side else 0.0), _radius(o), geometry.footprint(o))
        for o in taken
    ]
    for row in range(rows + 1):
        out = outward[0] + outward[1] * SPOT_STEP * (row + 0.5)
        along = low + SPOT_STEP / 2
        while along <= high:
            x, y = (along, out) if across else (out, along)
            blocker = _blocking(unit.unit_class, x, y, facing, radius, others)
            if blocker is not None:  # past the unit in the way, then on
                centre, gap, other_radius, _ = blocker
                past = (centre.x if across else centre.y) + gap + radius + other_radius
                along = max(along + SPOT_STEP, low + SPOT_STEP * math.ceil((past - low) / SPOT_STEP))
                continue
            at = Point(x=round(x, 2), y=round(y, 2))
            if zone.problem(unit, at, state.table) is None and may_stand(facing_unit, ground, at):
                return at
            along += SPOT_STEP
    return None


def _blocking(unit_class, x: float, y: float, facing: float, radius: float, others) -> tuple | None:
    """The first of ``others`` (centre, gap to keep, reach, footprint) a base at (x, y) would
    come within its gap of."""
    foot = None
    for other in others:
        centre, gap, other_radius, other_foot = other
        if math.hypot(x - centre.x, y - centre.y) >= gap + radius + other_radius:
            continue
        foot = foot or geometry.footprint_at(unit_class, Point(x=x, y=y), facing)
        if foot.distance(other_foot) < gap:
            return other
    return None


def _radius(unit: Unit) -> float:
    """Half the diagonal of the unit's base: no part of it is further from its centre."""
    length, width = geometry.FOOTPRINT[unit.unit_class]
    return math.hypot(length, width) / 2


def nearest_set_up_spot(state: GameState, unit: Unit, zone: Zone, taken: Sequence[Unit]) -> Point | None:
    """The unit's own position if it may stand there, else the nearest place in the zone it may
    stand on, clear of the units in ``taken``; None if there is none."""

    def free(at: Point) -> bool:
        foot = geometry.footprint_at(unit.unit_class, at, unit.facing)
        return (
            zone.problem(unit, at, state.table) is None
            and all(foot.distance(geometry.footprint(other)) >= APART for other in taken)
            and may_stand(unit, state.terrain, at)
        )

    here = unit.position
    for ring in range(0, 40):
        steps = max(1, ring * 6)
        for k in range(steps):
            angle = 2 * math.pi * k / steps
            at = Point(
                x=round(here.x + ring * SPOT_STEP * math.cos(angle), 2),
                y=round(here.y + ring * SPOT_STEP * math.sin(angle), 2),
            )
            if 0 <= at.x <= state.table.width and 0 <= at.y <= state.table.depth and free(at):
                return at
    return None
