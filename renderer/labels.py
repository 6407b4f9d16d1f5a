"""Placing labels where they cover neither a counter nor another label, each near its counter.

Each label tries spots around its counter, nearest first (below, above, right, left of its
middle, then sliding along each edge to the corners), ring after ring further out, up to
MAX_LEADER pixels from the counter's box. A spot is free if it is on the table, covers no counter
(a unit turned on the table covers its outline, not its whole box) and no label, and no leader
line runs through it; a label off its counter's edge gets a leader line, from the counter's middle
to the label's nearest point, which must cross no other label and no other leader. Among free
spots the first that keeps clear of the overlay's arrows and of other counters wins, else the free
one that crosses fewest. A label with no free spot is not placed (:meth:`Placer.place` gives
None): the caller says where the unit is some other way.

The spots right by a counter are tried one by one (most labels go there); the rest are checked
against the counters and labels all at once, with numpy.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from renderer.canvas import Box
from renderer.tags import CHIP_H

GAP = 2  # pixels between a counter and a label right by it (no leader)
MAX_LEADER = 3 * CHIP_H  # pixels a leader may run past its counter's box: 45 px at the inline size
RINGS = (GAP, 12, 26, 44, 66, MAX_LEADER)  # pixels from the counter's box to a spot
SLIDE = 15  # pixels between two spots along an edge
TRIES = 3  # placings of a picture's tags, the ones left without room first each time
XY = tuple[float, float]
Segment = tuple[XY, XY]
Outline = tuple[XY, ...]  # a convex polygon's corners, in order


@dataclass(frozen=True)
class Placement:
    box: Box
    leader: Segment | None  # from the counter's middle to the label, if the label moved off


def intersects(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _clip(box: Box, a: XY, b: XY) -> tuple[float, float] | None:
    """The part (t from 0 to 1) of the segment a-b inside the box, or None (Liang-Barsky)."""
    (x0, y0), (x1, y1) = a, b
    dx, dy = x1 - x0, y1 - y0
    low, high = 0.0, 1.0
    for p, q in ((-dx, x0 - box[0]), (dx, box[2] - x0), (-dy, y0 - box[1]), (dy, box[3] - y0)):
        if p == 0:
            if q < 0:
                return None
            continue
        t = q / p
        if p < 0:
            low = max(low, t)
        else:
            high = min(high, t)
        if low > high:
            return None
    return low, high


def crosses(box: Box, a: XY, b: XY) -> bool:
    """Whether the segment a-b passes through the box's inside (touching its edge does not count)."""
    if (
        max(a[0], b[0]) <= box[0]
        or min(a[0], b[0]) >= box[2]
        or max(a[1], b[1]) <= box[1]
        or min(a[1], b[1]) >= box[3]
    ):
        return False
    inner = (box[0] + 0.5, box[1] + 0.5, box[2] - 0.5, box[3] - 0.5)
    return _clip(inner, a, b) is not None


def reach(counter: Box, leader: Segment) -> float:
    """How far a leader runs past its counter's box."""
    (x0, y0), (x1, y1) = leader
    inside = _clip(counter, *leader)
    exit_at = inside[1] if inside else 0.0
    return (1 - exit_at) * math.hypot(x1 - x0, y1 - y0)


def _turn(a: XY, b: XY, c: XY) -> float:
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])


def segments_cross(p: Segment, q: Segment) -> bool:
    """Whether two segments cross or touch (sharing an end counts)."""
    (a, b), (c, d) = p, q
    d1, d2, d3, d4 = _turn(c, d, a), _turn(c, d, b), _turn(a, b, c), _turn(a, b, d)
    if ((d1 > 0) != (d2 > 0)) and ((d3 > 0) != (d4 > 0)) and 0 not in (d1, d2, d3, d4):
        return True
    return any(
        t == 0 and _within(s, e, r) for t, (s, e), r in ((d1, q, a), (d2, q, b), (d3, p, c), (d4, p, d))
    )


def hull(points: list[XY]) -> Outline:
    """The convex hull of a few points, corner after corner (Andrew's monotone chain)."""
    points = sorted(set(points))

    def half(run: list[XY]) -> list[XY]:
        out: list[XY] = []
        for p in run:
            while len(out) > 1 and _turn(out[-2], out[-1], p) <= 0:
                out.pop()
            out.append(p)
        return out[:-1]

    return tuple(half(points) + half(points[::-1]))


