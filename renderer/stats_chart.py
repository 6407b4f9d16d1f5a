"""The ``/stats`` picture: for each player, bars of their d6 and d10 faces against the count a fair
die would give, and the luck of their key rolls (to-hit throws, tests), as many to a line as fit.

    png = dice_chart(report, name_of)
    text = chart_description(report, name_of)  # the same in words, for its alt text
"""

from __future__ import annotations

from collections.abc import Callable

from PIL import Image

from engine.dice_stats import DiceReport, FaceTally, Luck, PlayerDice, dice_words, luck_text
from renderer import palette as pal
from renderer.canvas import Canvas, fit_text, text_width
from renderer.description import within
from renderer.encode import encode_png

CHARTED = (6, 10)  # the die sizes drawn; others are in the text table only
WIDTH = 760
MARGIN = 16
TITLE_FONT = 18
FONT = 14
SMALL = 12
BAR_W = {6: 34, 10: 26}
GAP = 8
PLOT_H = 110  # the tallest bar
CAPTION_TOP = 36  # below the player's name
PLOT_TOP = CAPTION_TOP + 36  # room for the caption and the count over the tallest bar
LUCK_TOP = PLOT_TOP + PLOT_H + 26  # below the face numbers
PANEL_H = LUCK_TOP + 34  # a panel with one line of luck
LUCK_ROW = 20  # each further line of luck
BAR: pal.RGB = pal.ALLIES.fill
FAIR: pal.RGB = pal.FIRE_LINE
RULE: pal.RGB = (200, 196, 184)
LUCKY: pal.RGB = (0, 120, 60)
UNLUCKY: pal.RGB = (190, 20, 30)
LEGEND = "a fair die's count"


def dice_chart(report: DiceReport, name_of: Callable[[str], str]) -> bytes:
    """The report's players, one panel each, as a PNG."""
    luck = [_luck_lines(player) for player in report.players]
    height = 2 * MARGIN + (sum(PANEL_H + (len(lines) - 1) * LUCK_ROW for lines in luck) if luck else PANEL_H)
    image = Image.new("RGB", (WIDTH, height), pal.MARGIN_BG)
    canvas = Canvas(image)
    if not report.players:
        canvas.text((MARGIN, MARGIN), "No dice have been rolled yet", size=TITLE_FONT)
    top = MARGIN
    for player, lines in zip(report.players, luck, strict=True):
        _draw_player(canvas, player, name_of(player.player), top, lines)
        top += PANEL_H + (len(lines) - 1) * LUCK_ROW
    return encode_png(image)


def chart_description(report: DiceReport, name_of: Callable[[str], str]) -> str:
    """What the chart shows, in words: each player's dice, the count of each face of a d6 and a
    d10 with a fair die's count, and their luck."""
    if not report.players:
        return "A chart of the dice rolled: no dice have been rolled yet."
    players = []
    for player in report.players:
        words = [f"{name_of(player.player)}: {dice_words(player.dice)}"]
        for faces in filter(None, map(player.faces, CHARTED)):
            counts = ", ".join(map(str, faces.counts))
            words.append(
                f"d{faces.sides}: faces 1 to {faces.sides} came up {counts} times"
                f" (a fair die's count {faces.expected_count:.1f} each)"
            )
        words += [luck_text(luck) for luck in player.luck]
        players.append("; ".join(words) + ".")
    return within("A chart of the dice rolled, for each player. " + " ".join(players))


def _luck_lines(player: PlayerDice) -> list[list[Luck]]:
    """The player's luck, as many to a line as fit across the picture."""
    lines: list[list[Luck]] = [[]]
    x = MARGIN
    for luck in player.luck:
        width = round(text_width(luck_text(luck), FONT))
        if lines[-1] and x + width > WIDTH - MARGIN:
            lines.append([])
            x = MARGIN
        lines[-1].append(luck)
        x += width + 2 * MARGIN
    return lines


def _draw_player(canvas: Canvas, player: PlayerDice, name: str, top: int, luck: list[list[Luck]]) -> None:
    if top > MARGIN:
        canvas.draw.line((MARGIN, top - 4, WIDTH - MARGIN, top - 4), fill=RULE, width=1)
    title = fit_text(f"{name}: {dice_words(player.dice)}", TITLE_FONT, WIDTH - 2 * MARGIN)
    canvas.text((MARGIN, top + 6), title, size=TITLE_FONT)
    legend_x = WIDTH - MARGIN - round(text_width(LEGEND, SMALL))
    _dashes(canvas, legend_x - 34, legend_x - 6, top + 15)
    canvas.text((legend_x, top + 9), LEGEND, size=SMALL, fill=pal.MUTED_INK)
    left = MARGIN
    drawn = False
    for sides in CHARTED:
        faces = player.faces(sides)
        if faces is not None:
            _draw_faces(canvas, faces, left, top)
            left += sides * (BAR_W[sides] + GAP) + 3 * MARGIN
            drawn = True
    if not drawn:
        canvas.text(
            (MARGIN, top + PLOT_TOP),
            "no d6 or d10 rolled: the other dice are in the table",
            size=FONT,
            fill=pal.MUTED_INK,
        )
    for row, line in enumerate(luck):  # green above the expected successes, red below
        x = MARGIN
        for entry in line:
            expected = round(entry.expected, 1)  # as the text shows it
            colour = LUCKY if entry.scored > expected else UNLUCKY if entry.scored < expected else pal.INK
            canvas.text((x, top + LUCK_TOP + row * LUCK_ROW), luck_text(entry), size=FONT, fill=colour)
            x += round(text_width(luck_text(entry), FONT)) + 2 * MARGIN


def _draw_faces(canvas: Canvas, faces: FaceTally, left: int, top: int) -> None:
    """A caption, a bar per face with its count, and the fair count as a red line across
    (``top``: the top of the player's panel)."""
    caption = (
        f"d{faces.sides}: {dice_words(faces.dice)}, mean {faces.mean:.2f} (fair {faces.expected_mean:.2f}), "
    )
    caption += f"p {faces.p_value:.2f}"
    width = faces.sides * (BAR_W[faces.sides] + GAP) - GAP
    canvas.text(
        (left, top + CAPTION_TOP),
        fit_text(caption, SMALL, width + 2 * MARGIN),
        size=SMALL,
        fill=pal.MUTED_INK,
    )
    base = top + PLOT_TOP + PLOT_H
    tallest = max(max(faces.counts), faces.expected_count)
    bar_w = BAR_W[faces.sides]
    for face, count in enumerate(faces.counts, start=1):
        x = left + (face - 1) * (bar_w + GAP)
        height = round(PLOT_H * count / tallest)
        if height:
            canvas.draw.rectangle((x, base - height, x + bar_w - 1, base - 1), fill=BAR)
        canvas.text((x + bar_w / 2, base - height - 4), str(count), size=SMALL, anchor="md", halo=True)
        canvas.text((x + bar_w / 2, base + 3), str(face), size=SMALL, anchor="ma")
    canvas.draw.line((left - 2, base, left + width + 2, base), fill=pal.INK, width=1)
    _dashes(canvas, left - 4, left + width + 4, base - round(PLOT_H * faces.expected_count / tallest))


def _dashes(canvas: Canvas, x0: int, x1: int, y: int) -> None:
    """The fair count's line: red dashes, so the bars show through."""
    for x in range(x0, x1, 8):
        canvas.draw.line((x, y, min(x + 4, x1), y), fill=FAIR, width=2)
