"""Where things go on the picture: the table in inches mapped to pixels, the header above it, the
grid labels along its top and left edges, the panel of roster cells beside it and the legend's
block under it all.

The picture is made for the box Discord shows it in, inline in a channel: fit within 480 x 350
(desktop previews go to about 550 x 350; phones are narrower, so the stricter box is the one to
read at). Everything is drawn at twice that box (at most 960 x 700), so that at the inline size
the smallest text, drawn at TEXT_FONT, is still about 9 px tall.

x runs right from the table's left edge; y runs up from the near edge, so y = 0 is the bottom
of the table on the picture.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

GRID = 6.0  # inches per grid square (the bot's text orders use the same squares)
INLINE_BOX = (480, 350)  # the box Discord fits a picture into inline (the stricter, phone-like one)
BOX_W, BOX_H = 2 * INLINE_BOX[0], 2 * INLINE_BOX[1]  # the picture is drawn to fit twice that box
MIN_SCALE, MAX_SCALE = 4, 24

TEXT_FONT = 28  # every text on the picture: capitals 19 px tall, 9.5 px at the inline size
HEADER_FONT = 28
HEADER_H = 40
LABEL_W = 34  # grid numbers left of the table
LABEL_H = 32  # grid letters above the table
GAP = 8  # between the table and the panel
MARGIN = 6
CELL_W = 260  # a roster cell
CELL_H = 32
LEGEND_H = 30  # a row of the legend
LEGEND_GAP = 14  # between two legend entries in a row
LEGEND_PAD = 2  # under the legend's last row, for its letters' tails


def column_name(index: int) -> str:
    """A, B, ... Z, then AA, AB... (only huge tables go past Z)."""
    name = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        name = chr(ord("A") + rest) + name
    return name


@dataclass(frozen=True)
class Frame:
    """The table's mapping from inches to pixels, the panel's cells beside and under it, and the
    legend's block under those.

    ``cells`` is how many roster cells the picture needs: they fill the column right of the table
    first, down to the table's bottom edge, then rows under the table. ``legend`` is the width of
    every entry the legend may ever hold (at its shortest): the block is as many rows as they take
    all together (:func:`flow`), whichever few a picture shows, so the picture's size never
    changes with its legend."""

    width_in: float
    depth_in: float
    scale: int
    cells: int = 0
    header_lines: int = 1  # two at a game's end: who won, then why
    legend: tuple[int, ...] = ()

    @property
    def left(self) -> int:
        return LABEL_W

    @property
    def header_h(self) -> int:
        return HEADER_H * self.header_lines

    @property
    def top(self) -> int:
        return self.header_h + LABEL_H

    @property
    def table_px(self) -> tuple[int, int]:
        return round(self.width_in * self.scale), round(self.depth_in * self.scale)

    @property
    def table_bottom(self) -> int:
        return self.top + self.table_px[1]

    @property
    def panel_left(self) -> int:
        return self.left + self.table_px[0] + GAP

    @property
    def width(self) -> int:
        return self.panel_left + CELL_W + MARGIN

    def side_cells(self) -> int:
        """Cells in the column right of the table, down to its bottom edge."""
        return max(0, (self.table_bottom - self.header_h) // CELL_H)

    def row_cells(self) -> int:
        """Cells in each row under the table."""
        return max(1, (self.width - MARGIN - MARGIN) // CELL_W)

    def cell(self, index: int) -> tuple[int, int]:
        """The top-left pixel of the index-th cell."""
        side = self.side_cells()
        if index < side:
            return self.panel_left, self.header_h + index * CELL_H
        row, col = divmod(index - side, self.row_cells())
        return MARGIN + col * CELL_W, self.table_bottom + MARGIN + row * CELL_H

    @property
    def legend_room(self) -> int:
        """The width of a row of the legend (which starts MARGIN from the left)."""
        return self.width - 2 * MARGIN

    @property
    def legend_top(self) -> int:
        """The top of the legend's block, under the table and the roster's rows."""
        rows = math.ceil(max(0, self.cells - self.side_cells()) / self.row_cells())
        return self.table_bottom + MARGIN + rows * CELL_H

    @property
    def legend_rows(self) -> int:
        return len({row for row, _ in flow(self.legend, self.legend_room)})

    @property
    def size(self) -> tuple[int, int]:
        bottom = self.legend_top + self.legend_rows * LEGEND_H + (LEGEND_PAD if self.legend else 0)
        return self.width, max(bottom, self.table_bottom + MARGIN)

    def px(self, x: float, y: float) -> tuple[float, float]:
        """The pixel at table inches (x, y)."""
        return self.left + x * self.scale, self.top + (self.depth_in - y) * self.scale

    def columns(self) -> int:
        return math.ceil(self.width_in / GRID - 1e-9)

    def rows(self) -> int:
        return math.ceil(self.depth_in / GRID - 1e-9)


def flow(widths: tuple[int, ...], room: int) -> list[tuple[int, int]]:
    """Where each of a row of entries this wide goes, left to right and on to the next row when
    the next one does not fit: its row and its left edge."""
    spots, row, x = [], 0, 0
    for width in widths:
        if x and x + width > room:
            row, x = row + 1, 0
        spots.append((row, x))
        x += width + LEGEND_GAP
    return spots


def fitting_scale(
    width_in: float, depth_in: float, cells: int, header_lines: int = 1, legend: tuple[int, ...] = ()
) -> int:
    """The largest scale (pixels per inch) at which the table, its labels, ``cells`` panel
    cells, the legend and the header fit within BOX_W x BOX_H. The table gives up at most a
    quarter of its scale to the panel: past that, the panel is cut short (see renderer.picture)."""
    across = (BOX_W - LABEL_W - GAP - CELL_W - MARGIN) / width_in
    down = (BOX_H - HEADER_H * header_lines - LABEL_H - MARGIN) / depth_in
    largest = max(MIN_SCALE, min(MAX_SCALE, math.floor(min(across, down))))
    smallest = max(MIN_SCALE, math.ceil(largest * 0.75))
    for scale in range(largest, smallest - 1, -1):
        if Frame(width_in, depth_in, scale, cells, header_lines, legend).size[1] <= BOX_H:
            return scale
    return smallest


def frame_for(
    width_in: float,
    depth_in: float,
    cells: int,
    scale: int | None = None,
    header_lines: int = 1,
    legend: tuple[int, ...] = (),
) -> Frame:
    """The frame for a table, panel, legend and header: at ``scale`` if given (held within
    MIN_SCALE..MAX_SCALE), else at the largest scale that fits Discord's box."""
    if scale:
        scale = max(MIN_SCALE, min(MAX_SCALE, scale))
    else:
        scale = fitting_scale(width_in, depth_in, cells, header_lines, legend)
    return Frame(width_in, depth_in, scale, cells, header_lines, legend)
