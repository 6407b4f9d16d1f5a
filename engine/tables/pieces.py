"""Terrain pieces as a table's maker places them, and what each kind is in the rules.

A piece is placed either by its centre (a grid square such as ``D3`` or inches) with a size and
a turn, or by points in inches. Areas (woods, buildings, hills, fortifications, rough and very
rough ground) have an outline; lines (hedges, walls, bocage, wire) a path and a width; roads and
streams are bands: a path with a width, drawn as an area. What each kind does in the rules
(going, cover, sight) follows the terrain types of the 2015 rulebook (p. 8) and the casualty
roll's cover classes (p. 10).
"""

from __future__ import annotations

import math
import re
from enum import StrEnum
from typing import Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field, model_validator
from shapely.geometry import LineString, Polygon
from shapely.geometry.base import BaseGeometry

from engine.errors import IllegalCommand
from engine.state import CoverKind, Going, Point, TerrainFeature, TerrainHeight

GRID = 6.0  # inches per grid square: columns A, B... from the left edge, rows 1, 2... from the near edge
MOST_POINTS = 64  # points in one piece's outline or path
MOST_STOREYS = 6
PIECE_ID = 40  # characters in a piece's name
OVAL_POINTS = 16  # corners of the outline of a wood, hill or patch of rough ground given by size
_SQUARE = re.compile(r"^([A-Za-z]{1,2})(\d{1,3})$")


class PieceKind(StrEnum):
    WOODS = "woods"
    BUILDING = "building"
    HILL = "hill"
    HEDGE = "hedge"
    WALL = "wall"
    BOCAGE = "bocage"
    WIRE = "wire"
    ROAD = "road"
    STREAM = "stream"
    FORTIFICATION = "fortification"
    ROUGH = "rough"
    VERY_ROUGH = "very_rough"


Shape = Literal["area", "line", "band"]


class KindRules(NamedTuple):
    """What a kind of piece is on the table and in the rules."""

    shape: Shape
    layer: Literal["solid", "ground", "band", "line"]  # which pieces it may overlap (layout.py)
    going: Going
    cover: CoverKind = CoverKind.OPEN
    blocks_sight: bool = False
    hull_down: bool = False
    going_for_vehicles: Going | None = None
    oval: bool = False  # given by size, its outline is an oval rather than a rectangle
    width: float = 0.5  # a line's or band's width unless the piece gives one


KINDS: dict[PieceKind, KindRules] = {
    # p. 8: woods, buildings, low walls and hedges are rough; bocage, chest-high streams and wire
    # (for infantry) very rough; roads and gentle slopes easy going. p. 10: woods, buildings,
    # hedges and walls are cover; trenches and foxholes fortifications.
    PieceKind.WOODS: KindRules("area", "solid", Going.ROUGH, CoverKind.COVER, True, oval=True),
    PieceKind.BUILDING: KindRules(
        "area", "solid", Going.ROUGH, CoverKind.COVER, True, going_for_vehicles=Going.IMPASSABLE
    ),
    # A hill hides what is behind it by its height under the House Rules (s. 8); the 2015 rules
    # draw sight between centres over blockers a unit could not stand on top of, so it blocks none.
    PieceKind.HILL: KindRules("area", "ground", Going.EASY, hull_down=True, oval=True),
    PieceKind.HEDGE: KindRules("line", "line", Going.ROUGH, CoverKind.COVER, hull_down=True, width=0.6),
    PieceKind.WALL: KindRules("line", "line", Going.ROUGH, CoverKind.COVER, hull_down=True),
    PieceKind.BOCAGE: KindRules("line", "line", Going.VERY_ROUGH, CoverKind.COVER, True, True, width=1.0),
    PieceKind.WIRE: KindRules("line", "line", Going.VERY_ROUGH, going_for_vehicles=Going.EASY),
    PieceKind.ROAD: KindRules("band", "band", Going.EASY, width=3.0),
    PieceKind.STREAM: KindRules("band", "band", Going.VERY_ROUGH, width=2.0),
    PieceKind.FORTIFICATION: KindRules("area", "solid", Going.ROUGH, CoverKind.FORTIFICATION, hull_down=True),
    PieceKind.ROUGH: KindRules("area", "ground", Going.ROUGH, oval=True),
    PieceKind.VERY_ROUGH: KindRules("area", "ground", Going.VERY_ROUGH, oval=True),
}


