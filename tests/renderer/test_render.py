"""The battlefield picture: a valid PNG of the expected size, deterministic, with a labelled grid,
wrecks unlike live units, and the terrain layer drawn once per game."""

from __future__ import annotations

import pytest
from PIL import Image

from engine.game_state import GameState
from engine.state import Point, TableSize
from renderer import compose, picture, render
from renderer import palette as pal
from renderer.base import background, base_layer
from renderer.encode import COLOURS
from renderer.layout import BOX_H, BOX_W, GRID, LABEL_H, column_name
from tests.renderer.pixels import colours, frame_of, png, table_only
from tests.renderer.scenes import busy_table, quick_after_moves, quick_started

MiB = 1024 * 1024


@pytest.mark.parametrize("viewer", ["allies", "axis", "referee", None])
def test_output_is_a_palette_png_of_the_expected_size_under_1_mib(viewer):
    state, events = quick_after_moves()
    data = render(busy_table(), viewer, last_events=events)
    image = png(data)
    assert image.format == "PNG"
    assert image.mode == "P"
    assert len(image.getpalette()) // 3 <= COLOURS
    assert image.size == frame_of(busy_table(), viewer=viewer, last_events=events).size
    assert image.size[0] <= BOX_W and image.size[1] <= BOX_H
    assert len(data) < MiB


def test_scale_sets_pixels_per_inch():
    state, _ = quick_started()
    image = png(render(state, "allies", scale=8))
    assert image.size == frame_of(state, 8).size
    assert frame_of(state, 8).table_px == (72 * 8, 48 * 8)


def test_a_large_table_fits_the_same_box_at_a_smaller_scale():
    state, _ = quick_started()
    big = state.model_copy(update={"table": TableSize(width=96, depth=72)})
    width, height = png(render(big, None)).size
    assert width <= BOX_W and height <= BOX_H
    assert frame_of(big).scale < frame_of(state).scale


def test_same_state_gives_identical_bytes():
    state, events = quick_after_moves()
    first = render(state, "allies", last_events=events)
    base_layer.cache_clear()
    assert render(state, "allies", last_events=events) == first  # also with a freshly drawn base
    reloaded = GameState.model_validate_json(state.model_dump_json())
    assert render(reloaded, "allies", last_events=events) == first


def test_grid_labels_are_drawn_in_every_column_and_row():
    """Each grid square's letter sits above the table and its row number to the left; the
    labels are ink on the margin and differ from one another."""
    state, _ = quick_started()
    frame = frame_of(state)
    image = compose(state, "allies").convert("RGB")
    assert (frame.columns(), frame.rows()) == (12, 8)
    letters = []
    for i in range(frame.columns()):
        cx = frame.left + (i + 0.5) * GRID * frame.scale
        box = (round(cx - 16), frame.top - LABEL_H, round(cx + 16), frame.top - 1)
        letters.append(_ink(image.crop(box)))
    numbers = []
    for j in range(frame.rows()):
        cy = frame.px(0, (j + 0.5) * GRID)[1]
        box = (0, round(cy - 16), frame.left - 1, round(cy + 16))
        numbers.append(_ink(image.crop(box)))
    for glyphs in (letters, numbers):
        assert all(g for g in glyphs), "a grid label is missing"
        assert len(set(glyphs)) == len(glyphs), "two grid labels look the same"
    assert [column_name(i) for i in (0, 11, 25, 26)] == ["A", "L", "Z", "AA"]


def _ink(crop: Image.Image) -> tuple[int, ...]:
    """The dark pixels of a crop, as a hashable pattern (empty if there are none)."""
    grey = crop.convert("L").tobytes()
    return tuple(i for i, v in enumerate(grey) if v < 70)


def _pixels(image: Image.Image, state: GameState, unit_id: str) -> set[tuple[int, int, int]]:
    """The colours inside a unit's footprint."""
    frame = frame_of(state)
    unit = state.units[unit_id]
    x, y = frame.px(unit.position.x, unit.position.y)
    r = frame.scale * 0.8
    return colours(image.crop((round(x - r), round(y - r), round(x + r), round(y + r))))


