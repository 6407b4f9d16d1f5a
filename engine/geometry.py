"""Table geometry for the rules: footprints, distances, arcs, aspect, sight, cover and paths.

Inches throughout; bearings and facings are degrees counter-clockwise from +x. Terrain shapes
are built once and prepared for repeated predicates: an identity-keyed dict makes the common
case (the same feature object again) a single dict lookup, and an ``lru_cache`` keyed on the
feature's outline, linearity and width covers copies of it (the game state is deep-copied per
command, and hashing a whole pydantic feature costs more than building that key).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import lru_cache
from typing import NamedTuple

import shapely
from shapely.geometry import LineString, Polygon
from shapely.geometry import Point as ShapelyPoint
from shapely.geometry.base import BaseGeometry

from engine.profiles import UnitClass
from engine.state import CoverKind, Point, TableSize, TerrainFeature, Unit

FOOTPRINT: dict[UnitClass, tuple[float, float]] = {
    UnitClass.INFANTRY: (2.0, 2.0),
    UnitClass.SUPPORT: (2.0, 2.0),
    UnitClass.LIGHT: (3.0, 2.0),
    UnitClass.MEDIUM: (4.0, 2.5),
    UnitClass.HEAVY: (4.5, 3.0),
}

NEAR_TARGET = 2.0  # how close to a target a wall or hedge must be to shelter it
ROAD_TOLERANCE = 0.01
_ANGLE_EPS = 1e-6
_COVER_RANK = {CoverKind.OPEN: 0, CoverKind.COVER: 1, CoverKind.FORTIFICATION: 2}
_ID_CACHE_LIMIT = 4096


class _Shape(NamedTuple):
    geom: BaseGeometry
    minx: float
    miny: float
    maxx: float
    maxy: float


# --- footprints and distances ------------------------------------------------------------


@lru_cache(maxsize=4096)
def _footprint(unit_class: UnitClass, x: float, y: float, facing: float) -> _Shape:
    """The footprint rectangle and its bounds, cached on plain floats (cheap to hash)."""
    length, width = FOOTPRINT[unit_class]
    rad = math.radians(facing)
    c, s = math.cos(rad), math.sin(rad)
    hl, hw = length / 2.0, width / 2.0
    corners = [
        (x + dx * c - dy * s, y + dx * s + dy * c) for dx, dy in ((hl, hw), (-hl, hw), (-hl, -hw), (hl, -hw))
    ]
    xs, ys = [p[0] for p in corners], [p[1] for p in corners]
    return _Shape(Polygon(corners), min(xs), min(ys), max(xs), max(ys))


def _unit_shape(unit: Unit) -> _Shape:
    """The cached footprint of a unit where it stands."""
    return _footprint(unit.unit_class, unit.position.x, unit.position.y, unit.facing)


def footprint_at(unit_class: UnitClass, position: Point, facing: float) -> Polygon:
    """The rectangle a unit of this class covers when centred at position facing that way."""
    return _footprint(unit_class, position.x, position.y, facing).geom


def footprint(unit: Unit) -> Polygon:
    """The rectangle the unit covers on the table."""
    return _unit_shape(unit).geom


def distance(a: Unit, b: Unit) -> float:
    """Edge-to-edge distance between two units' footprints (0 if they touch or overlap)."""
    return footprint(a).distance(footprint(b))


def distance_to_point(unit: Unit, point: Point) -> float:
    """Distance from the edge of the unit's footprint to a point (0 if the point is under it)."""
    return footprint(unit).distance(ShapelyPoint(point.x, point.y))


MEASURING_TOLERANCE = 0.01  # inches: positions are kept to the hundredth, so a distance between
# two of them may come out this far off the true one (a 1" stray on a diagonal measures 1.004")


def within(distance: float, limit: float) -> bool:
    """Whether a measured distance is at most ``limit`` to within :data:`MEASURING_TOLERANCE`:
    a rule's distance band is decided by the table, not by how a position rounded."""
    return distance <= limit + MEASURING_TOLERANCE


def at_least(distance: float, limit: float) -> bool:
    """Whether a measured distance is ``limit`` or more to within :data:`MEASURING_TOLERANCE`."""
    return distance >= limit - MEASURING_TOLERANCE


OVERLAP_TOLERANCE = 0.01  # square inches: bases that touch, or meet within a rounding, do not overlap


def overlap(a: BaseGeometry, b: BaseGeometry) -> bool:
    """Whether two pieces of ground share more than an edge."""
    return a.intersects(b) and a.intersection(b).area > OVERLAP_TOLERANCE


