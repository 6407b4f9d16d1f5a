"""Pure drawing: the battlefield as a PNG for one audience.

    png = render(state, "allies", last_events=events, before=previous_state)

``viewer`` is an audience of :mod:`engine.view`, which alone decides what it may see: a side
name, ``"referee"`` (sees everything) or ``None`` (spectators, who see what neither side hides).
The picture is made to be read at the size Discord shows it inline (see
:mod:`renderer.layout`): the table with short unit tags, and beside it the roster that spells
the tags out and the legend of what the picture shows. Terrain comes from a cached base
layer (see :mod:`renderer.base`); each call draws the rest around and over it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from PIL import Image

from engine.events import Event
from engine.game_state import GameState
from engine.view import REFEREE, View, view_for
from renderer import palette as pal
from renderer.base import background, draw_terrain_names
from renderer.canvas import Canvas
from renderer.encode import encode_png
from renderer.header import draw_header, header_lines
from renderer.labels import Placer
from renderer.layout import BOX_H, Frame, frame_for
from renderer.legend import draw_legend, shortest
from renderer.markers import (
    draw_breaches,
    draw_fire_markers,
    draw_objectives,
    draw_zones,
    write_zone_names,
    zones_shown,
)
from renderer.overlay import last_action
from renderer.panel import Cell, cut_roster, draw_panel, roster_cells
from renderer.units import (
    counter_outline,
    draw_caption,
    draw_marker_captions,
    draw_smoke_puffs,
    draw_unit_tags,
    draw_units,
    marker_box,
)

__all__ = ["REFEREE", "compose", "picture", "render"]


def _shows(state: GameState, view: View, overlay_shows: set[str]) -> set[str]:
    """The legend items this picture needs."""
    live = [u for u in view.units if not u.destroyed]
    lost = [u for u in view.units if u.destroyed]
    shows = set(overlay_shows)
    shows |= {"morale"} if any(u.morale_markers for u in live) else set()
    shows |= {"tokens"} if any(u.tokens for u in live) else set()
    shows |= {"hidden"} if view.markers or view.dummies else set()
    shows |= {"wreck"} if any(u.is_vehicle for u in lost) else set()
    shows |= {"lost"} if any(not u.is_vehicle for u in lost) else set()
    shows |= {"smoke"} if state.smoke_screens or any(u.smoke for u in live) else set()
    shows |= {"objective"} if view.objectives else set()
    shows |= {"fire_marker"} if any(mark.kind == "fire" for mark in view.marks) else set()
    return shows


def _cut(frame: Frame, cells: list[Cell], scale: int | None) -> tuple[Frame, list[Cell]]:
    """The frame and cells, the roster cut short if it is too long even for the smallest table
    (renderer.panel.cut_roster)."""
    if frame.size[1] <= BOX_H or scale:
        return frame, cells
    room = max(n for n in range(len(cells)) if replace(frame, cells=n).size[1] <= BOX_H)
    cells = cut_roster(cells, room)
    return replace(frame, cells=len(cells)), cells


def picture(
    state: GameState,
    viewer: str | None,
    *,
    last_events: Sequence[Event] = (),
    before: GameState | None = None,
    scale: int | None = None,
    headers: int | None = None,
) -> Canvas:
    """The picture (RGB) before encoding, on its Canvas (which records every text drawn);
    ``headers``: the header's lines, if not as many as the state needs (a replay's frames all
    have as many as its last)."""
    styles = pal.side_styles(state.sides)
    view = view_for(state, viewer)
    tags = view.tags
    overlay = last_action(last_events, view, viewer, state=state, before=before)
    shows = _shows(state, view, overlay.shows) | ({"zone"} if zones_shown(state, view) else set())
    cells = roster_cells(state, view, styles, tags)
    lines = header_lines(state) if headers is None else max(headers, header_lines(state))
    frame = frame_for(state.table.width, state.table.depth, len(cells), scale, lines, shortest())
    frame, cells = _cut(frame, cells, scale)
    under = background(state.terrain, state.table, frame)
    canvas = Canvas(under.image.copy(), under.palette)
    canvas.texts = list(under.texts)
    zone_names = draw_zones(canvas, state, view, frame, styles)
    captions = draw_breaches(canvas, state, frame)
    captions += draw_objectives(canvas, view, frame, styles)
    draw_units(canvas, view, frame, styles, overlay=lambda under: overlay.draw(under, frame, styles))
    draw_smoke_puffs(canvas, (p for screen in state.smoke_screens for p in screen.puffs), frame)
    captions += draw_fire_markers(canvas, view, frame, styles)  # over the unit it falls on
    w, h = frame.table_px
    counters = [counter_outline(u, frame) for u in view.units]
    counters += [marker_box(at, frame) for at, _ in view.markers + view.dummies]
    counters += [box for box, _ in captions] + overlay.mark_boxes(frame)
    placer = Placer((frame.left, frame.top, frame.left + w, frame.top + h), counters, overlay.segments(frame))
    write_zone_names(canvas, zone_names, placer)
    draw_marker_captions(canvas, view, frame, placer)
    for mark, text in captions:  # before the tags: a unit's tag may go unplaced, a caption may not
        draw_caption(canvas, placer, mark, text)
    draw_unit_tags(canvas, view, frame, styles, tags, placer)
    draw_terrain_names(canvas, state.terrain, frame, placer, {o.id for o in state.objectives})
    if canvas.untagged:  # the roster says where they are (at the same scale: the table stays put)
        cells = roster_cells(state, view, styles, tags, canvas.untagged)
        frame, cells = _cut(replace(frame, cells=len(cells)), cells, scale)
    canvas.frame, canvas.cells = frame, cells
    canvas.labels, canvas.counters, canvas.outlines = placer.labels, placer.counters, placer.outlines
    draw_header(canvas, state, frame, viewer)
    draw_panel(canvas, frame, cells)
    draw_legend(canvas, frame, shows)
    return canvas


def compose(
    state: GameState,
    viewer: str | None,
    *,
    last_events: Sequence[Event] = (),
    before: GameState | None = None,
    scale: int | None = None,
) -> Image.Image:
    """The picture (RGB) before encoding."""
    return picture(state, viewer, last_events=last_events, before=before, scale=scale).image


def render(
    state: GameState,
    viewer: str | None,
    *,
    last_events: Sequence[Event] = (),
    before: GameState | None = None,
    scale: int | None = None,
) -> bytes:
    """The battlefield as a 64-colour PNG for one audience.

    ``last_events`` (the events of the last command) are drawn as an overlay, with a trail for
    each unit that moved when ``before`` (the state the command was applied to) is given; an open
    reaction window's declared order is drawn from ``state``. ``scale`` is in pixels per inch
    (default: the largest that fits Discord's inline box; held within 4..24).
    """
    canvas = picture(state, viewer, last_events=last_events, before=before, scale=scale)
    return encode_png(canvas.image, canvas.palette)