def square_name(column: int, row: int) -> str:
    """``(0, 0)`` -> "A1": columns A..Z then AA, AB... from the left, rows from the near edge."""
    name, index = "", column + 1
    while index:
        index, rest = divmod(index - 1, 26)
        name = chr(ord("A") + rest) + name
    return f"{name}{row + 1}"


def square_centre(square: str) -> Point:
    """The centre of a grid square such as ``D3`` (6" squares)."""
    found = _SQUARE.match(square.strip())
    if not found:
        raise IllegalCommand(f"{square!r} is not a grid square: write a column and a row, e.g. D3")
    letters, row = found.groups()
    column = 0
    for letter in letters.upper():
        column = column * 26 + ord(letter) - ord("A") + 1
    return Point(x=(column - 1) * GRID + GRID / 2, y=(int(row) - 1) * GRID + GRID / 2)


def centre_text(at: Point) -> str | list[float]:
    """A centre as the file writes it: a grid square's name when it is one's centre."""
    column, row = (at.x - GRID / 2) / GRID, (at.y - GRID / 2) / GRID
    if column >= 0 and row >= 0 and column.is_integer() and row.is_integer():
        return square_name(int(column), int(row))
    return [at.x, at.y]


def _rounded(x: float, y: float) -> Point:
    return Point(x=round(x, 2) + 0.0, y=round(y, 2) + 0.0)