def swept_ground(unit_class: UnitClass, path: Sequence[Point], facing: float) -> BaseGeometry:
    """The ground a unit's base covers moving along the path (its start included) and ending
    with that facing: a corridor as wide as the base, and the base where it stops."""
    end = footprint_at(unit_class, path[-1], facing)
    if path_length(path) < 1e-9:
        return end
    corridor = LineString([(p.x, p.y) for p in path]).buffer(FOOTPRINT[unit_class][1] / 2.0, cap_style="flat")
    return corridor.union(end)


def furthest_clear(length: float, blocked: Callable[[float], bool], step_back: float = 0.01) -> float:
    """The furthest distance up to ``length`` a move may go before ``blocked`` (which only grows
    with the distance) stops it, a hair short of the contact so the bases touch, not overlap."""
    if not blocked(length):
        return length
    clear, stop = 0.0, length
    while stop - clear > 1e-3:
        middle = (clear + stop) / 2.0
        clear, stop = (clear, middle) if blocked(middle) else (middle, stop)
    return max(0.0, clear - step_back)


# --- angles --------------------------------------------------------------------------------


def bearing(frm: Point, to: Point) -> float:
    """Direction from one point to another in [0, 360); 0 when they coincide."""
    deg = math.degrees(math.atan2(to.y - frm.y, to.x - frm.x)) % 360.0
    return 0.0 if deg >= 360.0 else deg


def midpoint(a: Point, b: Point) -> Point:
    """Halfway between two points (where two units in contact meet, drawn on the picture)."""
    return Point(x=round((a.x + b.x) / 2, 2), y=round((a.y + b.y) / 2, 2))


def point_toward(frm: Point, to: Point, length: float) -> Point:
    """The point ``length`` inches from ``frm`` on the way to ``to``, to one decimal."""
    gap = math.hypot(to.x - frm.x, to.y - frm.y)
    step = min(length / gap, 1.0) if gap else 0.0
    return Point(x=round(frm.x + (to.x - frm.x) * step, 1), y=round(frm.y + (to.y - frm.y) * step, 1))


def angle_between(a: float, b: float) -> float:
    """Smallest absolute difference between two directions, in [0, 180]."""
    d = abs(a - b) % 360.0
    return min(d, 360.0 - d)


def in_arc(position: Point, facing: float, point: Point, arc: float) -> bool:
    """Whether point lies in the arc of total width ``arc`` centred on facing at position."""
    if arc >= 360.0 or (point.x == position.x and point.y == position.y):
        return True
    return angle_between(bearing(position, point), facing) <= arc / 2.0 + _ANGLE_EPS


def aspect(target: Unit, from_point: Point) -> str:
    """'front' if from_point lies in the sector through the target's front corners, else 'side'."""
    length, width = FOOTPRINT[target.unit_class]
    half = math.degrees(math.atan2(width / 2.0, length / 2.0))
    return "front" if in_arc(target.position, target.facing, from_point, 2.0 * half) else "side"


# --- terrain shapes ------------------------------------------------------------------------


@lru_cache(maxsize=4096)
def _build_shape(coords: tuple[tuple[float, float], ...], linear: bool, width: float) -> _Shape:
    """Build and prepare a feature's geometry (polygon, or buffered polyline if linear)."""
    if linear:
        line = LineString(coords) if len(coords) > 1 else ShapelyPoint(coords[0])
        geom = line.buffer(width / 2.0)
    else:
        geom = Polygon(coords)
        if not geom.is_valid:
            geom = shapely.make_valid(geom)
    shapely.prepare(geom)
    return _Shape(geom, *geom.bounds)


_BY_ID: dict[int, tuple[TerrainFeature, _Shape]] = {}


def _compiled(feature: TerrainFeature) -> _Shape:
    """The cached shape of a feature: by identity first, then by value."""
    hit = _BY_ID.get(id(feature))
    if hit is not None and hit[0] is feature:
        return hit[1]
    coords = tuple((p.x, p.y) for p in feature.outline)
    built = _build_shape(coords, feature.linear, feature.width if feature.linear else 0.0)
    if len(_BY_ID) >= _ID_CACHE_LIMIT:
        _BY_ID.clear()
    _BY_ID[id(feature)] = (feature, built)
    return built


def shape(feature: TerrainFeature) -> BaseGeometry:
    """The cached, prepared shapely geometry of a terrain feature."""
    return _compiled(feature).geom


