"""The panel beside the table: the roster (each side with its tokens, then each unit's tag spelt
out with its badges; in a team game the units under the player who holds them).

The panel is a list of cells of one size; the frame decides where each goes (see
:class:`renderer.layout.Frame`).
"""

from __future__ import annotations

from collections.abc import Collection
from functools import lru_cache

from PIL import Image

from engine.game_state import GameState
from engine.roster import name_of
from engine.state import Unit
from engine.view import View
from engine.wording import counted, side_label
from renderer import palette as pal
from renderer.canvas import Canvas, drawable_text, fit_text, text_width
from renderer.description import square_of
from renderer.layout import CELL_H, CELL_W, TEXT_FONT, Frame
from renderer.roster_names import shown_names
from renderer.tags import CHIP_H, badge_width, badges, chip_text, chip_width, draw_badge, draw_tag

Cell = tuple  # ("heading", text, style) or ("unit", chip, style, name, badges, where)
SWATCH = 18
HEADING_ROOM = CELL_W - 30  # pixels a heading's text may take


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
        canvas.draw.rectangle(
            [0, mid - SWATCH / 2, SWATCH, mid + SWATCH / 2], fill=style.fill, outline=pal.INK, width=2
        )
    canvas.text(
        (SWATCH + 6 if style else 24, mid),
        fit_text(text, TEXT_FONT, HEADING_ROOM),
        size=TEXT_FONT,
        anchor="lm",
    )


def _unit_line(
    canvas: Canvas,
    text: str,
    style: pal.SideStyle | None,
    name: str,
    marks: tuple[tuple[pal.RGB, int], ...],
    where: str,
) -> None:
    """A unit's chip, its name, its badges, and the square it is in if its tag is not on the table."""
    top = (CELL_H - CHIP_H) / 2
    draw_tag(canvas, (0, top, 0, top), text, style, [])
    left = name_left(text)
    ink = pal.INK if style else pal.MUTED_INK
    canvas.text((left, CELL_H / 2), name, size=TEXT_FONT, fill=ink, anchor="lm")
    left += text_width(name, TEXT_FONT) + 4
    for colour, count in marks:
        left += draw_badge(canvas, left, CELL_H / 2, colour, count) + 3
    canvas.text((left, CELL_H / 2), where, size=TEXT_FONT, fill=pal.MUTED_INK, anchor="lm")


def name_left(chip: str) -> float:
    """Where a unit's name starts in its roster line, after its tag's chip."""
    return chip_width(chip) + 6


_DRAW = {"heading": _heading, "unit": _unit_line}


@lru_cache(maxsize=1024)
def tile(cell: Cell) -> Canvas:
    """A cell drawn once on its own (the same cells come back render after render)."""
    canvas = Canvas(Image.new("RGB", (CELL_W, CELL_H), pal.MARGIN_BG))
    _DRAW[cell[0]](canvas, *cell[1:])
    return canvas


def _unit_line_parts(
    unit: Unit, tag: str, passengers: int, where: str | None
) -> tuple[str, tuple[tuple[pal.RGB, int], ...], str, float]:
    """A unit's chip, badges, where it is on the table if its tag could not be placed there
    (``where``, its grid square), and the room left on its line for its name."""
    marks = tuple(badges(unit))
    chip = chip_text(unit, tag, passengers)
    told = f"in {where}" if where else ""
    room = CELL_W - 4 - name_left(chip) - sum(badge_width(n) + 3 for _, n in marks)
    room -= text_width(told, TEXT_FONT) + 4 if told else 0
    return chip, marks, told, room


def roster_name(unit: Unit) -> str:
    """A unit's name in full as its own side knows it, "HQ" before a commander's."""
    name = ("HQ " if unit.is_command else "") + (unit.true_name or unit.name)
    if unit.hidden and unit.marker is not None:  # its own side knows which marker it is under
        name += f" (?{unit.marker})"
    return name