def _within(a: XY, b: XY, c: XY) -> bool:
    """Whether c, on the line a-b, lies between a and b."""
    return min(a[0], b[0]) <= c[0] <= max(a[0], b[0]) and min(a[1], b[1]) <= c[1] <= max(a[1], b[1])


def leader_ends(counter: Box, label: Box) -> Segment:
    """A leader line from the counter's middle to the nearest point of the label's box."""
    cx, cy = (counter[0] + counter[2]) / 2, (counter[1] + counter[3]) / 2
    lx = min(max(cx, label[0]), label[2])
    ly = min(max(cy, label[1]), label[3])
    return (cx, cy), (lx, ly)


def _spots(around: Box, w: float, h: float, d: float) -> list[Box]:
    """The candidate boxes of size w x h at d pixels (one of RINGS) around a box, in order."""
    rows = _candidates(around, w, h)
    return [tuple(box) for box in rows[rows[:, 4] == d, :4].tolist()]


def _candidates(around: Box, w: float, h: float) -> np.ndarray:
    """Every candidate box of size w x h around a box, nearest ring first, as rows of left, top,
    right, bottom and the ring's distance."""
    x0, y0, x1, y1 = around
    return _offsets(round(x1 - x0, 1), round(y1 - y0, 1), w, h) + (x0, y0, x0, y0, 0)


@lru_cache(maxsize=4096)
def _offsets(cw: float, ch: float, w: float, h: float) -> np.ndarray:
    """The candidates around a cw x ch box at the origin: in each ring, right below, above, right
    and left of its middle first, then slid along each edge to the corners, a few pixels at a time."""
    rows = []
    for d in RINGS:
        below, above, right, left = ch + d, -d - h, cw + d, -d - w
        spots = [(cw / 2 - w / 2, below, 0.0), (cw / 2 - w / 2, above, 0.0)]
        spots += [(right, ch / 2 - h / 2, 0.0), (left, ch / 2 - h / 2, 0.0)]
        for step in _steps((cw + w) / 2, max(SLIDE, w / 6)):  # still touching the edge above or below
            for x in (cw / 2 - w / 2 - step, cw / 2 - w / 2 + step):
                spots += [(x, below, step), (x, above, step)]
        for step in _steps((ch + h) / 2, SLIDE):
            for y in (ch / 2 - h / 2 - step, ch / 2 - h / 2 + step):
                spots += [(right, y, step), (left, y, step)]
        spots.sort(key=lambda spot: spot[2])
        rows += [(x, y, x + w, y + h, d) for x, y, _ in spots]
    return np.array(rows)


def _steps(reach: float, step: float) -> list[float]:
    """Slides from one step up to ``reach`` (included)."""
    count = max(1, math.ceil(reach / step))
    return [reach * i / count for i in range(1, count + 1)]


def _overlapping(boxes: np.ndarray, others: list[Box]) -> np.ndarray:
    """Which of the boxes (rows) overlap which of the others (columns), more than along an edge."""
    if not others:
        return np.zeros((len(boxes), 0), dtype=bool)
    o = np.array(others)
    return (
        (boxes[:, None, 0] < o[None, :, 2])
        & (o[None, :, 0] < boxes[:, None, 2])
        & (boxes[:, None, 1] < o[None, :, 3])
        & (o[None, :, 1] < boxes[:, None, 3])
    )


def _covering(boxes: np.ndarray, outline: Outline) -> np.ndarray:
    """Which of the boxes (rows; each overlapping the outline's own box) the convex outline
    overlaps: none of its edges parts them (the separating axis test, all boxes at once)."""
    normals, low, high = _axes(outline)
    mine = boxes[:, [[0, 1], [2, 1], [2, 3], [0, 3]]] @ normals  # (box, corner, axis)
    apart = (mine.max(axis=1) <= low + 1e-9) | (high <= mine.min(axis=1) + 1e-9)
    return ~apart.any(axis=1)


@lru_cache(maxsize=1024)
def _axes(outline: Outline) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """An outline's edge normals (as columns) and its extent along each."""
    points = np.array(outline)
    edges = np.roll(points, -1, axis=0) - points
    normals = np.stack([edges[:, 1], -edges[:, 0]])
    theirs = points @ normals
    return normals, theirs.min(axis=0), theirs.max(axis=0)


def _hit(box: Box, boxes: list[Box]) -> bool:
    x0, y0, x1, y1 = box
    return any(a < x1 and x0 < c and b < y1 and y0 < e for a, b, c, e in boxes)