def _overlaps_box(s: _Shape, minx: float, miny: float, maxx: float, maxy: float) -> bool:
    """Cheap bounding-box test before any shapely call."""
    return s.minx <= maxx and minx <= s.maxx and s.miny <= maxy and miny <= s.maxy


def _segment_meets_box(x0: float, y0: float, x1: float, y1: float, s: _Shape) -> bool:
    """Whether the segment touches the shape's bounding box (Liang-Barsky clipping)."""
    if x0 < x1:
        if x1 < s.minx or x0 > s.maxx:
            return False
    elif x0 < s.minx or x1 > s.maxx:
        return False
    if y0 < y1:
        if y1 < s.miny or y0 > s.maxy:
            return False
    elif y0 < s.miny or y1 > s.maxy:
        return False
    dx, dy = x1 - x0, y1 - y0
    t0, t1 = 0.0, 1.0
    for p, q in ((-dx, x0 - s.minx), (dx, s.maxx - x0), (-dy, y0 - s.miny), (dy, s.maxy - y0)):
        if p == 0.0:
            if q < 0.0:
                return False
            continue
        r = q / p
        if p < 0.0:
            if r > t1:
                return False
            t0 = max(t0, r)
        else:
            if r < t0:
                return False
            t1 = min(t1, r)
    return True


def _segment(x0: float, y0: float, x1: float, y1: float) -> BaseGeometry:
    """A shapely segment, or a point if its ends coincide."""
    if x0 == x1 and y0 == y1:
        return ShapelyPoint(x0, y0)
    return LineString([(x0, y0), (x1, y1)])


def _enters(geom: BaseGeometry, line: BaseGeometry) -> bool:
    """Whether a line reaches the interior of a geometry (grazing its edge does not count)."""
    return geom.intersects(line) and not geom.touches(line)


def features_under(unit: Unit, terrain: Iterable[TerrainFeature]) -> list[TerrainFeature]:
    """Features whose shape intersects the unit's footprint."""
    foot = _unit_shape(unit)
    box = foot[1:]
    return [f for f in terrain if _overlaps_box(s := _compiled(f), *box) and s.geom.intersects(foot.geom)]


def feature_shape(feature: TerrainFeature) -> BaseGeometry:
    """A feature's (cached) shapely geometry, for measuring to and from it."""
    return _compiled(feature).geom


def features_at(point: Point, terrain: Iterable[TerrainFeature]) -> list[TerrainFeature]:
    """Features containing the point (a point on a feature's edge counts as inside)."""
    x, y = point.x, point.y
    return [
        f
        for f in terrain
        if _overlaps_box(s := _compiled(f), x, y, x, y) and shapely.intersects_xy(s.geom, x, y)
    ]


# --- sight, cover, hull down ---------------------------------------------------------------


def line_of_sight(a: Point, b: Point, terrain: Sequence[TerrainFeature], see_into: float = 2.0) -> bool:
    """Whether a sees b: the segment trimmed by see_into at each end misses all sight blockers."""
    blockers = (feature for feature in terrain if feature.blocks_sight)
    return next(sight_crosses(a, b, blockers, see_into), None) is None


def sight_crosses(
    a: Point, b: Point, features: Iterable[TerrainFeature], see_into: float = 2.0
) -> Iterator[TerrainFeature]:
    """The features (whatever their ``blocks_sight``) whose interior the sight line from a to b
    enters, the line trimmed by see_into at each end, as :func:`line_of_sight` reads it."""
    dx, dy = b.x - a.x, b.y - a.y
    length = math.hypot(dx, dy)
    if length <= 2.0 * see_into:
        return
    ux, uy = dx / length * see_into, dy / length * see_into
    seg = (a.x + ux, a.y + uy, b.x - ux, b.y - uy)
    line: BaseGeometry | None = None
    for feature in features:
        s = _compiled(feature)
        if not _segment_meets_box(*seg, s):
            continue
        if line is None:
            line = _segment(*seg)
        if _enters(s.geom, line):
            yield feature