def _whose(unit: Unit) -> str:
    """What the unit's name says of whose it is (engine.unit_names), if it says."""
    true = unit.true_name or unit.name
    return true.removeprefix(unit.called).strip() if unit.called and true.startswith(unit.called) else ""


def _section(
    units: list[Unit], tags: dict[str, str], view: View, style: pal.SideStyle, where: dict[str, str]
) -> list[Cell]:
    """The roster lines of the units under one heading, each name shortened to fit its line and
    told from the others (renderer.roster_names)."""
    parts = [_unit_line_parts(u, tags[u.id], view.passengers.get(u.id, 0), where.get(u.id)) for u in units]
    names = shown_names([(roster_name(u), p[3], _whose(u)) for u, p in zip(units, parts, strict=True)])
    return [
        ("unit", chip, None if u.destroyed else style, name, marks, told)
        for u, (chip, marks, told, _), name in zip(units, parts, names, strict=True)
    ]


def roster_cells(
    state: GameState,
    view: View,
    styles: dict[str, pal.SideStyle],
    tags: dict[str, str],
    untagged: Collection[str] = (),
) -> list[Cell]:
    """The roster: each side's heading, then its units (under their players' headings in a team
    game); a unit in ``untagged`` (ids) says which grid square it is in."""
    where = {u.id: square_of(state.table, u.position) for u in view.units if u.id in untagged}
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
            cells += _section(held, tags, view, styles[name], where)
    return cells


def cut_roster(cells: list[Cell], room: int) -> list[Cell]:
    """The cells cut to ``room`` or fewer: the last lines of units tagged on the table go first,
    then the lines of units left untagged, which are told of on key lines instead: each tag and
    the square it is in, a few to a line ("Pa1 B7, Fl1 C6", after their side's swatch); "and N
    more" counts the units left out. If that is still too long, the roster's end goes."""
    sides, side = [], None
    for cell in cells:
        side = cell[2] if cell[0] == "heading" and cell[2] is not None else side
        sides.append(side)
    units = [i for i, c in enumerate(cells) if c[0] == "unit"]
    order = [i for i in reversed(units) if not cells[i][5]] + [i for i in reversed(units) if cells[i][5]]
    dropped: list[int] = []
    for i in [None, *order]:
        if i is not None:
            dropped.append(i)
        keys = _key_lines(
            [
                (sides[j], f"{cells[j][1]} {cells[j][5].removeprefix('in ')}")
                for j in sorted(dropped)
                if cells[j][0] == "unit" and cells[j][5]
            ]
        )
        left_out = sum(cells[j][0] == "unit" and not cells[j][5] for j in dropped)
        kept = [c for j, c in enumerate(cells) if j not in dropped] + keys
        kept += [("heading", f"and {left_out} more", None)] if left_out else []
        if len(kept) <= room:
            return kept
    return [*cells[: room - 1], ("heading", f"and {len(cells) - room + 1} more", None)]


def _key_lines(entries: list[tuple[pal.SideStyle, str]]) -> list[Cell]:
    """Key lines of (side, "tag square") entries, as many to a line as fit, a side's to its own."""
    lines: list[Cell] = []
    for style, entry in entries:
        if (
            lines
            and lines[-1][2] == style
            and text_width(f"{lines[-1][1]}, {entry}", TEXT_FONT) <= HEADING_ROOM
        ):
            lines[-1] = ("heading", f"{lines[-1][1]}, {entry}", style)
        else:
            lines.append(("heading", entry, style))
    return lines


def draw_panel(canvas: Canvas, frame: Frame, cells: list[Cell]) -> None:
    for index, cell in enumerate(cells):
        x, y = frame.cell(index)
        drawn = tile(cell)
        canvas.image.paste(drawn.image, (x, y))
        canvas.texts += [((x0 + x, y0 + y, x1 + x, y1 + y), text) for (x0, y0, x1, y1), text in drawn.texts]
