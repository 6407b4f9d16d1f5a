"""A table as a text file clubs share (YAML): written by :func:`export_table`, read back by
:func:`import_table` into an equal table. A file that cannot be read is refused with the line
of the first mistake and what is wrong there.

    name: Village
    width: 72          # inches
    depth: 48
    pieces:
    - {id: wood, kind: woods, at: C3, size: [12, 9]}
    - {id: church, kind: building, at: [45.5, 30], size: [7, 6], storeys: 2, turn: 30}
    - {id: road, kind: road, points: [[0, 24], [72, 24]], width: 3}

``at`` is a grid square (6" squares: columns A, B... from the left edge, rows 1, 2... from the
near edge) or ``[x, y]`` in inches; ``size`` is width by depth for an area, length by width for
a line, road or stream; ``turn`` is in degrees, counter-clockwise.

Whatever a file holds costs a bounded amount of work to read: lists and mappings nest at most
:data:`MOST_NESTING` deep, it has at most :data:`MOST_VALUES` values, a number is finite and at
most :data:`NUMBER_CHARACTERS` long, and a character YAML cannot read (a control character) is
refused with its line, as is every other mistake. The size of the file is for its reader to
bound (``bot.services.limits.TABLE_FILE``).
"""

from __future__ import annotations

import math
from typing import Any

import yaml
from pydantic import ValidationError
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from engine.errors import IllegalCommand
from engine.state import Point
from engine.tables.layout import MOST_PIECES, BattleTable, placed_problems
from engine.tables.pieces import Piece, centre_text, square_centre

HEADER = (
    "# An Iron Cross table. Sizes and positions in inches; 'at' is a grid square (6\" squares:\n"
    "# columns A, B... from the left edge, rows 1, 2... from the near edge) or [x, y].\n"
    "# kinds: woods, building, hill, hedge, wall, bocage, wire, road, stream, fortification,\n"
    "# rough, very_rough\n"
)
TABLE_KEYS = ("name", "width", "depth", "seed", "pieces")
FILE_NAMES = {"centre": "at"}  # the model's field names as the file writes them
MOST_NESTING = 6  # lists and mappings within each other (a piece's points are 5 deep)
MOST_VALUES = 10_000  # values in a file: 300 pieces of 10 points each take about 10,000
NUMBER_CHARACTERS = 24  # the longest number a table file may write

Lines = dict[tuple[Any, ...], int]


def _number(value: float) -> float | int:
    return int(value) if float(value).is_integer() else value


def _pair(point: Point) -> list[float | int]:
    return [_number(point.x), _number(point.y)]


def _piece_entry(piece: Piece) -> dict[str, Any]:
    entry: dict[str, Any] = {"id": piece.id, "kind": piece.kind.value}
    if piece.centre is not None and piece.size is not None:
        at = centre_text(piece.centre)
        entry["at"] = at if isinstance(at, str) else [_number(v) for v in at]
        entry["size"] = [_number(v) for v in piece.size]
    if piece.turn:
        entry["turn"] = _number(piece.turn)
    if piece.points is not None:
        entry["points"] = [_pair(p) for p in piece.points]
    if piece.width is not None:
        entry["width"] = _number(piece.width)
    if piece.storeys != 1:
        entry["storeys"] = piece.storeys
    if piece.height is not None:
        entry["height"] = piece.height.value
    return entry


def export_table(table: BattleTable) -> str:
    """The table as a YAML file, one piece a line."""
    head: dict[str, Any] = {"name": table.name, "width": _number(table.width), "depth": _number(table.depth)}
    if table.seed is not None:
        head["seed"] = table.seed
    text = yaml.safe_dump(head, sort_keys=False, allow_unicode=True)
    lines = [
        "- "
        + yaml.safe_dump(
            _piece_entry(p), default_flow_style=True, sort_keys=False, width=1000, allow_unicode=True
        ).rstrip("\n")
        for p in table.pieces
    ]
    pieces = "pieces:\n" + "\n".join(lines) + "\n" if lines else "pieces: []\n"
    return HEADER + text + pieces