class _LineOfFire:
    """The end of the line of fire into a target's centre, in two lazily built pieces: ``inner``
    (every point within NEAR_TARGET of the footprint) and ``outer`` (holding every such point)."""

    def __init__(self, target: Unit, firer_at: Point) -> None:
        length, width = FOOTPRINT[target.unit_class]
        self.foot = _unit_shape(target).geom
        cx, cy = target.position.x, target.position.y
        dx, dy = firer_at.x - cx, firer_at.y - cy
        d = math.hypot(dx, dy)
        if d == 0.0:
            self.inner_xy = self.outer_xy = (cx, cy, cx, cy)
        else:
            ux, uy = dx / d, dy / d
            rad = math.radians(target.facing)
            a = abs(ux * math.cos(rad) + uy * math.sin(rad))  # along the hull
            b = abs(-ux * math.sin(rad) + uy * math.cos(rad))  # across it
            exit_at = min(length / 2.0 / a if a else math.inf, width / 2.0 / b if b else math.inf)
            inner = min(d, exit_at + NEAR_TARGET)
            outer = min(d, math.hypot(length / 2.0, width / 2.0) + NEAR_TARGET)
            self.inner_xy = (cx + ux * inner, cy + uy * inner, cx, cy)
            self.outer_xy = (cx + ux * outer, cy + uy * outer, cx, cy)
        self._inner: BaseGeometry | None = None
        self._outer: BaseGeometry | None = None

    def may_meet(self, s: _Shape) -> bool:
        """Cheap test: could this shape meet the outer piece at all?"""
        return _segment_meets_box(*self.outer_xy, s)

    def crossed_near(self, geom: BaseGeometry) -> bool:
        """Whether the line of fire meets geom within NEAR_TARGET inches of the footprint."""
        if self._outer is None:
            self._outer = _segment(*self.outer_xy)
        if not geom.intersects(self._outer):
            return False
        if self._inner is None:
            self._inner = _segment(*self.inner_xy)
        if geom.intersects(self._inner):
            return True
        return geom.intersection(self._outer).distance(self.foot) <= NEAR_TARGET + 1e-9


def cover_for(target: Unit, firer_at: Point, terrain: Iterable[TerrainFeature]) -> CoverKind:
    """Best cover the target has against fire from firer_at: terrain it stands in or just behind."""
    best = CoverKind.OPEN
    cx, cy = target.position.x, target.position.y
    fire = _LineOfFire(target, firer_at)
    for feature in terrain:
        if _COVER_RANK[feature.cover] <= _COVER_RANK[best]:
            continue
        s = _compiled(feature)
        if not fire.may_meet(s):
            continue
        inside = not feature.linear and shapely.intersects_xy(s.geom, cx, cy)
        if inside or fire.crossed_near(s.geom):
            best = feature.cover
    return best


def is_hull_down(target: Unit, firer_at: Point, terrain: Iterable[TerrainFeature]) -> bool:
    """Whether a vehicle is half covered by hull-down terrain, or just behind some along the line
    of fire (a hull-down area holding the vehicle's centre counts only by the half-area test)."""
    if not target.is_vehicle:
        return False
    foot = _unit_shape(target)
    cx, cy = target.position.x, target.position.y
    fire = _LineOfFire(target, firer_at)
    under: list[BaseGeometry] = []
    for feature in terrain:
        if not feature.hull_down:
            continue
        s = _compiled(feature)
        if _overlaps_box(s, *foot[1:]):
            under.append(s.geom)
        if not fire.may_meet(s):
            continue
        if not feature.linear and shapely.intersects_xy(s.geom, cx, cy):
            continue
        if fire.crossed_near(s.geom):
            return True
    return _covered_area(foot.geom, under) >= 0.5 * foot.geom.area - 1e-9


def _covered_area(foot: Polygon, shapes: list[BaseGeometry]) -> float:
    """Area of the footprint overlapped by any of the shapes."""
    parts = [shp.intersection(foot) for shp in shapes if shp.intersects(foot)]
    if not parts:
        return 0.0
    return parts[0].area if len(parts) == 1 else shapely.union_all(parts).area


# --- paths ---------------------------------------------------------------------------------


def _legs(path: Sequence[Point]) -> list[tuple[Point, Point, float]]:
    """The path's legs with their lengths."""
    return [(a, b, math.hypot(b.x - a.x, b.y - a.y)) for a, b in zip(path, path[1:], strict=False)]


def _headings(path: Sequence[Point]) -> list[float]:
    """Headings of the path's legs, skipping legs of no length."""
    return [bearing(a, b) for a, b, n in _legs(path) if n > 1e-9]


def path_length(points: Sequence[Point]) -> float:
    """Total length of a polyline."""
    return sum(n for _, _, n in _legs(points))


def point_along(points: Sequence[Point], dist: float) -> Point:
    """The point dist inches along the path, clamped to its ends."""
    if not points:
        raise ValueError("point_along needs at least one point")
    if dist <= 0.0:
        return points[0]
    travelled = 0.0
    for a, b, n in _legs(points):
        if n > 0.0 and travelled + n >= dist:
            t = (dist - travelled) / n
            return Point(x=a.x + (b.x - a.x) * t, y=a.y + (b.y - a.y) * t)
        travelled += n
    return points[-1]


