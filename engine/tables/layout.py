"""A table a player builds: its size and its pieces, checked as a whole, and the edits that
build it (add, move, turn, remove). Every edit gives a new table or a refusal that names the
problem; the table it was made from is never changed."""

from __future__ import annotations

from itertools import combinations

from pydantic import BaseModel, ConfigDict, Field, field_validator
from shapely.geometry import box
from shapely.geometry.base import BaseGeometry

from engine.errors import IllegalCommand
from engine.game_state import GameState
from engine.rich_text import Line, Strong
from engine.scenarios.new_game import new_game
from engine.state import Point, TableSize, TerrainFeature
from engine.tables.pieces import Piece, PieceKind
from engine.wording import counted

SMALLEST = 24.0  # inches a side: a 2' x 2' skirmish
LARGEST = 192.0  # 16': twice the 8' x 6' table the scenarios assume (pp. 3, 27)
MOST_PIECES = 300
TABLE_NAME = 80
TOUCH = 0.01  # square inches of overlap that count as touching, not overlapping
_BLOCKED_BY_BUILDINGS = ("band", "line")


class BattleTable(BaseModel):
    """A table: its name, size in inches and pieces; ``seed`` if :mod:`engine.tables.generate`
    laid it out."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(min_length=1, max_length=TABLE_NAME)
    width: float = Field(ge=SMALLEST, le=LARGEST)
    depth: float = Field(ge=SMALLEST, le=LARGEST)
    pieces: tuple[Piece, ...] = Field(default=(), max_length=MOST_PIECES)
    seed: int | None = None

    @field_validator("name")
    @classmethod
    def _trimmed(cls, name: str) -> str:
        if not name.strip():
            raise ValueError("give the table a name")
        return name.strip()

    @property
    def size(self) -> TableSize:
        return TableSize(width=self.width, depth=self.depth)

    def terrain(self) -> tuple[TerrainFeature, ...]:
        return tuple(piece.feature() for piece in self.pieces)

    def piece(self, piece_id: str) -> Piece:
        for piece in self.pieces:
            if piece.id.casefold() == piece_id.strip().casefold():
                return piece
        names = ", ".join(p.id for p in self.pieces) or "none yet"
        raise IllegalCommand(f"{self.name} has no piece called {piece_id!r} (its pieces: {names})")


def piece_off_table(piece: Piece, shape: BaseGeometry | None, width: float, depth: float) -> bool:
    """Whether the piece reaches off the table: a road's or stream's path (its banks may run
    past an edge it leaves the table by), any other piece's ground."""
    if piece.rules.shape == "band":
        return any(not (0 <= x <= width and 0 <= y <= depth) for x, y in piece.corners())
    assert shape is not None
    return off_table(shape, width, depth)


def off_table(shape: BaseGeometry, width: float, depth: float) -> bool:
    """Whether more than a touch of the shape lies beyond the table's edges."""
    minx, miny, maxx, maxy = shape.bounds
    if minx >= 0 and miny >= 0 and maxx <= width and maxy <= depth:
        return False
    return shape.difference(box(0, 0, width, depth)).area > TOUCH


def overlapping(a: BaseGeometry, b: BaseGeometry) -> bool:
    """Whether two shapes share more than a touch of ground."""
    ax0, ay0, ax1, ay1 = a.bounds
    bx0, by0, bx1, by1 = b.bounds
    if ax1 < bx0 or bx1 < ax0 or ay1 < by0 or by1 < ay0:
        return False
    return a.intersects(b) and a.intersection(b).area > TOUCH


def table_problems(table: BattleTable) -> list[str]:
    """What makes the table unplayable: a piece off the table, two pieces sharing a name, or
    overlapping where they may not (solid pieces, woods, buildings and fortifications, never
    overlap; a building has no road, stream, hedge, wall or wire through it; hills and rough
    ground do not overlap each other)."""
    return [problem for _, problem in placed_problems(table)]