class TableFileError(IllegalCommand):
    """A table file refused: the line (from 1) and the problem."""

    def __init__(self, line: int | None, problem: str) -> None:
        self.line, self.problem = line, problem
        super().__init__(f"line {line}: {problem}" if line else problem)


def _walk(node: Node, path: tuple[Any, ...], lines: Lines, seen: set[int]) -> None:
    """Note each value's line by its path; refuse anchors and aliases (a node met twice)."""
    if id(node) in seen:
        raise TableFileError(node.start_mark.line + 1, "anchors and aliases (& and *) are not allowed")
    seen.add(id(node))
    lines.setdefault(path, node.start_mark.line + 1)  # an entry's line is its key's
    if isinstance(node, MappingNode):
        for key, value in node.value:
            name = key.value if isinstance(key.value, str) else str(key.value)
            lines[(*path, name)] = key.start_mark.line + 1
            _walk(value, (*path, name), lines, seen)
    elif isinstance(node, SequenceNode):
        for index, item in enumerate(node.value):
            _walk(item, (*path, index), lines, seen)


_YAML = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's parser where it is installed


class _TableLoader(_YAML):  # type: ignore[misc,valid-type]
    """YAML's safe loader, refusing numbers longer than :data:`NUMBER_CHARACTERS` (before reading
    them) and numbers that are not finite (``.nan``, ``.inf``)."""


def _bounded_number(read: Any) -> Any:
    """A constructor of numbers that refuses long or infinite ones, by their line."""

    def construct(loader: _TableLoader, node: ScalarNode) -> int | float:
        line = node.start_mark.line + 1
        if len(node.value) > NUMBER_CHARACTERS:
            most = f"a number in a table file has at most {NUMBER_CHARACTERS} characters"
            raise TableFileError(line, f"{most}; this one has {len(node.value):,}")
        value = read(loader, node)
        if not math.isfinite(value):
            raise TableFileError(line, f"{node.value} is not a measure: numbers in a table file are finite")
        return value

    return construct


_TableLoader.add_constructor("tag:yaml.org,2002:int", _bounded_number(yaml.SafeLoader.construct_yaml_int))
_TableLoader.add_constructor("tag:yaml.org,2002:float", _bounded_number(yaml.SafeLoader.construct_yaml_float))
_OPENS = (yaml.SequenceStartEvent, yaml.MappingStartEvent)
_CLOSES = (yaml.SequenceEndEvent, yaml.MappingEndEvent)
_VALUES = (yaml.ScalarEvent, yaml.AliasEvent, *_OPENS)


def _check_bounds(text: str) -> None:
    """Refuse, by its line, a character YAML does not read (a control character), lists and
    mappings nested deeper than :data:`MOST_NESTING` or more than :data:`MOST_VALUES` values, in
    one pass over the file's events (which no nesting makes recursive) before any is built."""
    unreadable = yaml.reader.Reader.NON_PRINTABLE.search(text)
    if unreadable:
        line = text.count("\n", 0, unreadable.start()) + 1
        code = f"U+{ord(unreadable.group()):04X}"
        raise TableFileError(line, f"a table file has only printable characters; this one has {code}")
    deepest = f"lists and mappings nest at most {MOST_NESTING} deep in a table file"
    events, nesting, values = _YAML(text), 0, 0
    try:
        while (event := events.get_event()) is not None:
            nesting += isinstance(event, _OPENS) - isinstance(event, _CLOSES)
            values += isinstance(event, _VALUES)
            if nesting > MOST_NESTING:
                raise TableFileError(event.start_mark.line + 1, deepest)
            if values > MOST_VALUES:
                most = f"a table file has at most {MOST_VALUES:,} values (numbers, names and lists)"
                raise TableFileError(event.start_mark.line + 1, most)
    except yaml.MarkedYAMLError as problem:
        if problem.problem_mark is None or "nesting depth" not in str(problem.problem):
            raise
        raise TableFileError(problem.problem_mark.line + 1, deepest) from None  # libyaml's own bound
    finally:
        events.dispose()


