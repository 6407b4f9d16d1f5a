"""Exact odds: the dice enumerator, Iron Cross shots (checked by hand and against play) and plain tests."""

import itertools
from fractions import Fraction

import pytest

import engine.firing.odds as odds_module
from engine.commands import Fire
from engine.dice import d6, d10
from engine.errors import IllegalCommand
from engine.firing.aiming import measure_shot
from engine.firing.odds import (
    Reroll,
    ShotOutcome,
    ShotSetup,
    SuccessTest,
    chance_of,
    describe_shot_odds,
    describe_test_odds,
    enumerate_dice,
    find_any_profile,
    hit_chance,
    may_have_effect,
    read_options,
    rolls_of,
    setup_shot,
    shot_odds,
    successes,
    table_shot,
)
from engine.rich_text import Block
from engine.scenarios.new_game import make_unit
from engine.state import CoverKind
from tests.engine.helpers import act, game, started

F = Fraction


def test_enumerate_dice_follows_dice_that_depend_on_earlier_dice():
    def exploding_d6(dice):
        first = dice.roll(6, "first")
        return first + dice.roll(6, "again") if first == 6 else first

    odds = enumerate_dice(exploding_d6)
    assert odds == {**{n: F(1, 6) for n in range(1, 6)}, **{6 + n: F(1, 36) for n in range(1, 7)}}


def test_enumerate_dice_with_no_dice_is_certain():
    assert enumerate_dice(lambda dice: "sure") == {"sure": 1}


def test_panther_at_a_sherman_front_at_18_inches_by_hand_p10_p12():
    """5+ to hit (6 in 10). The d10 + 10 against armour 13: 1-2 bounce, 3 equals, 4-10
    penetrate; then the damage d6: 1 Rattled (2 markers in all), 2 smoke and shrapnel (3),
    3 Screech!, 4-5 Foom!, 6 Kaboom!."""
    odds = shot_odds(setup_shot(ShotSetup(firer="Panther", target="Sherman 75mm (us)", range=18)))
    pen = F(6, 10) * F(7, 10)
    assert odds.outcomes == {
        ShotOutcome.NO_EFFECT: F(4, 10),
        ShotOutcome.ONE_MARKER: F(6, 10) * F(2, 10),
        ShotOutcome.TWO_MARKERS: F(6, 10) * F(1, 10) + pen / 6,
        ShotOutcome.THREE_MARKERS: pen / 6,
        ShotOutcome.DAMAGED: pen / 6,
        ShotOutcome.DESTROYED: pen * 2 / 6,
        ShotOutcome.KABOOM: pen / 6,
    }
    assert odds.hit == F(6, 10)
    assert sum(odds.outcomes.values()) == 1


def test_infantry_in_cover_at_close_range_two_dice_and_casualty_rolls_p10():
    """Two d10 at 4+ (5+ with +1 close); any hits give one marker, and one more if any hit
    converts on a 5+ in cover (at most one extra)."""
    odds = shot_odds(
        setup_shot(
            ShotSetup(
                firer="Infantry Detachment (german)",
                target="Infantry Detachment (us)",
                range=8,
                cover=CoverKind.COVER,
            )
        )
    )
    hit = F(7, 10)
    one_hit, two_hits = 2 * hit * (1 - hit), hit * hit
    converts_one, converts_two = F(2, 6), 1 - F(4, 6) ** 2
    assert odds.outcomes == {
        ShotOutcome.NO_EFFECT: (1 - hit) ** 2,
        ShotOutcome.ONE_MARKER: one_hit * (1 - converts_one) + two_hits * (1 - converts_two),
        ShotOutcome.TWO_MARKERS: one_hit * converts_one + two_hits * converts_two,
    }
    assert odds.expected_hits == F(14, 10)


def test_hit_chance_is_at_least_one_d10_reaching_the_score_p10():
    """Two d10 hitting on 4+ miss together 3/10 x 3/10 of the time; one d10 on 5+ hits 6 in 10;
    the direct figure agrees with enumerating every die of the shot."""
    infantry = setup_shot(
        ShotSetup(firer="Infantry Detachment (german)", target="Infantry Detachment (us)", range=8)
    )
    assert hit_chance(infantry) == 1 - F(3, 10) ** 2 == shot_odds(infantry).hit
    panther = setup_shot(ShotSetup(firer="Panther", target="Sherman 75mm (us)", range=18))
    assert hit_chance(panther) == F(6, 10) == shot_odds(panther).hit


def test_a_target_at_its_limit_is_destroyed_by_one_more_marker_p13():
    odds = shot_odds(
        setup_shot(
            ShotSetup(firer="MG Team (german)", target="Infantry Detachment (us)", range=20, target_markers=5)
        )
    )
    assert odds.outcomes == {ShotOutcome.NO_EFFECT: F(4, 10) ** 2, ShotOutcome.DESTROYED: 1 - F(4, 10) ** 2}


