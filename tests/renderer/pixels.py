"""Looking at rendered pictures in tests."""

from __future__ import annotations

import io

from PIL import Image

from engine.game_state import GameState
from engine.state import Point
from renderer import picture
from renderer.layout import Frame


def frame_of(state: GameState, scale: int | None = None, viewer: str | None = None, last_events=()) -> Frame:
    """The frame the renderer lays this state out on for this viewer."""
    return picture(state, viewer, scale=scale, last_events=last_events).frame


def png(data: bytes) -> Image.Image:
    """Open PNG bytes (checking the signature) and load them."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def colours(image: Image.Image) -> set[tuple[int, int, int]]:
    rgb = image.convert("RGB")
    return {c for _, c in rgb.getcolors(rgb.width * rgb.height)}


def table_only(image: Image.Image, state: GameState) -> Image.Image:
    """The table, without the header, the grid labels and the legend."""
    frame = frame_of(state)
    w, h = frame.table_px
    return image.crop((frame.left, frame.top, frame.left + w, frame.top + h))


def around(image: Image.Image, state: GameState, at: Point, inches: float) -> Image.Image:
    """The square of the picture within ``inches`` of a table point."""
    frame = frame_of(state)
    x, y = frame.px(at.x, at.y)
    r = inches * frame.scale
    return image.convert("RGB").crop((round(x - r), round(y - r), round(x + r), round(y + r)))
