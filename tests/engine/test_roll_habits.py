"""/roll reads the forms players bring from Avrae, Roll20 and Foundry VTT, or refuses them naming
the form that works; a word that looks like a dice operator never becomes a label."""

import pytest

from engine.dice import ScriptedDice, SeededDice
from engine.errors import IllegalCommand
from engine.rich_text import Strong, Struck, Typed
from engine.rolls.expressions import roll


def d(sides, *values):
    return [(sides, v) for v in values]


def one(command, faces):
    dice = ScriptedDice(faces)
    (result,) = roll(command, dice)
    assert dice.remaining == 0, "every scripted die must be used"
    return result


def test_avrae_adv_rolls_the_first_d20_twice_and_keeps_the_higher():
    result = one("1d20+5 adv", d(20, 7, 15))
    assert (result.expression, result.label, result.total) == ("1d20+5 adv", "", 20)
    assert result.line == ("2d20kh1 (", Struck("7"), ", 15) + 5 = ", Typed("20"))


def test_avrae_dis_keeps_the_lower_and_the_word_may_stand_anywhere_in_the_label():
    result = one("1d20+5 to hit dis", d(20, 7, 15))
    assert (result.label, result.total) == ("to hit", 12)


def test_adv_needs_a_roll_that_starts_with_1d20():
    with pytest.raises(IllegalCommand, match=r"does not start with 1d20 \(1d20\+5 adv\)"):
        roll("2d6 adv", SeededDice(1))
    with pytest.raises(IllegalCommand, match="a DR takes its DRMs"):
        roll("DR adv", SeededDice(1))


@pytest.mark.parametrize(
    ("command", "shown", "successes"),
    [
        ("8d6>4", "8d6 4+", 5),  # Roll20: > is "4 or more"
        ("8d6 > 4", "8d6 4+", 5),
        ("8d6>=4", "8d6 4+", 5),
        ("8d6<3", "8d6 3 or less", 3),
        ("8d6cs>4", "8d6 5+", 2),  # Foundry: cs> is "more than 4"
        ("8d6cs>=4", "8d6 4+", 5),
        ("8d6cs<3", "8d6 2 or less", 2),
    ],
)
def test_roll20_and_foundry_success_counts_count_each_die(command, shown, successes):
    result = one(f"{command} Panther", d(6, 4, 3, 6, 1, 5, 2, 4, 4))
    assert (result.expression, result.label, result.total) == (shown, "Panther", successes)
    assert result.line[-1] == Strong(f"{successes} success{'es' * (successes != 1)}")


def test_a_success_count_ignores_dropped_dice_and_a_total_compared_stays_a_comparison():
    assert one("3d6dl1>5", d(6, 6, 1, 5)).total == 2
    assert one("1d20+5>15", d(20, 12)).total == 1  # d20's (and Avrae's): the total against 15


@pytest.mark.parametrize(
    ("command", "faces", "total", "shown"),
    [
        ("4d6dl1", d(6, 2, 5, 1, 6), 13, "4d6pl1"),
        ("4d6dh1", d(6, 2, 5, 1, 6), 8, "4d6ph1"),
        ("3d6d", d(6, 2, 5, 1), 7, "3d6pl1"),  # Foundry: d alone drops the lowest
        ("4d10d2", d(10, 2, 5, 1, 6), 11, "4d10pl2"),
        ("2d20kh+1", d(20, 3, 17), 18, "2d20kh1"),
        ("2d20kl", d(20, 3, 17), 3, "2d20kl1"),
        ("2d6!", d(6, 6, 2, 3), 11, "2d6e6"),  # Roll20: the 6 is rolled again
        ("1d6x", d(6, 6, 4), 10, "1d6e6"),  # Foundry
        ("4d10min3", d(10, 1, 5, 2, 9), 20, "4d10mi3"),
        ("2d10max8", d(10, 10, 5), 13, "2d10ma8"),
    ],
)
def test_roll20_and_foundry_modifiers_are_read_in_d20_words(command, faces, total, shown):
    result = one(command, faces)
    assert result.total == total
    assert result.line[0].startswith(shown)


@pytest.mark.parametrize(
    ("command", "message"),
    [
        ("1d6r1", "write ro1 to reroll a 1 once, rr1 to reroll until no 1 is left"),
        ("1d6x6", "write 1d6e6 to roll each 6 again, 1d6\\*6"),
        ("3d6!!", "1d6e6 rolls each 6 again"),
        ("3d6!>4", "e>4 each die over 4"),
        ("4dF", "Fate dice"),
        ("3d6s", "sorting"),
        ("8d6cf<2", "only successes are counted"),
        ("3d6>3f<1", "'f<1' is not read here"),
        ("8d6cs>4+2", "nothing but a label can follow 'cs>4'"),
        ("8d6>4+2", "successes are counted against one number"),
        ("8d6>4 5+", "say the target for the successes once"),
        ("1d20 adv dis", "one adv or one dis"),
    ],
)
def test_forms_read_differently_or_not_rolled_here_are_refused_naming_what_works(command, message):
    with pytest.raises(IllegalCommand, match=message):
        roll(command, SeededDice(1))


@pytest.mark.parametrize(
    ("command", "message"),
    [
        ("4d6 kh3", "'kh3' would be taken as a label, not as dice: a dice modifier goes glued"),
        ("4d6 dl1 stats", "'dl1' would be taken as a label"),
        ("2d6 x2", "to multiply, write \\*"),
        ("2d6 1d6", "separated by ;"),
        ("2d10 5+ kh1", "'kh1' would be taken as a label"),
        ("DR +1 e6", "'e6' would be taken as a label"),
    ],
)
def test_a_word_that_looks_like_an_operator_never_becomes_a_label(command, message):
    with pytest.raises(IllegalCommand, match=message):
        roll(command, SeededDice(1))
