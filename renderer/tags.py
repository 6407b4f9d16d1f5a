"""Unit tags: the few letters that name a unit on the map ("Sh1" for Sherman 1), drawn on a chip
in its side's colours, with its morale markers and tokens as numbered badges after it. The
roster beside the table spells each tag out."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from engine.state import Unit
from renderer import palette as pal
from renderer.canvas import Box, Canvas, text_width
from renderer.layout import TEXT_FONT

MAX_TAG = 5  # characters
CHIP_PAD = 5
CHIP_H = 30
BADGE_D = 30  # a badge's diameter
BADGE_GAP = 3
_ROMAN = re.compile(r"^[IVX]+$")
_SHORT = {"panzer": "Pz", "sturmgeschütz": "StuG"}  # the usual shortenings of a first word


@lru_cache(maxsize=1024)
def unit_tag(name: str) -> str:
    """A short tag for a unit's name: short names whole ("M10", "StuG", "MG42"); otherwise the
    first word's first two letters, then numbers and roman numerals whole and other words'
    initials ("Sherman 1" -> "Sh1", "Gruppe 2" -> "Gr2", "1st Squad" -> "1Sq")."""
    name = re.sub(r"\s*\([^)]*\)", "", name).strip()
    squeezed = re.sub(r"[\s.]", "", name)
    if len(squeezed) <= 4:
        return squeezed
    words = [w for w in re.split(r"[\s\-]+", name) if w]
    if len(words) == 1:
        return words[0][:3]
    letters, numbers = "", ""
    for word in words:
        if re.fullmatch(r"\d+(st|nd|rd|th)?", word):
            numbers += re.match(r"\d+", word).group()  # "1st" -> "1"
        elif word[0].isdigit():
            continue  # a calibre such as "75mm" says little
        elif _ROMAN.match(word):
            numbers += word
        elif not letters:
            letters = _SHORT.get(word.casefold()) or re.sub(r"\W", "", word)[:2]
        elif len(letters) < 3 and not numbers:
            letters += word[0].upper()
    lead = "".join(w[0] for w in words[:1] if re.fullmatch(r"\d+(st|nd|rd|th)?", w))  # "1st Squad" -> "1Sq"
    if lead:
        return (lead + letters)[:MAX_TAG]
    return (letters[: max(1, MAX_TAG - len(numbers))] + numbers)[:MAX_TAG]


def tags_for(units: Iterable[Unit]) -> dict[str, str]:
    """A tag per unit id, unique among each side's units (the chip's colour tells the sides
    apart); a clash takes a, b, c... after it."""
    tags: dict[str, str] = {}
    taken: dict[tuple[str, str], int] = {}
    units = list(units)
    wanted = {u.id: (u.side, unit_tag(u.true_name or u.name)) for u in units}
    counts: dict[tuple[str, str], int] = {}
    for key in wanted.values():
        counts[key] = counts.get(key, 0) + 1
    for unit in units:
        key = wanted[unit.id]
        tag = key[1]
        if counts[key] > 1:
            taken[key] = taken.get(key, 0) + 1
            tag = tag[: MAX_TAG - 1] + "abcdefghijklmnopqrstuvwxyz"[(taken[key] - 1) % 26]
        tags[unit.id] = tag
    return tags


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