def test_odds_agree_with_playing_every_die_through_the_game():
    """Play the same shot once for every face of every die and weigh each game's result."""
    state = started(
        game(
            make_unit("us", "Infantry Detachment", "allies", (50, 20), facing=90, unit_id="gi"),
            make_unit("german", "Infantry Detachment", "axis", (50, 38), facing=270, unit_id="gren"),
        ),
        "allies",
    )
    shot = measure_shot(
        state,
        state.units["gi"],
        state.units["gren"],
        Fire(target="gren"),
        order_moves=False,
        target_declared_move=False,
    )
    played: dict[ShotOutcome, Fraction] = {}
    for faces in itertools.product(range(1, 11), range(1, 7)):
        to_hit, casualty = faces
        dice = [d10(to_hit)] + ([d6(casualty)] if to_hit >= 5 else [])
        chance = F(1, 60)  # a miss rolls no casualty die: its six copies weigh one tenth in all
        after, _ = act(state, "allies", "gi", Fire(target="gren"), faces=dice)
        added = after.units["gren"].morale_markers
        outcome = [ShotOutcome.NO_EFFECT, ShotOutcome.ONE_MARKER, ShotOutcome.TWO_MARKERS][added]
        played[outcome] = played.get(outcome, 0) + chance
    assert shot_odds(shot).outcomes == played


@pytest.mark.parametrize(
    ("setup", "reason"),
    [
        (dict(firer="Infantry Detachment (us)", target="Panther", range=10), "anti-tank weapon"),
        (dict(firer="MG Team (us)", target="Infantry Detachment (german)", range=10, firer_moved=True), None),
        (dict(firer="Mortar Team (german)", target="Infantry Detachment (us)", range=8), '12"'),
    ],
)
def test_shots_the_rules_forbid_are_refused_with_the_reason(setup, reason):
    if reason is None:
        assert setup_shot(ShotSetup(**setup)).firer_stationary is False
        return
    with pytest.raises(IllegalCommand, match=reason):
        setup_shot(ShotSetup(**setup))


def test_a_unit_name_in_several_orders_of_battle_needs_its_nation():
    with pytest.raises(IllegalCommand, match="several orders of battle: say which, Infantry Detachment"):
        find_any_profile("Infantry Detachment")
    assert find_any_profile("Infantry Detachment (soviet)").nation == "soviet"
    with pytest.raises(IllegalCommand, match="No unit called 'Tiger IV'"):
        find_any_profile("Tiger IV")


def test_bad_numbers_are_refused_with_what_was_expected():
    with pytest.raises(IllegalCommand, match="range: input should be greater than or equal to 0"):
        read_options(ShotSetup, {"firer": "Panther", "target": "Panther", "range": "-1"})
    with pytest.raises(IllegalCommand, match="dice: input should be less than or equal to 50"):
        read_options(SuccessTest, {"needs": "4", "dice": "500"})
    with pytest.raises(IllegalCommand, match="cover: input should be 'open', 'cover' or 'fortification'"):
        read_options(ShotSetup, {"firer": "Panther", "target": "Panther", "range": "5", "cover": "hedge"})


def test_odds_on_the_table_measure_the_shot_as_play_does():
    state = started(
        game(
            make_unit("us", "Sherman 75mm", "allies", (50, 10), facing=90, unit_id="sherman"),
            make_unit("german", "Panther", "axis", (50, 24), facing=270, unit_id="panther"),
            make_unit("german", "Sniper Team", "axis", (20, 30), facing=270, unit_id="sniper", hidden=True),
        ),
        "allies",
    )
    standing = table_shot(state, "sherman", "panther")
    moving = table_shot(state, "sherman", "panther", moving=True)
    assert (standing.aspect, standing.firer_moved, moving.firer_moved) == ("front", False, True)
    (said,), _, (table,) = describe_shot_odds(shot_odds(moving))
    assert said.startswith("Sherman 75mm at Panther (front, ")
    assert "each hits on 6+ (-2 moved, +1 close range)" in said and isinstance(table, Block)
    with pytest.raises(IllegalCommand, match="Sherman 75mm has no shot at Sniper Team"):
        table_shot(state, "sherman", "sniper")
    with pytest.raises(IllegalCommand, match="own side"):
        table_shot(state, "panther", "sniper")


