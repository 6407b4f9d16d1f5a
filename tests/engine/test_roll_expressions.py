"""/roll expressions: d20's grammar, success counting, ASL DR/dr, several rolls, every refusal."""

import pytest

from engine.dice import ScriptedDice, SeededDice
from engine.errors import IllegalCommand
from engine.rich_text import Strong, Struck, Typed
from engine.rolls.expressions import MAX_DICE, MAX_LENGTH, MAX_ROLLS, MAX_SIDES, roll


def d(sides, *values):
    return [(sides, v) for v in values]


def one(command, faces):
    dice = ScriptedDice(faces)
    (result,) = roll(command, dice)
    assert dice.remaining == 0, "every scripted die must be used"
    return result


def test_a_plain_expression_sums_its_dice_and_modifier_and_keeps_the_label():
    result = one("3d6+2 morale check", d(6, 4, 1, 6))
    assert (result.expression, result.label, result.total) == ("3d6+2", "morale check", 13)
    assert [die.value for die in result.dice] == [4, 1, 6]
    assert result.line == ("3d6 (4, ", Strong("1"), ", ", Strong("6"), ") + 2 = ", Typed("13"))


def test_keep_highest_and_drop_lowest_come_from_d20():
    kept = one("4d6kh3", d(6, 2, 5, 1, 6))
    assert kept.total == 13 and kept.line == (
        "4d6kh3 (2, 5, ",
        Struck("1"),
        ", ",
        Strong("6"),
        ") = ",
        Typed("13"),
    )
    assert one("4d6pl1", d(6, 2, 5, 1, 6)).total == 13
    rerolled = one("1d6ro1", d(6, 1, 4))  # the 1 rolled again: struck out, no longer a result to mark
    assert rerolled.line == ("1d6ro1 (", Struck("1"), ", 4) = ", Typed("4"))
    assert one("2d20kl1", d(20, 17, 3)).total == 3


@pytest.mark.parametrize(
    ("faces", "successes"), [((4, 4), 0), ((5, 4), 1), ((4, 5), 1), ((5, 10), 2), ((1, 10), 1)]
)
def test_success_counting_counts_each_die_at_or_over_the_target(faces, successes):
    result = one("2d10 5+ Panther at Sherman", d(10, *faces))
    assert result.total == successes
    assert result.label == "Panther at Sherman" and result.expression == "2d10 5+"
    assert result.line[-1] == Strong(f"{successes} success{'es' * (successes != 1)}")


def test_success_counting_ignores_dropped_dice():
    assert one("3d10kh2 6+", d(10, 9, 2, 6)).total == 2


def test_asl_dr_shows_both_dice_and_original_and_final_dr():
    result = one("DR +2 -1 sniper check", [(6, 3), (6, 4)])
    assert result.total == 8 and result.label == "sniper check"
    assert result.line == ("coloured 3, white 4: Original DR 7, DRM +1, Final DR ", Strong("8"))
    assert [die.purpose for die in result.dice] == [
        "/roll DR sniper check (coloured)",
        "/roll DR sniper check (white)",
    ]


def test_asl_dr_without_drm_and_doubles():
    result = one("DR", [(6, 6), (6, 6)])
    assert result.total == 12 and result.line == ("coloured 6, white 6 (doubles): DR ", Strong("12"))


def test_asl_small_dr_is_one_die():
    result = one("dr -1 sewer emergence", [(6, 5)])
    assert result.total == 4 and result.line == ("5: Original dr 5, DRM -1, Final dr ", Strong("4"))


def test_several_rolls_in_one_command():
    dice = ScriptedDice(d(10, 7, 2) + [(6, 1), (6, 6)] + d(6, 3))
    results = roll("2d10 5+ Panther; DR; 1d6 reaction", dice)
    assert [r.total for r in results] == [1, 7, 3]
    assert [r.label for r in results] == ["Panther", "", "reaction"]


@pytest.mark.parametrize(
    ("command", "message"),
    [
        ("", "Say what to roll"),
        (" ; ", "Say what to roll"),
        ("banana", "I can't read 'banana' as dice"),
        ("2d", "I can't read '2d' as dice"),
        (f"1d{MAX_SIDES + 1}", f"at most {MAX_SIDES} sides"),
        (f"{MAX_DICE + 1}d6", f"at most {MAX_DICE} dice; {MAX_DICE + 1} is too many"),
        ("1d6e6", None),  # allowed, but with an always-exploding die it would hang
        ("1d1e1", f"at most {MAX_DICE} dice, rerolls and explosions included"),
        ("1d0", "'1d0' cannot be rolled: 1d0 asks for dice with no sides"),
        ("2q7", "'2q7' cannot be rolled: 'q7' is not a die"),
        ("2d6q7 fire", "'2d6q7 fire' cannot be rolled: 'q7' is not a die"),
        ("0d6", "'0d6' cannot be rolled: 0d6 rolls zero dice"),
        ("1d6+0d6", "'1d6+0d6' cannot be rolled: 0d6 rolls zero dice"),
        ("2 q7", "'2 q7' cannot be rolled: it has no dice in it"),
        ("7", "'7' cannot be rolled: it has no dice in it"),
        ("; ".join(["1d6"] * (MAX_ROLLS + 1)), f"At most {MAX_ROLLS} rolls"),
        ("1d6+" * 60 + "1", f"at most {MAX_LENGTH} characters"),
    ],
)
def test_refusals_say_what_is_wrong(command, message):
    if message is None:
        roll(command, SeededDice(1))
        return
    with pytest.raises(IllegalCommand, match=message.replace("(", r"\(").replace("+", r"\+")):
        roll(command, SeededDice(1))


def test_d20_never_uses_its_own_random_while_we_roll():
    """The dice come from our source: scripted faces are exactly what d20 adds up."""
    for value in range(1, 7):
        assert one("1d6", [(6, value)]).total == value
    assert one("1d%", [(10, 4)]).total == 30  # d20's percentile die shows 0, 10 .. 90