@pytest.mark.parametrize("unit_id", ["sherman-2", "3rd-squad"])
def test_a_destroyed_unit_is_drawn_differently_from_a_live_one(unit_id):
    live, _ = quick_started()
    dead = live.fork()
    dead.units[unit_id].destroyed = True
    live_px = _pixels(png(render(live, "allies")), live, unit_id)
    dead_px = _pixels(png(render(dead, "allies")), dead, unit_id)
    assert pal.ALLIES.fill in live_px
    assert pal.ALLIES.fill not in dead_px  # no longer in the side's colour
    expected = pal.WRECK if unit_id == "sherman-2" else pal.MUTED_INK  # grey wreck, faint cross
    assert expected in dead_px


def test_the_sides_have_their_own_colours_and_outlines():
    state, _ = quick_started()
    image = png(render(state, None))
    allies, axis = _pixels(image, state, "sherman-1"), _pixels(image, state, "panzer-iv")
    assert pal.ALLIES.fill in allies and pal.ALLIES.outline in allies
    assert pal.AXIS.fill in axis and pal.AXIS.outline in axis
    assert pal.AXIS.fill not in allies and pal.ALLIES.fill not in axis


def test_the_last_action_is_highlighted_with_its_line_of_fire():
    state, events = quick_after_moves()
    assert [e.units for e in events if e.kind == "fire"] == [("m10", "stug")]
    plain = colours(table_only(png(render(state, "allies")), state))
    overlay = colours(table_only(png(render(state, "allies", last_events=events)), state))
    assert pal.HIGHLIGHT in overlay and pal.FIRE_LINE in overlay
    assert pal.HIGHLIGHT not in plain and pal.FIRE_LINE not in plain


def test_morale_markers_and_tokens_show_as_numbered_badges_by_the_tag():
    """The tag of a unit with 3 markers and 2 tokens grows two badges with "3" and "2" in them."""
    state, _ = quick_started()
    marked = state.fork()
    marked.units["2nd-squad"].morale_markers = 3
    marked.units["2nd-squad"].tokens = 2
    plain, badged = picture(state, "allies"), picture(marked, "allies")
    assert "3" not in _texts(plain) and {"3", "2"} <= _texts(badged)
    tag = next(box for box, text in badged.texts if text == "2Sq" and box[0] < badged.frame.panel_left)
    after = badged.image.crop((round(tag[2]), round(tag[1]) - 8, round(tag[2]) + 80, round(tag[3]) + 8))
    assert {pal.MORALE_PIP, pal.TOKEN_PIP, pal.PIP_EDGE} <= colours(after)


def _texts(canvas) -> set[str]:
    frame = canvas.frame
    on_table = [(box, text) for box, text in canvas.texts if frame.left <= box[0] < frame.panel_left]
    return {text for box, text in on_table if box[1] > frame.top}


def test_the_base_layer_is_drawn_once_and_reused(monkeypatch):
    import renderer.base as base

    base_layer.cache_clear()
    background.cache_clear()
    drawn = []
    real = base._terrain_picture
    monkeypatch.setattr(base, "_terrain_picture", lambda *a: drawn.append(1) or real(*a))
    state, events = quick_after_moves()
    render(state, "allies", last_events=events)
    first = base_layer.cache_info()
    moved = state.fork()
    moved.units["m10"].position = Point(x=40, y=20)
    render(moved, "axis")
    render(GameState.model_validate_json(moved.model_dump_json()), None)  # reloaded from storage
    render(GameState.model_validate_json(moved.model_dump_json()), "axis")
    after = base_layer.cache_info()
    assert first.misses == after.misses == 1
    assert background.cache_info().hits >= 1  # the same frame again: margin, table and grid reused
    assert drawn == [1]
