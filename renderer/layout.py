"""Where things go on the picture: the table in inches mapped to pixels, with room around it for
the header, the grid labels and the legend.

x runs right from the table's left edge; y runs up from the near edge, so y = 0 is the bottom
of the table on the picture.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

GRID = 6.0  # inches per grid square (the bot's text orders use the same squares)
TARGET_TABLE_PX = 860  # default table width on the picture, so it reads at Discord's preview size
MIN_SCALE, MAX_SCALE = 4, 24  # a 96" table at 24 px/in is 2,340 px wide

HEADER_H = 24
LABEL_W = 18  # grid labels left and right of the table
LABEL_H = 16  # grid labels above and below the table
LEGEND_H = 22
HEADER_FONT = 14
LABEL_FONT = 12
SMALL_FONT = 11


def default_scale(width_in: float) -> int:
    """Pixels per inch that make the table about TARGET_TABLE_PX wide."""
    return max(MIN_SCALE, min(MAX_SCALE, round(TARGET_TABLE_PX / width_in)))


def choose_scale(width_in: float, scale: int | None) -> int:
    """The caller's scale held within MIN_SCALE..MAX_SCALE, or the default for the table."""
    return default_scale(width_in) if not scale else max(MIN_SCALE, min(MAX_SCALE, scale))


@dataclass(frozen=True)
class Frame:
    """The mapping from table inches to picture pixels (hashable, for the base-layer cache)."""

    width_in: float
    depth_in: float
    scale: int

    @property
    def left(self) -> int:
        return LABEL_W

    @property
    def top(self) -> int:
        return HEADER_H + LABEL_H

    @property
    def table_px(self) -> tuple[int, int]:
        return round(self.width_in * self.scale), round(self.depth_in * self.scale)

    @property
    def size(self) -> tuple[int, int]:
        w, h = self.table_px
        return self.left + w + LABEL_W, self.top + h + LABEL_H + LEGEND_H

    @property
    def legend_top(self) -> int:
        return self.top + self.table_px[1] + LABEL_H

    def px(self, x: float, y: float) -> tuple[float, float]:
        """The pixel at table inches (x, y)."""
        return self.left + x * self.scale, self.top + (self.depth_in - y) * self.scale

    def columns(self) -> int:
        return math.ceil(self.width_in / GRID - 1e-9)

    def rows(self) -> int:
        return math.ceil(self.depth_in / GRID - 1e-9)


def column_name(index: int) -> str:
    """A, B, ... Z, then AA, AB... (only huge tables go past Z)."""
    name = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        name = chr(ord("A") + rest) + name
    return name
