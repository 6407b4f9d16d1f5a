"""Unit tags (:mod:`engine.tags`: the few letters that name a unit on the map) drawn on a chip
in its side's colours, with its morale markers and tokens as numbered badges after it. The
roster beside the table spells each tag out."""

from __future__ import annotations

from engine.state import Unit
from renderer import palette as pal
from renderer.canvas import Box, Canvas, text_width
from renderer.layout import TEXT_FONT

CHIP_PAD = 5
CHIP_H = 30
BADGE_D = 30  # a badge's diameter
BADGE_GAP = 3


def chip_text(unit: Unit, tag: str, passengers: int) -> str:
    text = ("?" if unit.hidden else "") + tag
    return text + (f"+{passengers}" if passengers else "")


def chip_width(text: str) -> float:
    return text_width(text, TEXT_FONT) + 2 * CHIP_PAD


def badges(unit: Unit) -> list[tuple[pal.RGB, int]]:
    """The unit's badges: morale markers (red), then tokens (white), each with its count."""
    out = []
    if unit.morale_markers and not unit.destroyed:
        out.append((pal.MORALE_PIP, unit.morale_markers))
    if unit.tokens and not unit.destroyed:
        out.append((pal.TOKEN_PIP, unit.tokens))
    return out


def badge_width(count: int) -> float:
    return max(BADGE_D, text_width(str(count), TEXT_FONT) + 12)


def tag_width(text: str, marks: list[tuple[pal.RGB, int]]) -> float:
    return chip_width(text) + sum(BADGE_GAP + badge_width(n) for _, n in marks)


def draw_badge(canvas: Canvas, x: float, y: float, colour: pal.RGB, count: int) -> float:
    """A round badge (a pill for two digits) with the count in it, its left edge at x and its
    middle at y; returns its width."""
    w = badge_width(count)
    r = BADGE_D / 2
    canvas.draw.rounded_rectangle([x, y - r, x + w, y + r], radius=r, fill=colour, outline=pal.PIP_EDGE,
                                  width=2)
    ink = pal.HALO if colour == pal.MORALE_PIP else pal.INK
    canvas.text((x + w / 2, y + 1), str(count), size=TEXT_FONT, fill=ink, anchor="mm")
    return w


def draw_tag(canvas: Canvas, box: Box, text: str, style: pal.SideStyle | None,
             marks: list[tuple[pal.RGB, int]]) -> None:
    """The chip (in the side's colours; grey for a destroyed unit, style None) and its badges,
    in ``box`` (from tag_width x CHIP_H)."""
    x, y0 = box[0], box[1]
    y = y0 + CHIP_H / 2
    w = chip_width(text)
    fill, ink = (style.fill, style.text) if style else (pal.WRECK, pal.HALO)
    canvas.draw.rectangle([x, y0, x + w, y0 + CHIP_H], fill=fill, outline=pal.INK, width=2)
    canvas.text((x + w / 2, y + 1), text, size=TEXT_FONT, fill=ink, anchor="mm")
    x += w
    for colour, count in marks:
        x += BADGE_GAP
        x += draw_badge(canvas, x, y, colour, count)
