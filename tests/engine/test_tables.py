"""Tables players build (engine.tables): pieces of every kind, the checks, the edits, and the
YAML file that exports and imports to an equal table, refusing a bad file by its line."""

import pytest

from engine.errors import IllegalCommand
from engine.state import CoverKind, Going, Point, TerrainHeight
from engine.tables.file import TableFileError, export_table, import_table
from engine.tables.layout import BattleTable, add_piece, move_piece, remove_piece, table_problems, turn_piece
from engine.tables.pieces import Piece, PieceKind, square_centre


def p(x, y):
    return Point(x=x, y=y)


def every_kind() -> BattleTable:
    """A 6' x 4' table with one piece of every kind, built by edits."""
    table = BattleTable(name="Every kind", width=72, depth=48)
    for piece in (
        Piece(id="wood", kind="woods", centre=square_centre("B2"), size=(10, 8)),
        Piece(id="church", kind="building", centre=p(45.5, 30), size=(7, 6), storeys=2, turn=30),
        Piece(id="ridge", kind="hill", centre=p(20, 38), size=(16, 8), height="high"),
        Piece(id="hedge", kind="hedge", centre=p(60, 10), size=(12, 0.6), turn=20),
        Piece(id="wall", kind="wall", points=(p(30, 40), p(40, 42))),
        Piece(id="bocage", kind="bocage", centre=p(60, 44), size=(10, 1)),
        Piece(id="wire", kind="wire", centre=p(40, 6), size=(8, 0.5)),
        Piece(id="road", kind="road", points=(p(0, 24), p(72, 24))),
        Piece(id="stream", kind="stream", points=(p(66, 0), p(66, 48)), width=2.5),
        Piece(id="trench", kind="fortification", centre=p(30, 32), size=(6, 2)),
        Piece(id="marsh", kind="rough", centre=p(52, 16), size=(6, 5)),
        Piece(id="rubble", kind="very_rough", centre=p(8, 16), size=(5, 4)),
    ):
        table = add_piece(table, piece)
    return table


def test_every_kind_of_piece_becomes_the_engine_terrain_it_is_in_the_rules():
    table = every_kind()
    assert {piece.kind for piece in table.pieces} == set(PieceKind)
    assert table_problems(table) == []
    terrain = {f.id: f for f in table.terrain()}
    church = terrain["church"]
    assert church.building and church.storeys == 2 and church.going_for_vehicles is Going.IMPASSABLE
    assert len(church.outline) == 4 and church.cover is CoverKind.COVER  # four faces to fire from
    assert terrain["wood"].blocks_sight and terrain["wood"].going is Going.ROUGH  # p. 8
    assert terrain["ridge"].height is TerrainHeight.HIGH and terrain["ridge"].going is Going.ROUGH  # steep
    assert terrain["hedge"].linear and terrain["hedge"].hull_down
    assert terrain["wire"].wire and terrain["wire"].going is Going.VERY_ROUGH  # p. 8: for infantry
    assert terrain["wire"].going_for_vehicles is Going.EASY
    assert terrain["road"].road and not terrain["road"].linear
    assert terrain["stream"].going is Going.VERY_ROUGH
    assert terrain["trench"].cover is CoverKind.FORTIFICATION  # p. 10
    assert terrain["marsh"].going is Going.ROUGH and terrain["rubble"].going is Going.VERY_ROUGH


def test_a_grid_square_is_its_centre_and_pieces_are_moved_turned_and_removed():
    assert (
        square_centre("A1") == p(3, 3)
        and square_centre("d3") == p(21, 15)
        and square_centre("AB2") == p(165, 9)
    )
    table = every_kind()
    moved = move_piece(table, "Wood", square_centre("C3"))
    assert moved.piece("wood").centre == p(15, 15) and table.piece("wood").centre == square_centre("B2")
    turned = turn_piece(moved, "wall", 90)  # about its middle, (35, 41)
    assert turned.piece("wall").points == (p(36, 36), p(34, 46))
    assert turn_piece(turned, "church", 350).piece("church").turn == 20
    assert [x.id for x in remove_piece(turned, "marsh").pieces] == [
        x.id for x in table.pieces if x.id != "marsh"
    ]


@pytest.mark.parametrize(
    ("piece", "problem"),
    [
        (
            Piece(id="barn", kind="building", centre=p(10, 24), size=(5, 5)),
            "the road road runs through the building barn",
        ),
        (Piece(id="copse", kind="woods", centre=p(46, 30), size=(6, 6)), "church and copse overlap"),
        (Piece(id="far", kind="woods", centre=p(70, 10), size=(8, 8)), 'far reaches off the 72" x 48" table'),
        (Piece(id="knoll", kind="hill", centre=p(22, 38), size=(6, 4)), "ridge and knoll overlap"),
        (
            Piece(id="lane", kind="road", points=(p(45, 0), p(45, 48))),
            "the road lane runs through the building church",
        ),
        (
            Piece(id="fence", kind="hedge", points=(p(40, 30), p(50, 30))),
            "the hedge fence runs through the building",
        ),
        (Piece(id="WOOD", kind="rough", centre=p(30, 16), size=(2, 2)), "already has a piece called WOOD"),
    ],
)
def test_a_piece_that_does_not_fit_is_refused_and_the_table_is_unchanged(piece, problem):
    table = every_kind()
    with pytest.raises(IllegalCommand, match=problem):
        add_piece(table, piece)
    assert table == every_kind()


