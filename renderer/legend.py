"""The legend: an entry for each kind of mark the picture shows, and only those, in its block
under the table (:class:`renderer.layout.Frame`), which has room for every entry at once, at its
short name: the entries shown take their full names where those fit in the block."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from renderer import palette as pal
from renderer import shapes
from renderer.canvas import Canvas, text_width
from renderer.layout import LEGEND_H, MARGIN, TEXT_FONT, Frame, flow
from renderer.tags import draw_badge

Icon = Callable[[Canvas, float, float], None]
ICON_W = 44  # room for the icon before the text


def _morale(c: Canvas, x: float, y: float) -> None:
    draw_badge(c, x - 15, y, pal.MORALE_PIP, 2)


def _token(c: Canvas, x: float, y: float) -> None:
    draw_badge(c, x - 15, y, pal.TOKEN_PIP, 1)


def _last(c: Canvas, x: float, y: float) -> None:
    c.draw.rectangle([x - 14, y - 10, x + 14, y + 10], outline=pal.INK, width=5)
    c.draw.rectangle([x - 13, y - 9, x + 13, y + 9], outline=pal.HIGHLIGHT, width=3)


def _fire(c: Canvas, x: float, y: float) -> None:
    shapes.arrow(c.draw, (x - 18, y), (x + 18, y), pal.FIRE_LINE, width=4, head=12)


def _moved(c: Canvas, x: float, y: float) -> None:
    shapes.trail(c.draw, [(x - 18, y), (x + 18, y)], pal.ALLIES.fill)


def _declared(c: Canvas, x: float, y: float) -> None:
    shapes.dashed_arrow(c.draw, [(x - 18, y), (x + 18, y)])


def _target(c: Canvas, x: float, y: float) -> None:
    shapes.target_ring(c.draw, x, y, 12)


def _hidden(c: Canvas, x: float, y: float) -> None:
    shapes.hidden_marker(c, x, y, 16, 36)


def _wreck(c: Canvas, x: float, y: float) -> None:
    c.draw.rectangle([x - 16, y - 9, x + 16, y + 9], fill=pal.WRECK, outline=pal.WRECK_EDGE)
    shapes.cross(c.draw, x, y, 6, pal.WRECK_EDGE, width=2)


def _lost(c: Canvas, x: float, y: float) -> None:
    shapes.cross(c.draw, x, y, 10, pal.MUTED_INK, width=3)


def _smoke(c: Canvas, x: float, y: float) -> None:
    c.draw.ellipse([x - 16, y - 12, x + 16, y + 12], fill=pal.SMOKE_SWATCH, outline=pal.SMOKE_EDGE)


def _objective(c: Canvas, x: float, y: float) -> None:
    shapes.star(c.draw, x, y, 14, pal.OBJECTIVE)


def _zone(c: Canvas, x: float, y: float) -> None:
    shapes.dashed_box(c.draw, (x - 16, y - 11, x + 16, y + 11), pal.INK)


def _fire_marker(c: Canvas, x: float, y: float) -> None:
    c.draw.ellipse([x - 9, y - 9, x + 9, y + 9], outline=pal.MUTED_INK, width=3)
    c.draw.line([(x - 13, y), (x + 13, y)], fill=pal.MUTED_INK, width=3)
    c.draw.line([(x, y - 13), (x, y + 13)], fill=pal.MUTED_INK, width=3)


def _landed(c: Canvas, x: float, y: float) -> None:
    shapes.stray(c.draw, (x - 21, y), (x + 6, y), 11)
    shapes.burst(c.draw, x + 6, y, 9)


def _close_combat(c: Canvas, x: float, y: float) -> None:
    shapes.crossed_swords(c.draw, x, y, 14)


ITEMS: dict[str, tuple[Icon, str, str]] = {  # each mark's icon, its name, and its short name
    "morale": (_morale, "morale markers", "morale"),
    "tokens": (_token, "tokens", "tokens"),
    "last": (_last, "last action", "last"),
    "moved": (_moved, "moved", "moved"),
    "fire": (_fire, "shot", "shot"),
    "landed": (_landed, "shell landed", "shell"),
    "close_combat": (_close_combat, "close combat", "melee"),
    "declared": (_declared, "declared move", "to move"),
    "target": (_target, "declared target", "target"),
    "fire_marker": (_fire_marker, "fire marker", "fire mark"),
    "hidden": (_hidden, "hidden unit", "hidden"),
    "wreck": (_wreck, "wreck", "wreck"),
    "lost": (_lost, "unit lost", "lost"),
    "smoke": (_smoke, "smoke", "smoke"),
    "objective": (_objective, "objective", "objective"),
    "zone": (_zone, "set-up zone", "set-up"),
}


@cache
def entry_width(text: str) -> int:
    """An entry's width: its icon and its name."""
    return ICON_W + round(text_width(text, TEXT_FONT))


@cache
def shortest() -> tuple[int, ...]:
    """The width of every entry the legend may hold, at its short name: the room the frame
    keeps for the legend (:class:`renderer.layout.Frame`)."""
    return tuple(entry_width(short) for _, _, short in ITEMS.values())


def legend_entries(frame: Frame, shows: set[str]) -> list[tuple[str, str, tuple[int, int]]]:
    """The entries shown, in the legend's order: each key, the name it is written with (its
    full names where they all fit in the frame's rows, else the short ones) and its top left."""
    keys = [key for key in ITEMS if key in shows]
    for names in ([ITEMS[k][1] for k in keys], [ITEMS[k][2] for k in keys]):
        spots = flow(tuple(entry_width(name) for name in names), frame.legend_room)
        if all(row < frame.legend_rows for row, _ in spots):
            break
    top = frame.legend_top
    return [
        (key, name, (MARGIN + x, top + row * LEGEND_H))
        for key, name, (row, x) in zip(keys, names, spots, strict=True)
    ]


def draw_legend(canvas: Canvas, frame: Frame, shows: set[str]) -> None:
    """The legend's entries for the marks shown, in the frame's block for them."""
    for key, name, (x, y) in legend_entries(frame, shows):
        icon = ITEMS[key][0]
        icon(canvas, x + ICON_W / 2, y + LEGEND_H / 2)
        canvas.text((x + ICON_W, y + LEGEND_H / 2), name, size=TEXT_FONT, anchor="lm")
        canvas.legend.append(key)
