"""Random tables (``/table random``): from a seed, the same table every time.

The book asks for plenty of varied terrain, placed as it would be in the country: roads
linking settlements, fields edged with hedges and walls, woods, and open ground between them
(pp. 3, 27: "Terrain" and the scenarios' "mutually agreeable" set-up). So each table gets a
road (sometimes two, crossing) through a village at its centre, perhaps a stream down one
flank, and then pairs of pieces: each piece laid on the near half has a counterpart of the same
kind and size on the far half, about where the table turned end for end would put it, so
neither long edge (nor short one) is given more cover than the other. Each deployment strip
(the 12" along each long edge) starts with a cover piece of its own; last, every shape of
deployment area the players may choose (flanks, opposite corners, along roads, on long or
short edges) is given cover within one infantry move of its edge where it has none.
"""

from __future__ import annotations

import math
import random
from functools import cached_property
from typing import NamedTuple

import shapely
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

from engine.deployment.areas import along_edge, flank_spans, road_spans
from engine.deployment.plan import Edge, Span, Zone
from engine.state import Point, TableSize, TerrainFeature
from engine.tables.layout import MOST_PIECES, BattleTable, overlap_problem, piece_off_table
from engine.tables.pieces import Piece, PieceKind
from engine.tables.scenario_ground import cover_in, zone_ground

EDGES: tuple[Edge, ...] = ("near", "far", "left", "right")
# the edge a cover pair is laid from, its twin going to the far or right edge
LAID_FROM: dict[Edge, Edge] = {"near": "near", "far": "near", "left": "left", "right": "left"}
COVER_DEPTH = 6.0  # inches from an edge within which each part of a side's area has cover: one infantry move
STRIP = 12.0  # inches along each long edge where a side sets up (Meeting Engagement's area, p. 28)
BASE_AREA = 72.0 * 48.0  # the 6' x 4' table the counts below are for
TRIES = 8  # places tried for each piece
VARIETY = 6  # kinds of piece on every table (roads and buildings among them), where they fit
# Pieces laid on each half of a 6' x 4' table, as (kind, least, most), more on bigger tables.
HALF_TABLE = (
    (PieceKind.WOODS, 1, 2),
    (PieceKind.HILL, 0, 1),
    (PieceKind.HEDGE, 1, 2),
    (PieceKind.WALL, 0, 1),
    (PieceKind.BOCAGE, 0, 1),
    (PieceKind.ROUGH, 0, 1),
    (PieceKind.VERY_ROUGH, 0, 1),
    (PieceKind.WIRE, 0, 1),
    (PieceKind.FORTIFICATION, 0, 1),
    (PieceKind.BUILDING, 0, 1),
)
EDGE_COVER = (PieceKind.WOODS, PieceKind.HEDGE, PieceKind.WALL, PieceKind.BUILDING)
SIZES = {  # width x depth (areas) or length x width (lines), least and most
    PieceKind.WOODS: ((7, 6), (14, 11)),
    PieceKind.HILL: ((12, 8), (20, 12)),
    PieceKind.HEDGE: ((8, 0.6), (18, 0.6)),
    PieceKind.WALL: ((6, 0.5), (14, 0.5)),
    PieceKind.BOCAGE: ((8, 1.0), (14, 1.0)),
    PieceKind.ROUGH: ((6, 5), (10, 8)),
    PieceKind.VERY_ROUGH: ((5, 4), (8, 6)),
    PieceKind.WIRE: ((6, 0.5), (12, 0.5)),
    PieceKind.FORTIFICATION: ((4, 2), (8, 3)),
    PieceKind.BUILDING: ((4, 4), (7, 6)),
}


def prepared(shape: BaseGeometry) -> BaseGeometry:
    shapely.prepare(shape)
    return shape