class Piece(BaseModel):
    """One terrain piece: by ``centre`` and ``size`` (width by depth for an area, length by width
    for a line or band) turned ``turn`` degrees counter-clockwise, or by ``points``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(min_length=1, max_length=PIECE_ID)
    kind: PieceKind
    centre: Point | None = None
    size: tuple[float, float] | None = None
    turn: float = 0.0
    points: tuple[Point, ...] | None = Field(default=None, max_length=MOST_POINTS)
    width: float | None = Field(default=None, gt=0, le=12)  # a line's or band's, when not the kind's
    storeys: int = Field(default=1, ge=1, le=MOST_STOREYS)  # a building's floors (House Rules s. 5)
    height: TerrainHeight | None = None  # a hill's (House Rules s. 8): low, medium or high

    @model_validator(mode="after")
    def _placed_once(self) -> Piece:
        by_size = self.centre is not None or self.size is not None
        if by_size == (self.points is not None):
            raise ValueError("place it either by centre (at) and size, or by points")
        if by_size and (self.centre is None or self.size is None):
            raise ValueError("a piece placed by its centre (at) needs a size as well")
        if self.size is not None and not all(0 < s <= 400 for s in self.size):
            raise ValueError("each size is more than 0 and at most 400 inches")
        if self.points is not None:
            least = 3 if self.rules.shape == "area" else 2
            if len(self.points) < least:
                raise ValueError(f"a {self.kind} given by points needs at least {least} of them")
        if self.points is not None and self.rules.shape != "area":
            if all(p == self.points[0] for p in self.points):
                raise ValueError(f"a {self.kind} needs at least two different points")
        if self.storeys != 1 and self.kind is not PieceKind.BUILDING:
            raise ValueError("only buildings have storeys")
        if self.height is not None and self.kind is not PieceKind.HILL:
            raise ValueError("only hills have a height")
        if self.width is not None and self.rules.shape == "area":
            raise ValueError("only lines, roads and streams have a width: give an area a size")
        return self

    @property
    def rules(self) -> KindRules:
        return KINDS[self.kind]

    @property
    def line_width(self) -> float:
        if self.width is not None:
            return self.width
        if self.size is not None and self.rules.shape != "area":
            return self.size[1]
        return self.rules.width

    def path(self) -> tuple[Point, ...]:
        """The outline of an area, or the path of a line or band, in table inches."""
        if self.points is not None:
            return self.points
        return tuple(Point(x=x, y=y) for x, y in self.corners())

    def corners(self) -> list[tuple[float, float]]:
        """:meth:`path` as plain pairs, rounded to a hundredth of an inch."""
        if self.points is not None:
            return [(p.x, p.y) for p in self.points]
        assert self.centre is not None and self.size is not None
        cx, cy = self.centre.x, self.centre.y
        turn = math.radians(self.turn)
        cos, sin = math.cos(turn), math.sin(turn)
        if self.rules.shape == "area":
            half_w, half_d = self.size[0] / 2, self.size[1] / 2
            if self.rules.oval:
                steps = [2 * math.pi * i / OVAL_POINTS for i in range(OVAL_POINTS)]
                corners = [(half_w * math.cos(a), half_d * math.sin(a)) for a in steps]
            else:
                corners = [(-half_w, -half_d), (half_w, -half_d), (half_w, half_d), (-half_w, half_d)]
        else:
            half = self.size[0] / 2
            corners = [(-half, 0.0), (half, 0.0)]
        return [
            (round(cx + x * cos - y * sin, 2) + 0.0, round(cy + x * sin + y * cos, 2) + 0.0)
            for x, y in corners
        ]

    def extent(self) -> tuple[float, float, float, float]:
        """The box around the ground the piece covers: left, near, right, far."""
        corners = self.corners()
        pad = 0.0 if self.rules.shape == "area" else self.line_width / 2
        xs, ys = [x for x, _ in corners], [y for _, y in corners]
        return min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad

    def band(self) -> Polygon:
        """A road's or stream's ground: its path widened, square at the ends."""
        return LineString(self.corners()).buffer(
            self.line_width / 2, cap_style="flat", join_style="round", quad_segs=2
        )

    def shape(self) -> BaseGeometry:
        """The ground the piece covers, as :func:`engine.geometry.feature_shape` sees it."""
        if self.rules.shape == "band":
            return self.band()
        if self.rules.shape == "line":
            return LineString(self.corners()).buffer(self.line_width / 2)
        return Polygon(self.corners())

    def middle(self) -> Point:
        """Where the piece stands: its centre, or the middle of its points' extent."""
        if self.centre is not None:
            return self.centre
        assert self.points is not None
        xs, ys = [p.x for p in self.points], [p.y for p in self.points]
        return _rounded((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)

    def moved_to(self, to: Point) -> Piece:
        """The piece with its middle at ``to``."""
        if self.centre is not None:
            return self.model_copy(update={"centre": to})
        here = self.middle()
        dx, dy = to.x - here.x, to.y - here.y
        assert self.points is not None
        return self.model_copy(update={"points": tuple(_rounded(p.x + dx, p.y + dy) for p in self.points)})

    def turned_by(self, degrees: float) -> Piece:
        """The piece turned counter-clockwise about its middle."""
        if self.centre is not None:
            return self.model_copy(update={"turn": round((self.turn + degrees) % 360, 2)})
        here, turn = self.middle(), math.radians(degrees)
        cos, sin = math.cos(turn), math.sin(turn)
        assert self.points is not None
        points = tuple(
            _rounded(
                here.x + (p.x - here.x) * cos - (p.y - here.y) * sin,
                here.y + (p.x - here.x) * sin + (p.y - here.y) * cos,
            )
            for p in self.points
        )
        return self.model_copy(update={"points": points})

    def feature(self) -> TerrainFeature:
        """The piece as the engine's terrain feature."""
        rules = self.rules
        path = self.path()
        linear = rules.shape == "line"
        if rules.shape == "band":
            path = tuple(_rounded(x, y) for x, y in list(self.band().exterior.coords)[:-1])
        return TerrainFeature(
            id=self.id,
            kind=self.kind.value,
            outline=path,
            linear=linear,
            width=self.line_width if linear else 0.5,
            going=Going.ROUGH if self.height is TerrainHeight.HIGH else rules.going,  # steep slopes, p. 8
            going_for_vehicles=rules.going_for_vehicles,
            cover=rules.cover,
            blocks_sight=rules.blocks_sight,
            road=self.kind is PieceKind.ROAD,
            wire=self.kind is PieceKind.WIRE,
            building=self.kind is PieceKind.BUILDING,
            hull_down=rules.hull_down,
            storeys=self.storeys,
            height=self.height,
        )