def test_a_vehicles_odds_say_hull_down_and_that_cover_does_not_count_against_it_p10_p12():
    hull_down = ShotSetup(
        firer="Panther", target="Sherman 75mm (us)", range=18, hull_down=True, cover="cover"
    )
    (said,), (ignored,), *_ = describe_shot_odds(shot_odds(setup_shot(hull_down)))
    assert said.startswith('Panther at Sherman 75mm (front, hull down, 18"): 1d10, each hits on ')
    assert ignored == (
        "Cover does not count against a vehicle (pp. 10-12): its armour takes the hit; "
        "a vehicle behind terrain is hull down (hull_down) instead"
    )
    in_the_open = ShotSetup(firer="Panther", target="Sherman 75mm (us)", range=18)
    (said,), (hits,), _ = describe_shot_odds(shot_odds(setup_shot(in_the_open)))  # no word on cover
    assert said.startswith('Panther at Sherman 75mm (front, 18"): ') and hits.startswith("At least one hit")


def test_a_test_with_several_dice_lists_each_number_of_successes():
    (chance,), (table,) = describe_test_odds(SuccessTest(needs=5, sides=10, dice=2, at_least=2))
    assert chance == "5+ on 2d10, 2 or more successes: 36.0%"
    assert isinstance(table, Block) and "0 successes    16.0% ███" in table.text  # in columns
    assert describe_test_odds(SuccessTest(needs=4, reroll=Reroll.FAILED)) == (
        ("4+ on a d6, failed dice rolled again once: 75.0%",),
    )


def brute_force(test: SuccessTest) -> dict[int, Fraction]:
    """Every face of every die, re-rolls included, counted the long way."""
    counts: dict[int, Fraction] = {}
    first = list(itertools.product(range(1, test.sides + 1), repeat=test.dice))
    for faces in first:
        failed = [i for i, f in enumerate(faces) if f < test.needs]
        rerolled = {Reroll.NONE: [], Reroll.FAILED: failed, Reroll.ONE: failed[:1]}[test.reroll]
        for again in itertools.product(range(1, test.sides + 1), repeat=len(rerolled)):
            final = list(faces)
            for i, face in zip(rerolled, again, strict=True):
                final[i] = face
            n = sum(1 for f in final if f >= test.needs)
            chance = F(1, test.sides ** (test.dice + len(rerolled)))
            counts[n] = counts.get(n, 0) + chance
    return counts


@pytest.mark.parametrize(
    "test",
    [
        SuccessTest(needs=4),
        SuccessTest(needs=4, reroll=Reroll.FAILED),
        SuccessTest(needs=5, sides=10, dice=2),
        SuccessTest(needs=5, sides=10, dice=3, reroll=Reroll.FAILED),
        SuccessTest(needs=6, dice=3, reroll=Reroll.ONE),
        SuccessTest(needs=1, dice=2),
        SuccessTest(needs=7, dice=2),
    ],
    ids=str,
)
def test_test_odds_match_brute_force(test):
    assert successes(test) == {n: p for n, p in brute_force(test).items() if p}


def test_needs_4_with_a_reroll_is_three_in_four():
    assert chance_of(SuccessTest(needs=4, reroll=Reroll.FAILED)) == F(3, 4)
    assert chance_of(SuccessTest(needs=5, sides=10, dice=2, at_least=2)) == F(36, 100)


def test_the_rolls_one_at_a_time_add_up_to_the_enumerated_odds():
    def exploding_d6(dice):
        first = dice.roll(6, "first")
        return first + dice.roll(6, "again") if first == 6 else first

    rolls = list(rolls_of(exploding_d6))
    assert len(rolls) == 5 + 6 and sum(chance for _, chance in rolls) == 1
    totals: dict[int, Fraction] = {}
    for outcome, chance in rolls:
        totals[outcome] = totals.get(outcome, F(0)) + chance
    assert totals == enumerate_dice(exploding_d6)


@pytest.mark.parametrize(
    ("firer", "target", "effect"),
    [
        ("Panther", "Sherman 75mm (us)", True),  # 6 in 10 hit, and every hit tells (pp. 10-12)
        ("Infantry Detachment (german)", "Infantry Detachment (us)", True),
        ("MG team (german)", "Sherman 75mm (us)", False),  # an MG cannot hurt its armour
    ],
)
def test_a_shot_may_have_an_effect_exactly_when_its_odds_give_one(firer, target, effect, monkeypatch):
    """The check stops at the first roll that has an effect, where the odds try every roll."""
    shot = setup_shot(ShotSetup(firer=firer, target=target, range=12))
    odds = shot_odds(shot)
    assert (odds.outcomes.get(ShotOutcome.NO_EFFECT, F(0)) < 1) is effect
    tried = []
    real = odds_module.resolve_shot
    monkeypatch.setattr(odds_module, "resolve_shot", lambda shot, dice: tried.append(1) or real(shot, dice))
    assert may_have_effect(shot) is effect
    every = len(list(rolls_of(lambda dice: real(shot, dice))))
    assert len(tried) < every if effect else len(tried) == every