def _covered(box: Box, counters: list) -> bool:
    """Whether the box covers any of the counters (rows of box and outline, None for a box)."""
    x0, y0, x1, y1 = box
    return any(
        a < x1 and x0 < c and b < y1 and y0 < e and (o is None or covers(box, o, (a, b, c, e)))
        for a, b, c, e, o in counters
    )


def _seg_box(s: Segment) -> Box:
    (x0, y0), (x1, y1) = s
    return min(x0, x1) - 1, min(y0, y1) - 1, max(x0, x1) + 1, max(y0, y1) + 1


def outline_box(outline: Outline) -> Box:
    xs, ys = [p[0] for p in outline], [p[1] for p in outline]
    return min(xs), min(ys), max(xs), max(ys)


def box_outline(box: Box) -> Outline:
    x0, y0, x1, y1 = box
    return (x0, y0), (x1, y0), (x1, y1), (x0, y1)


def covers(box: Box, outline: Outline, bounds: Box | None = None) -> bool:
    """Whether a box and a convex outline (its own box ``bounds``, if known) overlap (more than
    along an edge): no edge of the outline, nor the box's sides, parts them (the separating axis
    test)."""
    if not intersects(box, bounds or outline_box(outline)):
        return False
    if len(outline) == 4 and outline == box_outline(bounds or outline_box(outline)):
        return True  # a box itself
    corners = box_outline(box)
    for (ax, ay), (bx, by) in zip(outline, outline[1:] + outline[:1], strict=True):
        nx, ny = by - ay, ax - bx
        theirs = [nx * x + ny * y for x, y in outline]
        mine = [nx * x + ny * y for x, y in corners]
        if max(mine) <= min(theirs) + 1e-9 or max(theirs) <= min(mine) + 1e-9:
            return False
    return True