def placed_problems(table: BattleTable) -> list[tuple[int, str]]:
    """:func:`table_problems`, each with the index of the piece that brings it (of two, the
    later): the table up to a piece has exactly the problems brought by it and those before. One
    pass over the table, each piece's shape made once."""
    problems: list[tuple[int, str]] = []
    seen: set[str] = set()
    for index, piece in enumerate(table.pieces):
        if piece.id.casefold() in seen:
            problems.append((index, f"two pieces are called {piece.id}: give each its own name"))
        seen.add(piece.id.casefold())
    shapes: dict[int, BaseGeometry] = {}

    def shape(index: int) -> BaseGeometry:
        if index not in shapes:
            shapes[index] = table.pieces[index].shape()
        return shapes[index]

    boxes = [piece.extent() for piece in table.pieces]
    for index, piece in enumerate(table.pieces):
        x0, y0, x1, y1 = boxes[index]
        inside = x0 >= 0 and y0 >= 0 and x1 <= table.width and y1 <= table.depth
        if piece.rules.shape == "area" and shape(index).area < TOUCH:
            problems.append((index, f"the outline of {piece.id} covers no ground"))
        elif piece.rules.shape == "area" and not shape(index).is_valid:
            problems.append((index, f"the outline of {piece.id} crosses itself"))
        elif not inside and piece_off_table(piece, shape(index), table.width, table.depth):
            problems.append((index, f'{piece.id} reaches off the {table.width:g}" x {table.depth:g}" table'))
    for i, j in combinations(range(len(table.pieces)), 2):
        (ax0, ay0, ax1, ay1), (bx0, by0, bx1, by1) = boxes[i], boxes[j]
        if ax1 < bx0 or bx1 < ax0 or ay1 < by0 or by1 < ay0:
            continue
        problem = overlap_problem(table.pieces[i], table.pieces[j])
        if problem and shape(i).is_valid and shape(j).is_valid and overlapping(shape(i), shape(j)):
            problems.append((j, problem))
    return problems


def overlap_problem(a: Piece, b: Piece) -> str | None:
    """Why two pieces may not overlap, or None if they may."""
    layers = {a.rules.layer, b.rules.layer}
    if a.rules.layer == "solid" and b.rules.layer == "solid":
        return f"{a.id} and {b.id} overlap: woods, buildings and fortifications may not"
    for one, other in ((a, b), (b, a)):
        if one.kind is PieceKind.BUILDING and other.rules.layer in _BLOCKED_BY_BUILDINGS:
            return f"the {other.kind} {other.id} runs through the building {one.id}"
    if layers == {"ground"}:
        return f"{a.id} and {b.id} overlap: hills and rough ground may not (make them one piece)"
    return None


def check_table(table: BattleTable) -> BattleTable:
    """The table itself, or a refusal naming every problem."""
    problems = table_problems(table)
    if problems:
        raise IllegalCommand("That table cannot be played:\n" + "\n".join(f"- {p}" for p in problems))
    return table


def _with_changed(table: BattleTable, piece: Piece, changed: Piece) -> BattleTable:
    """The table with one piece changed in its place, checked."""
    pieces = tuple(changed if p is piece else p for p in table.pieces)
    return check_table(table.model_copy(update={"pieces": pieces, "seed": None}))


def add_piece(table: BattleTable, piece: Piece) -> BattleTable:
    if any(p.id.casefold() == piece.id.casefold() for p in table.pieces):
        raise IllegalCommand(f"{table.name} already has a piece called {piece.id}: pick another name")
    if len(table.pieces) >= MOST_PIECES:
        raise IllegalCommand(f"A table has at most {MOST_PIECES} pieces")
    return check_table(table.model_copy(update={"pieces": (*table.pieces, piece), "seed": None}))


def move_piece(table: BattleTable, piece_id: str, to: Point) -> BattleTable:
    piece = table.piece(piece_id)
    return _with_changed(table, piece, piece.moved_to(to))


def turn_piece(table: BattleTable, piece_id: str, degrees: float) -> BattleTable:
    piece = table.piece(piece_id)
    return _with_changed(table, piece, piece.turned_by(degrees))


def remove_piece(table: BattleTable, piece_id: str) -> BattleTable:
    piece = table.piece(piece_id)
    return table.model_copy(update={"pieces": tuple(p for p in table.pieces if p is not piece), "seed": None})


def table_game(table: BattleTable) -> GameState:
    """A game with the table's terrain and nothing on it, to draw the table by itself."""
    return new_game({}, [], terrain=table.terrain(), table=table.size)


def describe_table(table: BattleTable) -> tuple[Line, ...]:
    """The table in a few lines: its name and size, then each piece with where it stands."""
    source = f", laid out from seed {table.seed}" if table.seed is not None else ""
    pieces = counted(len(table.pieces), "piece")
    lines: list[Line] = [(Strong(table.name), f': {table.width:g}" x {table.depth:g}"{source}, {pieces}')]
    for piece in table.pieces:
        where = piece.middle()
        size = f', {piece.size[0]:g}" x {piece.size[1]:g}"' if piece.size else ""
        extra = f", turned {piece.turn:g} degrees" if piece.turn else ""
        extra += f", {piece.storeys} storeys" if piece.storeys > 1 else ""
        extra += f", {piece.height}" if piece.height else ""
        lines.append((f"- {piece.id}: {piece.kind.replace('_', ' ')} at {where}{size}{extra}",))
    return tuple(lines)
