"""Colours, side styles and fonts.

Side colours come from the Okabe-Ito palette (blue and orange stay apart for the common forms of
colour blindness); each side also has its own outline and centre mark, so the sides can be told
apart in greyscale too.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from PIL import ImageFont

RGB = tuple[int, int, int]

# --- table and terrain ------------------------------------------------------------------------
MARGIN_BG: RGB = (246, 244, 238)
OPEN_GROUND: RGB = (226, 222, 196)
GRID_LINE: RGB = (150, 146, 120)
INK: RGB = (20, 20, 20)
MUTED_INK: RGB = (90, 90, 90)
HALO: RGB = (255, 255, 255)

WOODS: RGB = (126, 170, 98)
WOODS_EDGE: RGB = (62, 110, 52)
BUILDING: RGB = (160, 160, 160)
BUILDING_EDGE: RGB = (55, 55, 55)
ROAD: RGB = (205, 176, 128)
WATER: RGB = (120, 178, 222)
WATER_EDGE: RGB = (50, 110, 170)
HEDGE: RGB = (48, 96, 40)
WALL: RGB = (110, 100, 90)
WIRE: RGB = (60, 60, 60)
HILL: RGB = (204, 190, 150)
FIELD: RGB = (230, 218, 150)
FORTIFICATION: RGB = (150, 130, 100)
OTHER_TERRAIN: RGB = (200, 194, 170)
HATCH: RGB = (70, 70, 60)

# --- markers ------------------------------------------------------------------------------------
MORALE_PIP: RGB = (228, 26, 28)
TOKEN_PIP: RGB = (255, 255, 255)
PIP_EDGE: RGB = (0, 0, 0)
OBJECTIVE: RGB = (255, 215, 40)
HIGHLIGHT: RGB = (255, 236, 0)
FIRE_LINE: RGB = (200, 16, 32)
WRECK: RGB = (120, 120, 120)
WRECK_EDGE: RGB = (60, 60, 60)
SMOKE: RGB = (236, 236, 236)  # laid over the table at SMOKE_ALPHA
SMOKE_ALPHA = 150
SMOKE_SWATCH: RGB = (222, 222, 222)
SMOKE_EDGE: RGB = (160, 160, 160)
HIDDEN_MARKER: RGB = (70, 70, 70)
HIDDEN_TEXT: RGB = (255, 255, 255)
LEADER: RGB = (20, 20, 20)  # the line from a displaced label to its counter


@dataclass(frozen=True)
class SideStyle:
    fill: RGB
    outline: RGB
    mark: str  # "dot" (a light dot) or "square" (a dark square) at the unit's centre
    text: RGB  # letters on a chip of the side's colour


# blue with a white edge; orange with a black edge
ALLIES = SideStyle(fill=(0, 114, 178), outline=(255, 255, 255), mark="dot", text=(255, 255, 255))
AXIS = SideStyle(fill=(230, 159, 0), outline=(0, 0, 0), mark="square", text=(0, 0, 0))
_BY_NAME = {"allies": ALLIES, "axis": AXIS}


def side_styles(sides: Iterable[str]) -> dict[str, SideStyle]:
    """A style per side: "allies" blue, "axis" orange; other names take the style left over."""
    names = list(sides)
    taken = {_BY_NAME[n] for n in names if n in _BY_NAME}
    free = [s for s in (ALLIES, AXIS) if s not in taken]
    styles = {}
    for name in names:
        styles[name] = _BY_NAME.get(name) or (free.pop(0) if free else AXIS)
    return styles


@lru_cache(maxsize=16)
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's bundled default font at this pixel size (no font files needed)."""
    return ImageFont.load_default(size=size)