class _Laid:
    """A piece laid, with the box around it; its shape drawn only when a neighbour needs it."""

    def __init__(self, piece: Piece) -> None:
        self.piece = piece
        self.box = piece.extent()

    @cached_property
    def feature(self) -> TerrainFeature:
        return self.piece.feature()

    @cached_property
    def shape(self) -> BaseGeometry:
        """The piece's ground, a line's drawn as a rectangle holding its rounded ends."""
        piece = self.piece
        if piece.rules.shape != "line" or len(piece.corners()) != 2:
            return prepared(piece.shape())
        (ax, ay), (bx, by) = piece.corners()
        length = math.hypot(bx - ax, by - ay) or 1.0
        half = piece.line_width / 2
        ux, uy = (bx - ax) / length * half, (by - ay) / length * half  # along, half a width long
        corners = [
            (ax - ux - uy, ay - uy + ux),
            (bx + ux - uy, by + uy + ux),
            (bx + ux + uy, by + uy - ux),
            (ax - ux + uy, ay - uy - ux),
        ]
        return prepared(Polygon(corners))


class _Layout:
    """The pieces laid so far, refusing any that would not fit."""

    def __init__(self, width: float, depth: float) -> None:
        self.width, self.depth = width, depth
        self.placed: list[_Laid] = []

    def fits(self, piece: Piece) -> _Laid | None:
        laid = _Laid(piece)
        x0, y0, x1, y1 = laid.box
        if piece.rules.shape == "band":
            if piece_off_table(piece, None, self.width, self.depth):
                return None
        elif x0 < 0 or y0 < 0 or x1 > self.width or y1 > self.depth:
            return None
        for other in self.placed:
            a0, b0, a1, b1 = other.box
            if x1 < a0 or a1 < x0 or y1 < b0 or b1 < y0:
                continue
            if (
                overlap_problem(piece, other.piece) is not None or _kept_apart(piece, other.piece)
            ) and laid.shape.intersects(other.shape):  # stricter than the rules: not even touching
                return None
        return laid

    def terrain(self) -> list[TerrainFeature]:
        return [laid.feature for laid in self.placed]

    def lay(self, *pieces: Piece) -> bool:
        """Lay all of the pieces, or none of them (nor any past the most a table holds)."""
        if len(self.placed) + len(pieces) > MOST_PIECES:
            return False
        laid = []
        for piece in pieces:
            fitted = self.fits(piece)
            if fitted is None:
                del self.placed[len(self.placed) - len(laid) :]
                return False
            laid.append(fitted)
            self.placed.append(fitted)
        return True


def _kept_apart(a: Piece, b: Piece) -> bool:
    """Pieces a random table keeps apart though a player need not: only roads and streams cross
    each other and the lie of the land, and buildings and woods stand on hills."""
    layers = {a.rules.layer, b.rules.layer}
    kinds = {a.kind, b.kind}
    on_hill = PieceKind.HILL in kinds and bool(kinds & {PieceKind.BUILDING, PieceKind.WOODS})
    return not (layers in ({"band"}, {"band", "ground"}) or on_hill)


class _Draw(NamedTuple):
    rng: random.Random
    width: float
    depth: float

    def size(self, kind: PieceKind) -> tuple[float, float]:
        """A piece's size, smaller on a table smaller than 6' x 4'."""
        (w0, d0), (w1, d1) = SIZES[kind]
        shrink = min(1.0, max(0.75, (self.width * self.depth / BASE_AREA) ** 0.5))
        length = max(2, round(self.rng.uniform(w0, w1) * shrink))
        if d1 < 2:  # a line's width
            return length, round(self.rng.uniform(d0, d1), 1)
        return length, max(2, round(self.rng.uniform(d0, d1) * shrink))

    def turned_end_for_end(self, at: Point) -> Point:
        return Point(x=self.width - at.x, y=self.depth - at.y)


