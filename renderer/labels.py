"""Placing labels where they cover neither another label nor a counter (and, where they can,
no arrow of the overlay).

Each label tries spots around its counter, nearest first (below, above, right, left, then the
corners), ring after ring further out; it takes the first spot that is on the table and free.
A label that had to move off its counter's edge gets a leader line back to it. If no spot is
free within MAX_RINGS, it takes the spot that overlaps least.
"""

from __future__ import annotations

from collections.abc import Iterable

from renderer.canvas import Box

GAP = 2  # pixels between a counter and its label
MAX_RINGS = 5
LINE_CLASH = 50.0  # what crossing an arrow counts for, against square pixels of overlap
XY = tuple[float, float]


def intersects(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def crosses(box: Box, a: XY, b: XY) -> bool:
    """Whether the segment a-b passes through the box (Liang-Barsky clipping)."""
    (x0, y0), (x1, y1) = a, b
    dx, dy = x1 - x0, y1 - y0
    low, high = 0.0, 1.0
    for p, q in ((-dx, x0 - box[0]), (dx, box[2] - x0), (-dy, y0 - box[1]), (dy, box[3] - y0)):
        if p == 0:
            if q < 0:
                return False
            continue
        t = q / p
        if p < 0:
            low = max(low, t)
        else:
            high = min(high, t)
        if low > high:
            return False
    return True


def _spots(around: Box, w: float, h: float, ring: int) -> list[Box]:
    """The candidate boxes of size w x h in the ring-th ring around a box: middles first."""
    x0, y0, x1, y1 = around
    d = GAP + ring * h / 2
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    spots = [
        (cx - w / 2, y1 + d),  # below
        (cx - w / 2, y0 - d - h),  # above
        (x1 + d, cy - h / 2),  # right
        (x0 - d - w, cy - h / 2),  # left
        (x1 + d, y1 + d),  # below right
        (x0 - d - w, y1 + d),  # below left
        (x1 + d, y0 - d - h),  # above right
        (x0 - d - w, y0 - d - h),  # above left
    ]
    return [(x, y, x + w, y + h) for x, y in spots]


class Placer:
    """Free room on the table: counters and the labels placed so far are taken."""

    def __init__(self, bounds: Box, counters: Iterable[Box], lines: Iterable[tuple[XY, XY]] = ()) -> None:
        self.bounds = bounds
        self.counters = list(counters)
        self.lines = list(lines)  # the overlay's arrows, as segments: better not covered
        self.labels: list[Box] = []
        self._taken = list(self.counters)  # counters and labels placed so far

    def _inside(self, box: Box) -> bool:
        return (box[0] >= self.bounds[0] and box[1] >= self.bounds[1]
                and box[2] <= self.bounds[2] and box[3] <= self.bounds[3])

    def _clash(self, box: Box) -> float:
        x0, y0, x1, y1 = box
        clash = 0.0
        for a0, b0, a1, b1 in self._taken:
            if a0 < x1 and x0 < a1 and b0 < y1 and y0 < b1:
                clash += (min(x1, a1) - max(x0, a0)) * (min(y1, b1) - max(y0, b0))
        return clash + LINE_CLASH * sum(crosses(box, a, b) for a, b in self.lines)

    def free(self, box: Box) -> bool:
        """Whether the box is on the table and clear of counters and labels."""
        return self._inside(box) and self._clash(box) == 0

    def take(self, box: Box) -> None:
        self.labels.append(box)
        self._taken.append(box)

    def place(self, around: Box, w: float, h: float, rings: int = MAX_RINGS) -> tuple[Box, bool]:
        """A box of w x h near ``around`` (a counter's box), and whether it moved off the
        counter's edge (then it needs a leader line)."""
        best: tuple[float, Box, bool] | None = None
        for ring in range(rings):
            for box in _spots(around, w, h, ring):
                if not self._inside(box):
                    continue
                clash = self._clash(box)
                if clash == 0:
                    self.take(box)
                    return box, ring > 0
                if best is None or clash < best[0]:
                    best = (clash, box, ring > 0)
        box, moved = (best[1], best[2]) if best else (_spots(around, w, h, 0)[0], False)
        self.take(box)
        return box, moved


    def place_free(self, around: Box, w: float, h: float) -> Box | None:
        """A free box of w x h right by ``around``, or None if there is none (for names that may
        be left out, such as terrain names)."""
        for box in _spots(around, w, h, 0):
            if self.free(box):
                self.take(box)
                return box
        return None


def leader_ends(counter: Box, label: Box) -> tuple[tuple[float, float], tuple[float, float]]:
    """A leader line from the counter's middle to the nearest point of the label's box."""
    cx, cy = (counter[0] + counter[2]) / 2, (counter[1] + counter[3]) / 2
    lx = min(max(cx, label[0]), label[2])
    ly = min(max(cy, label[1]), label[3])
    return (cx, cy), (lx, ly)