def test_overlaps_the_table_allows():
    table = every_kind()
    table = add_piece(
        table, Piece(id="ford", kind="road", points=(p(60, 0), p(70, 12)))
    )  # crosses the stream
    table = add_piece(table, Piece(id="orchard", kind="woods", centre=p(20, 38), size=(5, 4)))  # on the hill
    table = add_piece(
        table, Piece(id="farm", kind="building", centre=p(25.5, 38), size=(3, 3))
    )  # on the hill
    assert table_problems(table) == []


def test_a_table_exports_and_imports_to_an_equal_table():
    table = every_kind()
    text = export_table(table)
    assert "- {id: wood, kind: woods, at: B2, size: [10, 8]}" in text  # one piece a line
    assert import_table(text) == table
    assert import_table(export_table(import_table(text))) == table


GOOD = "name: Farm\nwidth: 72\ndepth: 48\npieces:\n- {id: wood, kind: woods, at: C3, size: [12, 9]}\n"


@pytest.mark.parametrize(
    ("text", "line", "problem"),
    [
        (GOOD + "- {id: barn, kind: building, at: C3, size: [4, 4]}\n", 6, "wood and barn overlap"),
        (
            GOOD + "- {id: b, kind: building, at: H2, size: [4, 4]}\n"
            "- {id: r, kind: road, points: [[40, 9], [50, 9]]}\n",
            7,
            "the road r runs through the building b",
        ),
        (GOOD + "- {id: x, kind: wods, at: C5, size: [2, 2]}\n", 6, "kind: Input should be 'woods'"),
        (GOOD + "- {id: x, kind: woods, at: Z9, size: [2, 2]}\n", 6, 'x reaches off the 72" x 48" table'),
        (GOOD + "- {id: x, kind: woods, at: C5}\n", 6, "needs a size as well"),
        (
            GOOD + "- {id: x, kind: woods, at: C5, size: [2, 2], storeys: 2}\n",
            6,
            "only buildings have storeys",
        ),
        (GOOD + "- {id: x, kind: woods, at: 'over there', size: [2, 2]}\n", 6, "not a grid square"),
        (GOOD + "- {id: x, kind: woods, at: C5, size: [2, 2], colour: green}\n", 6, "colour: Extra inputs"),
        (GOOD + "- just a wood\n", 6, "each piece is a mapping"),
        (
            GOOD + "- {id: r, kind: road, points: [[1, 1], [1, 1]]}\n",
            6,
            "needs at least two different points",
        ),
        (GOOD + "- {id: f, kind: woods, points: [[1, 1], [2, 2], [3, 3]]}\n", 6, "covers no ground"),
        (GOOD.replace("depth: 48", "depth: 480"), 3, "depth: Input should be less than or equal to 192"),
        (GOOD.replace("name: Farm", "nme: Farm"), 1, "unknown entry 'nme'"),
        (GOOD.replace("[12, 9]}", "[12, 9]"), 6, "not YAML"),
        ("name: Farm\nwidth: &w 72\ndepth: *w\n", 2, "anchors and aliases"),
        ("", None, "the file is empty"),
        ("- a list\n", 1, "the file is a mapping"),
        (GOOD + "- {id: x, kind: woods, at: [1, .NaN], size: [2, 2]}\n", 6, ".NaN is not a measure"),
        (GOOD + "- {id: x, kind: woods, at: C5, size: [2, 2], turn: -.inf}\n", 6, "-.inf is not a measure"),
        (
            GOOD + "- {id: x, kind: woods, at: C5, size: [2, 1.0e+999]}\n",
            6,
            "numbers in a table file are finite",
        ),
        (GOOD + "- {id: x, kind: woods, at: C5, size: [2, 2], turn: 1" + "0" * 30 + "}\n", 6, "at most 24"),
        (GOOD + "- {id: x, kind: road, points: [[[[[1, 2]]]]]}\n", 6, "nest at most 6 deep"),
        (GOOD + "seed: 1\x00\n", 6, "only printable characters; this one has U+0000"),
        ("name: Farm\npieces:\n" + "- " * 2_000 + "1\n", 3, "nest at most 6 deep"),
        ("name: [" + "a, " * 10_000 + "]", 1, "at most 10,000 values"),
        (  # a later piece's problem is found at its own line, though the table is checked once
            GOOD
            + "- {id: far, kind: woods, at: K7, size: [2, 2]}\n"
            + "- {id: copse, kind: woods, at: C3, size: [2, 2]}\n",
            7,
            "copse: wood and copse overlap",
        ),
    ],
)
def test_a_bad_file_is_refused_with_its_line_and_problem(text, line, problem):
    with pytest.raises(TableFileError) as refused:
        import_table(text)
    assert refused.value.line == line
    assert problem in refused.value.problem
    assert str(refused.value).startswith(f"line {line}: " if line else problem)


def test_a_file_with_too_many_pieces_is_refused_before_any_is_read():
    many = "".join(f"- {{id: w{n}, kind: woods, at: [1, 1], size: [1, 1]}}\n" for n in range(301))
    with pytest.raises(TableFileError, match="line 4: a table has at most 300 pieces; this one has 301"):
        import_table("name: Big\nwidth: 72\ndepth: 48\npieces:\n" + many)
