"""What a reader of the battlefield picture must be able to rely on, measured on what the renderer
drew (its Canvas records every label box, leader line and counter it placed), with shapely's
geometry rather than the placer's own."""

from __future__ import annotations

import re

from shapely.geometry import LineString, Polygon, box

from engine.state import Unit
from engine.tags import SHORT
from engine.view import View
from renderer.canvas import Canvas
from renderer.labels import MAX_LEADER
from renderer.roster_names import LEFT_OUT, abbreviated
from renderer.units import corners, counter_box, facing_tip

EDGE = 0.5  # pixels: touching along an edge is not overlapping


def counter_shape(unit: Unit, canvas: Canvas) -> Polygon:
    """What the unit's counter covers on the picture: its footprint and facing tick, or its wreck
    or cross."""
    if unit.destroyed and not unit.is_vehicle:
        return box(*counter_box(unit, canvas.frame))
    points = corners(unit, canvas.frame)
    if not unit.destroyed:
        points.append(facing_tip(unit, canvas.frame))
    return Polygon(points).convex_hull if len(points) > 4 else Polygon(points)


def _inner(b) -> Polygon:
    return box(b[0] + EDGE, b[1] + EDGE, b[2] - EDGE, b[3] - EDGE)


def placement_faults(canvas: Canvas, view: View) -> list[str]:
    """Every way the tags and leaders drawn break the rules: a tag over a counter or another label,
    a leader across a label or another leader, a leader longer than MAX_LEADER past its
    counter's box, a unit neither tagged on the table nor told of in the roster."""
    faults = []
    shapes = {u.id: counter_shape(u, canvas) for u in view.units}
    tags = canvas.tags
    for unit in view.units:
        if (unit.id in tags) == (unit.id in canvas.untagged):
            faults.append(f"{unit.name}: tagged {unit.id in tags}, untagged {unit.id in canvas.untagged}")
    for unit_id, tag in tags.items():
        inner = _inner(tag)
        faults += [f"{unit_id}'s tag covers {other}" for other, s in shapes.items() if inner.intersects(s)]
        others = [b for b in canvas.labels if b != tag]
        faults += [f"{unit_id}'s tag covers a label at {b}" for b in others if inner.intersects(_inner(b))]
        x0, y0, x1, y1 = canvas.frame.left, canvas.frame.top, *canvas.frame.table_px
        if not box(x0, y0, x0 + x1, y0 + y1).buffer(EDGE).contains(box(*tag)):
            faults.append(f"{unit_id}'s tag is off the table")
    lines = [LineString(s) for s in canvas.leaders]
    for i, line in enumerate(lines):
        faults += [f"leader {i} crosses a label at {b}" for b in canvas.labels if line.intersects(_inner(b))]
        faults += [
            f"leaders {i} and {j} cross" for j in range(i + 1, len(lines)) if line.intersects(lines[j])
        ]
        starts = [c for c in canvas.counters if _middle(c) == line.coords[0]]
        if not starts:
            faults.append(f"leader {i} starts from no counter")
        elif line.difference(box(*starts[0])).length > MAX_LEADER + 1e-6:
            faults.append(
                f"leader {i} runs {line.difference(box(*starts[0])).length:.0f} px past its counter"
            )
    return faults


def _middle(b) -> tuple[float, float]:
    return (b[0] + b[2]) / 2, (b[1] + b[3]) / 2


def _bare(word: str) -> str:
    return re.sub(r"[^\w/]", "", word).replace("_", "")


def _pieces(word: str) -> set[str]:
    """What a word of a name may read as in a tag: itself (less punctuation), its calibre's
    number, its usual shortening, or two letters or more of its start if it is all letters."""
    bare, letters = _bare(word), re.sub(r"\W", "", word)
    pieces = {bare.casefold(), letters.casefold()}
    calibre = re.fullmatch(r"(\d+)mm", word)
    if calibre:
        pieces.add(calibre[1])
    if word.casefold() in SHORT:
        pieces.add(SHORT[word.casefold()].casefold())
    if letters.isalpha():
        pieces |= {letters[:n].casefold() for n in range(2, len(letters) + 1)}
    return {p for p in pieces if p}


def readable(tag: str, name: str, alike: bool) -> bool:
    """Whether a tag reads as the unit's name: pieces each one of the name's words (whole, its
    number, its usual shortening, or its first letters; never a lone initial nor a cut number),
    ending in the name's number if it has one; ``alike``: another unit of the side has the same
    name but for whose it is, so a letter or two after the tag may tell them apart."""
    words = [w for w in re.split(r"[\s,()]+", re.sub(r"\s*\([^)]*\)\s*$", "", name)) if w]
    number = next((w for w in reversed(words) if w.isdigit()), None)
    inside = re.search(r"\(([^)]*)\)\s*$", name)
    words += [w for w in re.split(r"[\s,]+", inside[1]) if w] if inside else []
    text = tag.replace("-", "")
    text = (re.sub(r"[a-z]{1,2}$", "", text) if alike else text).casefold()
    ordinal = re.match(r"(\d+)(st|nd|rd|th)$", words[0]) if words else None
    if ordinal:
        number = ordinal[1]
        words[0] = ordinal[1]
    if number and not (text.endswith(number) or text.startswith(number)):
        return False
    pieces = set().union(*(_pieces(w) for w in words)) if words else set()
    can = [True] + [False] * len(text)  # can[i]: text[:i] splits into pieces
    for i in range(len(text)):
        if can[i]:
            for piece in pieces:
                if text.startswith(piece, i):
                    can[i + len(piece)] = True
    return can[-1]


def roster_faults(cells: list[tuple], texts: set[str]) -> list[str]:
    """Every way the roster's unit lines break the rules: a name cut with "..." (the old way),
    two under one heading that read the same, a word shown that is none of the name's, or a
    line not drawn (``texts``: the texts on the picture)."""
    faults, shown = [], []
    for cell in cells:
        if cell[0] == "heading":
            shown = []
            continue
        if cell[0] != "unit":
            continue
        name = cell[3]
        if name.endswith("...") or (name and name not in texts):
            faults.append(f"{name!r} is cut or not drawn")
        if name and name.casefold() in shown:
            faults.append(f"two units under one heading read {name!r}")
        shown.append(name.casefold())
    return faults


def told_from(shown: str, name: str) -> bool:
    """Whether a roster line's name is the unit's name, whole or shortened: each word shown is
    one of the name's words, its usual shortening, or its first letters with a dot; its number
    kept unless "…" shows words were left out (the line's tag carries the number)."""
    words = [w.casefold() for w in abbreviated(name).split()] + [w.casefold() for w in name.split()]
    number = next((w for w in reversed(name.split()) if w.isdigit()), None)
    parts = [p for p in re.split(r"\s+|…", shown) if p]
    if number and number not in parts and LEFT_OUT not in shown:
        return False
    pieces = [w for w in re.split(r"[\s/]+", abbreviated(name) + " " + name.casefold()) if w]
    for part in parts:
        if part.casefold() in words:
            continue
        for bit in part.split("/"):
            stem = bit[:-1].casefold() if bit.endswith(".") else None
            if bit.casefold() not in pieces and not (
                stem and any(w.casefold().startswith(stem) for w in pieces)
            ):
                return False
    return True
