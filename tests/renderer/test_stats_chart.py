"""The /stats picture, read pixel by pixel: bars as tall as the counts, the fair count's red line,
and the luck line in green or red."""

from engine.dice import DieRoll
from engine.dice_stats import PlayerDie, dice_report
from renderer.stats_chart import (
    BAR,
    BAR_W,
    FAIR,
    GAP,
    LUCK_ROW,
    LUCK_TOP,
    LUCKY,
    MARGIN,
    PANEL_H,
    PLOT_H,
    PLOT_TOP,
    UNLUCKY,
    WIDTH,
    chart_description,
    dice_chart,
)
from tests.renderer.pixels import colours, png


def die(sides, value, purpose="reaction test, GIs", needs=None):
    return DieRoll(sides=sides, value=value, purpose=purpose, needs=needs)


def picture(dice):
    return png(dice_chart(dice_report(dice), str.upper)).convert("RGB")


def column(image, x, top, bottom, *wanted):
    """How many pixels of these colours the column at ``x`` has between two heights."""
    return sum(1 for y in range(top, bottom) if image.getpixel((x, y)) in wanted)


def bar_height(image, x, top, bottom):
    """The bar's pixels, with the fair count's dashes drawn over it."""
    return column(image, x, top, bottom, BAR, FAIR)


def bar_centre(face, sides=6, left=MARGIN):
    return left + (face - 1) * (BAR_W[sides] + GAP) + BAR_W[sides] // 2


def test_bars_are_as_tall_as_the_counts_with_the_fair_count_across():
    # one 1 and five 6s: the 6 is the tallest bar, the 1 a fifth of it, the fair count (1) level with the 1
    image = picture([PlayerDie("ann", die(6, 1))] + [PlayerDie("ann", die(6, 6))] * 5)
    assert image.size == (WIDTH, 2 * MARGIN + PANEL_H)
    top, base = MARGIN + PLOT_TOP, MARGIN + PLOT_TOP + PLOT_H
    assert bar_height(image, bar_centre(6), top - 10, base) == PLOT_H
    assert bar_height(image, bar_centre(1), top - 10, base) == PLOT_H // 5
    for face in (2, 3, 4, 5):  # no bar
        assert column(image, bar_centre(face), top - 10, base, BAR) == 0
    fair_row = base - PLOT_H // 5
    red = [x for x in range(MARGIN, bar_centre(6)) if image.getpixel((x, fair_row)) == FAIR]
    assert len(red) > 6 * BAR_W[6] // 3  # dashed across the six bars


def test_a_d10_chart_sits_beside_the_d6_one():
    image = picture([PlayerDie("ann", die(6, 3)), PlayerDie("ann", die(10, 10, "to hit, GIs at X", needs=5))])
    d10_left = MARGIN + 6 * (BAR_W[6] + GAP) + 3 * MARGIN
    base = MARGIN + PLOT_TOP + PLOT_H
    assert bar_height(image, bar_centre(10, 10, d10_left), base - PLOT_H, base) == PLOT_H
    assert column(image, bar_centre(9, 10, d10_left), base - PLOT_H, base, BAR) == 0


def test_the_luck_line_is_green_above_the_hits_expected_and_red_below():
    lucky = picture([PlayerDie("ann", die(10, 9, "to hit, GIs at X", needs=8))])  # 1 hit, 0.3 expected
    unlucky = picture([PlayerDie("otto", die(10, 2, "to hit, X at GIs", needs=3))])  # 0 hits, 0.8 expected
    assert LUCKY in colours(lucky) and UNLUCKY not in colours(lucky)
    assert UNLUCKY in colours(unlucky) and LUCKY not in colours(unlucky)


def test_one_panel_per_player():
    image = picture([PlayerDie("ann", die(6, 1)), PlayerDie("otto", die(6, 2)), PlayerDie("eve", die(20, 5))])
    assert image.height == 2 * MARGIN + 3 * PANEL_H
    second_panel_base = MARGIN + PANEL_H + PLOT_TOP + PLOT_H
    assert bar_height(image, bar_centre(2), second_panel_base - PLOT_H, second_panel_base) == PLOT_H
    assert column(image, bar_centre(1), second_panel_base - PLOT_H, second_panel_base, BAR) == 0
    third_panel = image.crop((0, MARGIN + 2 * PANEL_H, WIDTH, MARGIN + 3 * PANEL_H))
    assert BAR not in colours(third_panel)  # a d20 alone: no bars, a note instead


def test_luck_that_does_not_fit_on_one_line_goes_on_the_next():
    tests = [
        PlayerDie("ann", die(10, 9, "to hit, GIs at X", needs=8)),  # lucky
        PlayerDie("ann", die(6, 1, "reaction test, GIs", needs=3)),  # unlucky
        PlayerDie("ann", die(6, 6, "reactivation test, GIs", needs=2)),  # lucky
        PlayerDie("ann", die(6, 1, "fall back rally, GIs", needs=4)),  # unlucky
    ]
    image = picture(tests)
    assert image.height == 2 * MARGIN + PANEL_H + LUCK_ROW  # four texts, two lines
    second_line = image.crop((0, MARGIN + LUCK_TOP + LUCK_ROW, WIDTH, MARGIN + LUCK_TOP + 2 * LUCK_ROW))
    assert {LUCKY, UNLUCKY} <= colours(second_line)  # the reactivation and the rally
    first_line = image.crop((WIDTH - MARGIN, MARGIN + LUCK_TOP, WIDTH, MARGIN + LUCK_TOP + LUCK_ROW))
    assert not {LUCKY, UNLUCKY} & set(colours(first_line))  # nothing runs off the right


def test_the_chart_is_described_in_words_for_its_alt_text():
    dice = [PlayerDie("ann", die(6, 1)), PlayerDie("ann", die(10, 9, "to hit, GIs at X", needs=8))]
    assert chart_description(dice_report(dice), str.upper) == (
        "A chart of the dice rolled, for each player. ANN: 2 dice; d6: faces 1 to 6 came up 1, 0, 0, 0, 0, 0 "
        "times (a fair die's count 0.2 each); d10: faces 1 to 10 came up 0, 0, 0, 0, 0, 0, 0, 0, 1, 0 times "
        "(a fair die's count 0.1 each); hits 1 vs 0.3 expected (1 die)."
    )