def _pair(draw: _Draw, layout: _Layout, name: str, kind: PieceKind, near: tuple[float, float]) -> bool:
    """A piece somewhere in the near band ``near`` (inches from the near edge) and its
    counterpart on the far half; True if both were laid."""
    rng = draw.rng
    size = draw.size(kind)
    reach = max(size) / 2
    for _ in range(TRIES):
        at = Point(
            x=round(rng.uniform(reach, draw.width - reach), 1),
            y=round(rng.uniform(max(near[0], 1.0), near[1]), 1),
        )
        turn = rng.choice((0, 0, 0, 90, 90, 15, 30, 45, 60, 120, 150, 165))
        piece = Piece(id=f"{name}-1", kind=kind, centre=at, size=size, turn=turn)
        across = draw.turned_end_for_end(at)
        for shift in (rng.uniform(-4, 4), 0.0):
            there = Point(x=round(across.x + shift, 1), y=across.y)
            twin = Piece(id=f"{name}-2", kind=kind, centre=there, size=size, turn=(turn + 180) % 360)
            if layout.lay(piece, twin):
                return True
    return False


def _roads(draw: _Draw, layout: _Layout) -> None:
    """A road along the table through its centre, bending; sometimes a second one crossing it."""
    rng, w, d = draw.rng, draw.width, draw.depth
    y0 = round(rng.uniform(d * 0.3, d * 0.45), 1)
    main = (
        Point(x=0, y=y0),
        Point(x=4, y=y0),
        Point(x=w / 2, y=d / 2),
        Point(x=w - 4, y=d - y0),
        Point(x=w, y=d - y0),
    )
    layout.lay(Piece(id="road", kind=PieceKind.ROAD, points=main))
    if rng.random() < 0.5:
        x0 = round(rng.uniform(w * 0.3, w * 0.45), 1)
        lane = (
            Point(x=x0, y=0),
            Point(x=x0, y=4),
            Point(x=w / 2, y=d / 2),
            Point(x=w - x0, y=d - 4),
            Point(x=w - x0, y=d),
        )
        layout.lay(Piece(id="lane", kind=PieceKind.ROAD, points=lane, width=2.5))


def _stream(draw: _Draw, layout: _Layout) -> None:
    """Sometimes a stream from the near edge to the far one, down a flank."""
    rng, w, d = draw.rng, draw.width, draw.depth
    if rng.random() >= 0.4:
        return
    x = rng.uniform(w * 0.08, w * 0.22)
    if rng.random() < 0.5:
        x = w - x
    bend = rng.uniform(-4, 4)
    x, bend = round(x, 1), round(x + bend, 1)
    points = (Point(x=x, y=0), Point(x=x, y=4), Point(x=bend, y=d / 2), Point(x=x, y=d - 4), Point(x=x, y=d))
    layout.lay(Piece(id="stream", kind=PieceKind.STREAM, points=points))


def _village(draw: _Draw, layout: _Layout) -> None:
    """Two to six buildings about the centre, in pairs set end for end."""
    rng, w, d = draw.rng, draw.width, draw.depth
    houses = rng.randint(1, 1 + round(w * d / BASE_AREA))
    for number in range(houses):
        size = draw.size(PieceKind.BUILDING)
        storeys = rng.choice((1, 1, 2, 2, 3))
        for attempt in range(3 * TRIES):  # further from the crossroads after each miss
            spread = 10 + attempt
            at = Point(
                x=round(w / 2 + rng.uniform(-spread, spread), 1), y=round(d / 2 - rng.uniform(3, 9), 1)
            )
            turn = rng.choice((0, 0, 10, 20, 90))
            house = Piece(
                id=f"house-{2 * number + 1}",
                kind=PieceKind.BUILDING,
                centre=at,
                size=size,
                turn=turn,
                storeys=storeys,
            )
            twin = house.model_copy(
                update={
                    "id": f"house-{2 * number + 2}",
                    "centre": draw.turned_end_for_end(at),
                    "turn": (turn + 180) % 360,
                }
            )
            if layout.lay(house, twin):
                break