def _read(text: str) -> tuple[Any, Lines]:
    loader = None
    try:
        _check_bounds(text)
        loader = _TableLoader(text)
        node = loader.get_single_node()
        if node is None:
            raise TableFileError(None, "the file is empty")
        lines: Lines = {}
        _walk(node, (), lines, set())
        return loader.construct_document(node), lines
    except yaml.MarkedYAMLError as problem:
        mark = problem.problem_mark or problem.context_mark
        raise TableFileError(mark.line + 1 if mark else None, f"not YAML: {problem.problem}") from None
    except yaml.YAMLError as problem:
        raise TableFileError(None, f"not YAML: {problem}") from None
    finally:
        if loader is not None:
            loader.dispose()


def _line(lines: Lines, path: tuple[Any, ...]) -> int | None:
    while path not in lines and path:
        path = path[:-1]
    return lines.get(path)


def _first_error(problem: ValidationError, lines: Lines, path: tuple[Any, ...]) -> TableFileError:
    error = problem.errors()[0]
    loc = tuple(FILE_NAMES.get(part, part) if isinstance(part, str) else part for part in error["loc"])
    field = ".".join(str(p) for p in loc[:1])
    message = error["msg"].removeprefix("Value error, ")
    where = f"{field}: " if field else ""
    return TableFileError(_line(lines, (*path, *loc[:1])), f"{where}{message}")


def _point(value: Any, line: int | None, what: str) -> Point:
    if isinstance(value, str):
        try:
            return square_centre(value)
        except IllegalCommand as problem:
            raise TableFileError(line, f"{what}: {problem}") from None
    if (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
    ):
        return Point(x=value[0], y=value[1])
    raise TableFileError(line, f"{what} is a grid square such as D3 or [x, y] in inches")


def _piece(entry: Any, path: tuple[Any, ...], lines: Lines) -> Piece:
    line = _line(lines, path)
    if not isinstance(entry, dict):
        raise TableFileError(line, "each piece is a mapping: {id: ..., kind: ..., at: ..., size: ...}")
    fields = dict(entry)
    if "centre" in fields:
        raise TableFileError(_line(lines, (*path, "centre")), "write the piece's centre as at:")
    if "at" in fields:
        fields["centre"] = _point(fields.pop("at"), _line(lines, (*path, "at")), "at")
    if "points" in fields:
        points = fields["points"]
        if not isinstance(points, list):
            raise TableFileError(_line(lines, (*path, "points")), "points is a list of [x, y]")
        fields["points"] = [
            _point(p, _line(lines, (*path, "points", i)), "each point") for i, p in enumerate(points)
        ]
    try:
        return Piece.model_validate(fields)
    except ValidationError as problem:
        raise _first_error(problem, lines, path) from None


def import_table(text: str) -> BattleTable:
    """The table a file describes, checked piece by piece; a refusal names the first bad line."""
    data, lines = _read(text)
    if not isinstance(data, dict):
        raise TableFileError(1, "the file is a mapping: name, width, depth and pieces")
    unknown = [key for key in data if key not in TABLE_KEYS]
    if unknown:
        known = ", ".join(TABLE_KEYS)
        raise TableFileError(_line(lines, (unknown[0],)), f"unknown entry {unknown[0]!r}: use {known}")
    entries = data.get("pieces") or []
    if not isinstance(entries, list):
        raise TableFileError(_line(lines, ("pieces",)), "pieces is a list, one piece an entry")
    if len(entries) > MOST_PIECES:
        most = f"a table has at most {MOST_PIECES} pieces; this one has {len(entries)}"
        raise TableFileError(_line(lines, ("pieces",)), most)
    try:
        table = BattleTable.model_validate({k: v for k, v in data.items() if k != "pieces"})
    except ValidationError as problem:
        raise _first_error(problem, lines, ()) from None
    pieces = tuple(_piece(entry, ("pieces", index), lines) for index, entry in enumerate(entries))
    table = table.model_copy(update={"pieces": pieces})
    problems = placed_problems(table)
    if problems:
        index, problem = min(problems, key=lambda found: found[0])  # the first piece that has one
        raise TableFileError(_line(lines, ("pieces", index)), f"{pieces[index].id}: {problem}")
    return table
