"""Pure drawing: the battlefield as a PNG for one audience.

    png = render(state, "allies", last_events=events)

``viewer`` is a side name, ``"referee"`` (sees everything) or ``None`` (spectators, who see
what neither side hides). Terrain and grid come from a cached base layer (see
:mod:`renderer.base`); each call draws only the units, markers, header and overlay on a copy.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from engine.events import Event
from engine.game_state import GameState
from renderer.base import base_layer
from renderer.canvas import Canvas
from renderer.encode import encode_png
from renderer.header import draw_header
from renderer.layout import Frame, choose_scale
from renderer.markers import draw_breaches, draw_fire_markers, draw_objectives
from renderer.overlay import last_action
from renderer.palette import side_styles
from renderer.units import draw_smoke_puffs, draw_units
from renderer.visibility import REFEREE, view_for

__all__ = ["REFEREE", "compose", "render"]


def compose(
    state: GameState, viewer: str | None, *, last_events: Sequence[Event] = (), scale: int | None = None
) -> Image.Image:
    """The picture (RGB) before encoding."""
    frame = Frame(state.table.width, state.table.depth, choose_scale(state.table.width, scale))
    image = base_layer(state.terrain, state.table, frame.scale).image.copy()
    styles = side_styles(state.sides)
    view = view_for(state, viewer)
    canvas = Canvas(image)
    draw_header(canvas, state, frame, styles, viewer)
    draw_breaches(canvas, state, frame)
    draw_objectives(canvas, state, frame, styles, viewer)
    draw_units(canvas, view, frame, styles, overlay=last_action(last_events, view, frame))
    draw_smoke_puffs(canvas, (p for screen in state.smoke_screens for p in screen.puffs), frame)
    draw_fire_markers(canvas, state, frame, styles)  # over the unit it falls on
    return image


def render(
    state: GameState, viewer: str | None, *, last_events: Sequence[Event] = (), scale: int | None = None
) -> bytes:
    """The battlefield as a 64-colour PNG for one audience.

    ``last_events`` (the events of the last command) are drawn as an overlay; ``scale`` is in
    pixels per inch (default: the table about 860 px wide; held within 4..24).
    """
    scale = choose_scale(state.table.width, scale)
    image = compose(state, viewer, last_events=last_events, scale=scale)
    return encode_png(image, base_layer(state.terrain, state.table, scale).palette)