def _cover_in_every_area(draw: _Draw, layout: _Layout) -> None:
    """Whichever deployment areas the players choose (pp. 28-31; :mod:`engine.deployment.areas`),
    each side's has cover within one infantry move of its edge: both flank thirds of every edge
    (so both halves too, for opposite corners) and the stretches along its roads. Where one has
    none, a cover pair is laid: one piece along the near or left edge, its twin exactly end for
    end along the far or right one, so one of the two is the part that had none."""
    table = TableSize(width=draw.width, depth=draw.depth)
    for edge in EDGES:
        roads = road_spans(table, edge, layout.terrain())
        for number, spans in enumerate([*((span,) for span in flank_spans(table, edge)), roads]):
            if not spans or _covered(layout, table, edge, spans):
                continue
            low, high = max(spans, key=lambda span: span[1] - span[0])
            near_edge, part = LAID_FROM[edge], (low, high)
            if near_edge != edge:  # that part of the far or right edge, seen from the near or left
                length = along_edge(table, edge)
                part = (length - high, length - low)
            for kind in draw.rng.sample(EDGE_COVER, len(EDGE_COVER)):
                if _along_edge(draw, layout, f"{edge}-{kind.value}-{number + 1}", kind, near_edge, part):
                    break


def _along_edge(draw: _Draw, layout: _Layout, name: str, kind: PieceKind, edge: Edge, part: Span) -> bool:
    """A piece lying along the near or left edge close in, inside its part ``part``, and its
    twin exactly end for end; True if both were laid."""
    rng = draw.rng
    length, breadth = draw.size(kind)
    low, high = part
    length = min(length, max(2, math.floor(high - low - 1)))
    out = round(breadth / 2 + 0.5, 1)
    for attempt in range(TRIES):  # shorter after each miss, to fit between roads and pieces
        long = max(2, round(length * (1 - attempt / TRIES)))
        along = round(rng.uniform(low + long / 2, max(low + long / 2, high - long / 2)), 1)
        at = Point(x=along, y=out) if edge == "near" else Point(x=out, y=along)
        turn = 0 if edge == "near" else 90
        piece = Piece(id=f"{name}-1", kind=kind, centre=at, size=(long, breadth), turn=turn)
        twin = piece.model_copy(
            update={"id": f"{name}-2", "centre": draw.turned_end_for_end(at), "turn": turn + 180}
        )
        if layout.lay(piece, twin):
            return True
    return False


def _covered(layout: _Layout, table: TableSize, edge: Edge, spans: tuple[Span, ...]) -> bool:
    """Whether those parts of the edge have cover within :data:`COVER_DEPTH` of it."""
    ground = zone_ground(Zone(edge=edge, furthest=COVER_DEPTH, spans=spans), table, COVER_DEPTH)
    return bool(cover_in(ground, layout.terrain()))


def random_table(seed: int, width: float = 72.0, depth: float = 48.0, name: str | None = None) -> BattleTable:
    """A playable table laid out from ``seed``: the same seed and size give the same table."""
    rng = random.Random(f"{seed}:{width:g}x{depth:g}")
    draw = _Draw(rng, width, depth)
    layout = _Layout(width, depth)
    _roads(draw, layout)
    _stream(draw, layout)
    more = width * depth / BASE_AREA
    for number in range(1 + (more > 2)):  # each strip's own cover, before anything else can crowd it
        for kind in rng.sample(EDGE_COVER, len(EDGE_COVER)):
            if _pair(draw, layout, f"edge-{kind.value}-{number + 1}", kind, (2.0, STRIP - 2.0)):
                break
    _village(draw, layout)
    counts = {
        kind: round(rng.randint(least, most) * max(0.5, more) + 0.01) for kind, least, most in HALF_TABLE
    }
    laid = dict.fromkeys(counts, 0)
    middle = (STRIP, depth / 2 - 2)
    for kind in rng.sample(list(counts), len(counts)):  # variety first: a pair of each new kind that fits
        if len({placed.piece.kind for placed in layout.placed}) >= VARIETY:
            break
        if all(placed.piece.kind is not kind for placed in layout.placed):
            laid[kind] += _pair(draw, layout, f"{kind.value.replace('_', '-')}-1", kind, middle)
    for kind, count in counts.items():
        for number in range(laid[kind], count):
            _pair(draw, layout, f"{kind.value.replace('_', '-')}-{number + 1}", kind, middle)
    _cover_in_every_area(draw, layout)
    pieces = tuple(laid.piece for laid in layout.placed)
    return BattleTable(name=name or f"random-{seed}", width=width, depth=depth, pieces=pieces, seed=seed)
