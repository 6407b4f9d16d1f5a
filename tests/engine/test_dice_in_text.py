"""The dice expressions a message holds (engine/rolls/in_text.py), for its "Roll dice" menu:
each form /roll reads, found among words, and nothing that only looks like one."""

import pytest

from engine.rolls.expressions import MAX_ROLLS
from engine.rolls.in_text import dice_in


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("We roll 2d10 5+ for the MG, then 2d6+1.", ("2d10 5+", "2d6+1")),
        ("DR +2 -1 for the sniper, dr for the leader", ("DR +2 -1", "dr")),
        ("(4d6kh3) and d% and 1d6e6; 2d10>5", ("4d6kh3", "d%", "1d6e6", "2d10>5")),
        ("3d6 * 2 or 1d20+5 adv", ("3d6 * 2", "1d20+5")),
        (
            "<@301> rolls `2d10 5+; 2d6+1`\n2d10 5+: 7, 3 -> **1 success**\n2d6 (**6**, 2) + 1 = `9`",
            ("2d10 5+", "2d6+1"),
        ),
    ],
)
def test_every_dice_expression_among_the_words_is_found_in_order(text, found):
    assert dice_in(text).expressions == found and dice_in(text).left_out == 0


@pytest.mark.parametrize("text", ["Dr. Otto's M10 moves 12.5 inches", "x2d6 and 2d6x", "1d100000", "T-34s"])
def test_what_only_looks_like_dice_is_not_rolled(text):
    assert dice_in(text).expressions == ()


def test_more_expressions_than_one_roll_takes_are_counted_not_taken():
    found = dice_in(" ".join(["1d6"] * (MAX_ROLLS + 3)))
    assert found.expressions == ("1d6",) * MAX_ROLLS and found.left_out == 3
    assert found.command == "; ".join(["1d6"] * MAX_ROLLS)