class Placer:
    """Free room on the table: counters, the labels placed so far and their leaders are taken.
    A counter is a box, or the convex outline it covers (a unit turned on the table covers less
    than its box)."""

    def __init__(self, bounds: Box, counters: Iterable[Box | Outline], lines: Iterable[Segment] = ()) -> None:
        self.bounds = bounds
        self.outlines = [tuple(c) if isinstance(c[0], tuple) else box_outline(c) for c in counters]
        self.counters = [outline_box(o) for o in self.outlines]
        # each counter's box and its outline, None where the outline is the box itself
        pairs = zip(self.counters, self.outlines, strict=True)
        self._shapes = [(*b, None if o == box_outline(b) else o) for b, o in pairs]
        self.lines = list(lines)  # the overlay's arrows, as segments: better not covered
        self.labels: list[Box] = []
        self.leaders: list[Segment] = []

    def _inside(self, box: Box) -> bool:
        return (
            box[0] >= self.bounds[0]
            and box[1] >= self.bounds[1]
            and box[2] <= self.bounds[2]
            and box[3] <= self.bounds[3]
        )

    def free(self, box: Box) -> bool:
        """Whether the box is on the table, clear of counters and labels, and under no leader."""
        return (
            self._inside(box)
            and not any(
                b[0] < box[2] and box[0] < b[2] and b[1] < box[3] and box[1] < b[3] and covers(box, o, b)
                for b, o in zip(self.counters, self.outlines, strict=True)
            )
            and not any(intersects(box, b) for b in self.labels)
            and not any(crosses(box, *s) for s in self.leaders)
        )

    def take(self, box: Box, leader: Segment | None = None) -> None:
        self.labels.append(box)
        if leader is not None:
            self.leaders.append(leader)

    def place(self, around: Box, w: float, h: float) -> Placement | None:
        """A free w x h box near ``around`` (a counter's box), with a leader line if it is off
        the counter's edge; None if there is no free spot within MAX_LEADER."""
        pad = MAX_LEADER + w + h
        region = (around[0] - pad, around[1] - pad, around[2] + pad, around[3] + pad)
        near = [shape for shape in self._shapes if intersects(shape, region)]
        others = [b[:4] for b in near if b[:4] != around]
        labels = [b for b in self.labels if intersects(b, region)]
        leaders = [s for s in self.leaders if intersects(_seg_box(s), region)]
        lines = [s for s in self.lines if intersects(_seg_box(s), region)]
        spots = _candidates(around, w, h)
        close = int(np.searchsorted(spots[:, 4], GAP, side="right"))  # the spots right by the counter
        ring = [tuple(row) for row in spots[:close, :4].tolist()]
        best = None
        for box in ring:  # most labels go right by their counter: tried first, one by one
            if not self._inside(box) or _hit(box, labels) or _covered(box, near):
                continue
            cost = self._cost(box, None, around, labels, leaders, lines, others)
            if cost == 0:
                return self._taken(box, None)
            if cost is not None and (best is None or cost < best[0]):
                best = (cost, box, None)
        for box, d in self._free_spots(spots[close:], labels, near):
            leader = leader_ends(around, box) if d > GAP else None
            cost = self._cost(box, leader, around, labels, leaders, lines, others)
            if cost == 0:
                return self._taken(box, leader)
            if cost is not None and (best is None or cost < best[0]):
                best = (cost, box, leader)
        return self._taken(*best[1:]) if best else None

    def _taken(self, box: Box, leader: Segment | None) -> Placement:
        self.take(box, leader)
        return Placement(box, leader)

    def _free_spots(self, spots: np.ndarray, labels: list[Box], near: list) -> list[tuple[Box, float]]:
        """The spots (rows of box and ring) on the table, clear of labels and counters: all at once."""
        boxes = spots[:, :4]
        x0, y0, x1, y1 = self.bounds
        free = (boxes[:, 0] >= x0) & (boxes[:, 1] >= y0) & (boxes[:, 2] <= x1) & (boxes[:, 3] <= y1)
        free &= ~_overlapping(boxes, labels + [n[:4] for n in near if n[4] is None]).any(axis=1)
        shaped = [n for n in near if n[4] is not None]
        maybe = _overlapping(boxes, [n[:4] for n in shaped])
        for j, counter in enumerate(shaped):
            rows = maybe[:, j] & free
            if rows.any():
                free[rows] = ~_covering(boxes[rows], counter[4])
        return [(tuple(row[:4]), row[4]) for row in spots[free].tolist()]

    def _cost(
        self,
        box: Box,
        leader: Segment | None,
        around: Box,
        labels: list[Box],
        leaders: list[Segment],
        lines: list[Segment],
        others: list[Box],
    ) -> int | None:
        """None if a free spot is under a leader or its leader breaks the rules, else how many
        arrows it covers and other counters its leader crosses."""
        if any(crosses(box, *s) for s in leaders):
            return None
        if leader is not None and not self._clear(leader, labels, leaders, around):
            return None
        cost = sum(crosses(box, *s) for s in lines)
        return cost + (sum(crosses(b, *leader) for b in others) if leader is not None else 0)

    def place_all(self, wanted: dict[str, tuple[Box, float, float]]) -> dict[str, Placement | None]:
        """A placement for each of several labels (key -> its counter's box, width and height),
        in the order given; if some find no room, again with those first (they may take a
        spot an earlier one need not have), up to TRIES times, keeping the try that placed most."""
        order = list(wanted)
        kept = list(self.labels), list(self.leaders)
        best: tuple[dict[str, Placement | None], list[Box], list[Segment]] | None = None
        for _ in range(TRIES):
            self.labels, self.leaders = list(kept[0]), list(kept[1])
            placed = {key: self.place(*wanted[key]) for key in order}
            missing = [key for key in order if placed[key] is None]
            if best is None or len(missing) < sum(p is None for p in best[0].values()):
                best = placed, self.labels, self.leaders
            if not missing:
                break
            order = missing + [key for key in order if key not in missing]
        placed, self.labels, self.leaders = best
        return placed

    @staticmethod
    def _clear(leader: Segment, labels: list[Box], leaders: list[Segment], around: Box) -> bool:
        """Whether a leader crosses no label, no other leader, and runs at most MAX_LEADER past its
        counter."""
        return (
            reach(around, leader) <= MAX_LEADER
            and not any(crosses(b, *leader) for b in labels)
            and not any(segments_cross(leader, s) for s in leaders)
        )

    def place_free(self, around: Box, w: float, h: float) -> Box | None:
        """A free box of w x h right by ``around``, or None if there is none (for names that may
        be left out, such as terrain names)."""
        for box in _spots(around, w, h, GAP)[:8]:
            if self.free(box):
                self.take(box)
                return box
        return None

    def place_anyway(self, around: Box, w: float, h: float) -> Placement:
        """A free box as :meth:`place` finds, else the first spot right by ``around`` that is on
        the table, covers no label and is under no leader, though it covers a counter; else the
        spot right below it (for captions that must be drawn)."""
        placed = self.place(around, w, h)
        if placed is None:
            spots = _spots(around, w, h, GAP)
            clear = [b for b in spots if self._inside(b) and not any(intersects(b, o) for o in self.labels)]
            clear = [b for b in clear if not any(crosses(b, *s) for s in self.leaders)]
            placed = Placement((clear or spots)[0], None)
            self.take(placed.box)
        return placed