def total_turn(
    start_facing: float,
    path: Sequence[Point],
    reverse: bool = False,
    final_facing: float | None = None,
) -> float:
    """Sum of the hull's heading changes in degrees over a move, including a final pivot."""
    flip = 180.0 if reverse else 0.0
    hull = [h + flip for h in _headings(path)]
    turned = 0.0
    current = start_facing
    for heading in hull:
        turned += angle_between(current, heading)
        current = heading
    if final_facing is not None:
        turned += angle_between(current, final_facing)
    return turned


def end_facing(
    start_facing: float,
    path: Sequence[Point],
    reverse: bool = False,
    final_facing: float | None = None,
) -> float:
    """The hull's facing after a move, in [0, 360)."""
    if final_facing is not None:
        return final_facing % 360.0
    headings = _headings(path)
    if not headings:
        return start_facing % 360.0
    return (headings[-1] + (180.0 if reverse else 0.0)) % 360.0


def leg_turns(path: Sequence[Point]) -> list[float]:
    """Absolute heading change at each interior waypoint (legs of no length are skipped)."""
    headings = _headings(path)
    return [angle_between(h0, h1) for h0, h1 in zip(headings, headings[1:], strict=False)]


def _first_touch(geom: BaseGeometry, a: Point, b: Point) -> float | None:
    """Distance from a along the segment a-b to where it first reaches geom's interior."""
    if a.x == b.x and a.y == b.y:
        return 0.0 if shapely.contains_xy(geom, a.x, a.y) else None
    seg = LineString([(a.x, a.y), (b.x, b.y)])
    if not _enters(geom, seg):
        return None
    hit = geom.intersection(seg)
    coords = shapely.get_coordinates(hit)
    return float(min(math.hypot(x - a.x, y - a.y) for x, y in coords))


def crossings(path: Sequence[Point], terrain: Iterable[TerrainFeature]) -> list[tuple[TerrainFeature, float]]:
    """Features the path's centre line enters or starts in, with the distance of first contact."""
    legs = _legs(path)
    if not legs and path:
        legs = [(path[0], path[0], 0.0)]
    xs = [p.x for p in path]
    ys = [p.y for p in path]
    box = (min(xs), min(ys), max(xs), max(ys)) if path else (0.0, 0.0, 0.0, 0.0)
    found: list[tuple[TerrainFeature, float]] = []
    for feature in terrain:
        s = _compiled(feature)
        if not _overlaps_box(s, *box):
            continue
        travelled = 0.0
        for a, b, n in legs:
            hit = _segment_meets_box(a.x, a.y, b.x, b.y, s)
            touch = _first_touch(s.geom, a, b) if hit else None
            if touch is not None:
                found.append((feature, travelled + touch))
                break
            travelled += n
    found.sort(key=lambda item: item[1])
    return found


def within_features(path: Sequence[Point], features: Iterable[TerrainFeature]) -> bool:
    """Whether the whole path lies inside the union of the features (to within 0.01")."""
    shapes = [shape(f) for f in features]
    if not shapes or not path:
        return False
    coords = [(p.x, p.y) for p in path]
    line = LineString(coords) if len(set(coords)) > 1 else ShapelyPoint(coords[0])
    area = shapes[0] if len(shapes) == 1 else shapely.union_all(shapes)
    if area.covers(line):
        return True
    return area.buffer(ROAD_TOLERANCE).covers(line)


def edge_gap(point: Point, table: TableSize, edge: str) -> float:
    """How far a point is from one table edge ("near" is y = 0, "left" is x = 0)."""
    gaps = {"near": point.y, "far": table.depth - point.y, "left": point.x, "right": table.width - point.x}
    return gaps[edge]


def edge_line(table: TableSize, edge: str) -> str:
    """One table edge as a player measures it: "y = 0" for the near edge, "x = 72" for the right."""
    lines = {"near": "y = 0", "far": f"y = {table.depth:g}", "left": "x = 0", "right": f"x = {table.width:g}"}
    return lines[edge]


def nearest_on_edge(point: Point, table: TableSize, edge: str) -> Point:
    """The point of one table edge straight across from ``point``."""
    edges = {
        "near": Point(x=point.x, y=0.0),
        "far": Point(x=point.x, y=table.depth),
        "left": Point(x=0.0, y=point.y),
        "right": Point(x=table.width, y=point.y),
    }
    return edges[edge]
