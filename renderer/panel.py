"""The panel beside the table: the roster (each side with its tokens, then each unit's tag spelt
out with its badges; in a team game the units under the player who holds them).

The panel is a list of cells of one size; the frame decides where each goes (see
:class:`renderer.layout.Frame`).
"""

from __future__ import annotations

import re
from functools import lru_cache

from PIL import Image

from engine.game_state import GameState
from engine.roster import name_of
from engine.state import Unit
from engine.view import View
from engine.wording import counted, side_label
from renderer import palette as pal
from renderer.canvas import Canvas, drawable_text, fit_text, text_width
from renderer.layout import CELL_H, CELL_W, TEXT_FONT, Frame
from renderer.tags import CHIP_H, badge_width, badges, chip_text, chip_width, draw_badge, draw_tag

Cell = tuple  # ("heading", text, style) or ("unit", chip, style, name, badges)
SWATCH = 18
HEADING_ROOM = CELL_W - 30  # pixels a heading's text may take
_ABBREVIATIONS = {
    "infantry": "Inf",
    "detachment": "Det",
    "squad": "Sqd",
    "section": "Sec",
    "platoon": "Plt",
    "company": "Coy",
    "command": "Cmd",
    "anti-tank": "AT",
    "destroyer": "TD",
}


def roster_name(name: str, room: float) -> str:
    """The name, with long words abbreviated and brackets dropped if it is wider than room, then
    cut short."""
    if text_width(name, TEXT_FONT) > room:
        name = re.sub(r"\s*\([^)]*\)", "", name).strip()
        name = " ".join(_ABBREVIATIONS.get(w.casefold(), w) for w in name.split())
    return fit_text(name, TEXT_FONT, room)


def player_names(state: GameState, side: str) -> dict[str, str]:
    """The name of each player of a team side, in joining order: the name they go by, kept
    bounded when they joined (engine.roster) and drawn as the font can (accents folded, other
    scripts left out), else "P1", "P2"... Player ids are not shown: they may be raw user ids."""
    team = state.sides[side].team
    if team is None:
        return {}
    players = list(dict.fromkeys([*state.sides[side].players, *team.tokens]))
    shown = {p: drawable_text(name_of(state, p) or "") for p in players}
    return {p: shown[p] if _readable(shown[p]) else f"P{i}" for i, p in enumerate(players, start=1)}


def _readable(name: str) -> bool:
    """A name with two letters or digits at least, once what the font cannot draw is left out."""
    return sum(c.isalnum() for c in name) >= 2


def player_headings(name: str, co: bool, tokens: int) -> list[str]:
    """A player's heading over the units they hold: their name, the commanding officer's mark
    and their tokens on one line where they fit, else the name on a line of its own (cut short
    only if it fills the line) and the mark and tokens under it."""
    line = f"{name}{' (CO)' if co else ''}: {counted(tokens, 'token')}"
    if text_width(line, TEXT_FONT) <= HEADING_ROOM:
        return [line]
    return [fit_text(name, TEXT_FONT, HEADING_ROOM), ("CO, " if co else "") + counted(tokens, "token")]


def _heading(canvas: Canvas, text: str, style: pal.SideStyle | None) -> None:
    mid = CELL_H / 2
    if style is not None:
        canvas.draw.rectangle([0, mid - SWATCH / 2, SWATCH, mid + SWATCH / 2], fill=style.fill,
                              outline=pal.INK, width=2)
    canvas.text((SWATCH + 6 if style else 24, mid), fit_text(text, TEXT_FONT, HEADING_ROOM), size=TEXT_FONT,
                anchor="lm")


def _unit_line(canvas: Canvas, text: str, style: pal.SideStyle | None, name: str,
               marks: tuple[tuple[pal.RGB, int], ...]) -> None:
    top = (CELL_H - CHIP_H) / 2
    draw_tag(canvas, (0, top, 0, top), text, style, [])
    left = chip_width(text) + 6
    room = CELL_W - 4 - left - sum(badge_width(n) + 3 for _, n in marks)
    shown = roster_name(name, room)
    ink = pal.INK if style else pal.MUTED_INK
    canvas.text((left, CELL_H / 2), shown, size=TEXT_FONT, fill=ink, anchor="lm")
    left += text_width(shown, TEXT_FONT) + 4
    for colour, count in marks:
        left += draw_badge(canvas, left, CELL_H / 2, colour, count) + 3


_DRAW = {"heading": _heading, "unit": _unit_line}


@lru_cache(maxsize=1024)
def tile(cell: Cell) -> Canvas:
    """A cell drawn once on its own (the same cells come back render after render)."""
    canvas = Canvas(Image.new("RGB", (CELL_W, CELL_H), pal.MARGIN_BG))
    _DRAW[cell[0]](canvas, *cell[1:])
    return canvas


def _unit_cell(unit: Unit, tag: str, passengers: int, style: pal.SideStyle) -> Cell:
    name = ("HQ " if unit.is_command else "") + (unit.true_name or unit.name)
    if unit.hidden and unit.marker is not None:  # its own side knows which marker it is under
        name += f" (?{unit.marker})"
    marks = tuple(badges(unit))
    return ("unit", chip_text(unit, tag, passengers), None if unit.destroyed else style, name, marks)


def roster_cells(state: GameState, view: View, styles: dict[str, pal.SideStyle],
                 tags: dict[str, str]) -> list[Cell]:
    cells: list[Cell] = []
    for name, side in state.sides.items():
        broken = " (broken)" if side.broken else ""
        heading = f"{side_label(name)}: {counted(side.tokens, 'token')}{broken}"
        cells.append(("heading", heading, styles[name]))
        units = [u for u in view.units if u.side == name]
        names = player_names(state, name)
        for player in [*names, None] if names else [None]:
            held = [u for u in units if (u.player if names else None) == player]
            if names and held:
                team = state.sides[name].team
                titles = (
                    player_headings(names[player], player == team.co, team.tokens.get(player, 0))
                    if player
                    else ["no player"]
                )
                cells += [("heading", title, None) for title in titles]
            cells += [_unit_cell(u, tags[u.id], view.passengers.get(u.id, 0), styles[name]) for u in held]
    return cells


def draw_panel(canvas: Canvas, frame: Frame, cells: list[Cell]) -> None:
    for index, cell in enumerate(cells):
        x, y = frame.cell(index)
        drawn = tile(cell)
        canvas.image.paste(drawn.image, (x, y))
        canvas.texts += [((x0 + x, y0 + y, x1 + x, y1 + y), text) for (x0, y0, x1, y1), text in drawn.texts]
