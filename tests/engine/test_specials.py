"""Orders of Battle special rules in play (Iron Cross 2015, pp. 18-20)."""

import pytest

from engine.commands import Declare, Fire, Move, React, UnitOrder
from engine.dice import d6, d10
from engine.errors import IllegalCommand
from engine.setup import make_unit
from engine.state import CoverKind, Going, TableSize
from tests.engine.helpers import P, act, box, game, play, started, text


def step(unit, x, y):
    return Move(path=(P(x, y),))


def command_game(table=None, **hq):
    state = started(
        game(
            make_unit("us", "Infantry Detachment", "allies", (10, 10), unit_id="hq", command=True, **hq),
            make_unit("us", "Infantry Detachment", "allies", (20, 10), unit_id="a"),
            make_unit("us", "Infantry Detachment", "allies", (40, 10), unit_id="b"),
            make_unit("us", "Infantry Detachment", "allies", (45, 10), unit_id="sub", subcommander=True),
            make_unit("german", "Infantry Detachment", "axis", (60, 45), unit_id="gren"),
            table=table,
        ),
        "allies",
    )
    for unit in ("a", "b"):
        state.units[unit].tokens = 1
    return state


def test_command_unit_rerolls_a_failed_reactivation_within_12_once_a_turn_p18():
    state = command_game()
    state, events = act(state, "allies", "a", step("a", 20, 14), faces=[d6(1), d6(4)])
    assert "the command unit orders a re-roll" in text(events)
    assert state.units["a"].position == P(20, 14)
    state.units["hq"].tokens = 1
    state, events = act(state, "allies", "hq", step("hq", 10, 14), faces=[d6(1)])
    assert "re-roll" not in text(events) and state.units["hq"].position == P(10, 10)


def test_command_reroll_reaches_only_6_on_a_small_table_p18():
    state = command_game(table=TableSize(width=72, depth=48))
    state, events = act(state, "allies", "a", step("a", 20, 14), faces=[d6(1)])
    assert "re-roll" not in text(events)


def test_sub_commander_extends_the_reroll_range_p20():
    state = command_game()
    state, events = act(state, "allies", "b", step("b", 40, 14), faces=[d6(1), d6(2)])
    assert "re-roll" in text(events) and state.units["b"].position == P(40, 14)


def test_reroll_is_lost_with_the_command_unit_p18():
    state = command_game()
    state.units["hq"].destroyed = True
    state, events = act(state, "allies", "b", step("b", 40, 14), faces=[d6(1)])
    assert "re-roll" not in text(events)


def test_heavy_tiger_reactivates_on_3_p19():
    state = started(
        game(
            make_unit("german", "Tiger I", "axis", (50, 50), facing=270),
            make_unit("us", "Infantry Detachment", "allies", (10, 10), unit_id="gis"),
        ),
        "axis",
    )
    state.units["tiger-i"].tokens = 1
    _, events = act(state, "axis", "tiger-i", step("tiger-i", 50, 46), faces=[d6(2)])
    assert "Tiger I reactivates: needs 3+ (1 token, heavy -1), rolled 2: failed" in text(events)


def test_scout_car_reacts_on_2_ignoring_morale_markers_p19():
    state = started(
        game(
            make_unit(
                "german",
                "Sd.Kfz 234/2 8-Rad Puma",
                "axis",
                (50, 50),
                facing=270,
                unit_id="puma",
                morale_markers=3,
            ),
            make_unit("us", "Sherman 75mm", "allies", (10, 10), facing=90, unit_id="sherman"),
        ),
        "allies",
    )
    state, _ = play(
        state, Declare(side="allies", order=UnitOrder(unit="sherman", actions=(step("", 10, 14),)))
    )
    _, events = play(
        state,
        React(
            side="axis",
            window=state.pending.window,
            order=UnitOrder(unit="puma", actions=(step("", 50, 46),)),
        ),
        d6(2),
    )
    assert "needs 2+ (scout 2+), rolled 2: success" in text(events)


def test_flamethrower_team_ignores_fortifications_and_marks_each_hit_p18():
    trench = box("trench", "trench", 40, 34, 60, 38, cover=CoverKind.FORTIFICATION)
    state = started(
        game(
            make_unit("german", "Flamethrower Team", "axis", (50, 30), facing=90, unit_id="flamer"),
            make_unit("us", "Infantry Detachment", "allies", (50, 36), unit_id="gis"),
            terrain=[trench],
        ),
        "axis",
    )
    state, events = act(state, "axis", "flamer", Fire(target="gis"), faces=[d10(4), d10(7), d6(4), d6(1)])
    assert "2 markers, casualty 4+ rolled 4, 1: +1" in text(events)
    assert state.units["gis"].morale_markers == 3


def test_flame_tank_only_rattles_enclosed_vehicles_and_burns_open_topped_ones_on_2_p18():
    state = started(
        game(
            make_unit("german", "Panzer III M (F1)", "axis", (50, 30), facing=270, unit_id="flammpanzer"),
            make_unit("us", "Sherman 75mm", "allies", (50, 24), facing=90, unit_id="sherman"),
            make_unit("us", "M10 Tank Destroyer", "allies", (44, 27), facing=0, unit_id="m10"),
        ),
        "axis",
    )
    state, events = act(state, "axis", "flammpanzer", Fire(target="sherman"), faces=[d10(6)])
    assert "the flame only rattles the enclosed crew: 1 marker" in text(events)
    state.units["flammpanzer"].tokens = 0
    state, events = act(state, "axis", "flammpanzer", Fire(target="m10"), faces=[d10(6), d6(2), d6(4)])
    assert "flame penetrates on 2+ (rolled 2). Damage d6 4: Foom!" in text(events)
    assert state.units["m10"].destroyed


def test_howitzer_adds_one_to_the_damage_roll_p19():
    state = started(
        game(
            make_unit("german", "StuH 42", "axis", (50, 40), facing=270, unit_id="stuh"),
            make_unit("us", "Sherman 75mm", "allies", (50, 10), facing=90, unit_id="sherman"),
        ),
        "axis",
    )
    _, events = act(state, "axis", "stuh", Fire(target="sherman"), faces=[d10(5), d10(6), d6(3)])
    assert "Damage d6 3 +1 howitzer: Foom!" in text(events)


def test_mg_team_gives_a_marker_per_hit_p19():
    state = started(
        game(
            make_unit("german", "MG Team", "axis", (50, 40), facing=270, unit_id="mg"),
            make_unit("us", "Infantry Detachment", "allies", (50, 20), unit_id="gis"),
        ),
        "axis",
    )
    state, events = act(state, "axis", "mg", Fire(target="gis"), faces=[d10(5), d10(8), d6(1), d6(2)])
    assert "2 hits; 2 markers" in text(events)
    assert state.units["gis"].morale_markers == 2


def mortar_game(*extra, terrain=(), at=(50, 10)):
    return started(
        game(
            make_unit("german", "Mortar Team", "axis", at, facing=90, unit_id="mortar"),
            make_unit("us", "Infantry Detachment", "allies", (50, 40), unit_id="gis"),
            *extra,
            terrain=terrain,
        ),
        "axis",
    )


def test_mortar_8_then_ranged_in_for_the_next_shot_at_the_same_spot_p20():
    state = mortar_game()
    state, events = act(state, "axis", "mortar", Fire(target="gis"), faces=[d10(8), d6(1)])
    assert "needs 8+; rolled 8: 1 hit" in text(events)
    state, events = act(state, "axis", "mortar", Fire(target="gis"), faces=[d6(6), d10(6)])
    assert "needs 7+ (+1 ranged in); rolled 6: miss" in text(events)


def test_mortar_may_not_fire_from_woods_p20():
    woods = box("woods", "woods", 40, 5, 60, 15, going=Going.ROUGH, cover=CoverKind.COVER)
    state = mortar_game(terrain=[woods])
    with pytest.raises(IllegalCommand, match="may not fire a mortar from trees or buildings"):
        play(state, Declare(side="axis", order=UnitOrder(unit="mortar", actions=(Fire(target="gis"),))))


def test_mortar_fires_at_what_a_friend_can_see_p20():
    hill = box("hill", "hill", 30, 20, 70, 24, blocks_sight=True)
    blind = mortar_game(terrain=[hill])
    with pytest.raises(IllegalCommand, match="Mortar Team cannot see"):
        play(blind, Declare(side="axis", order=UnitOrder(unit="mortar", actions=(Fire(target="gis"),))))
    spotter = make_unit("german", "Infantry Detachment", "axis", (80, 40), unit_id="spotter")
    state = mortar_game(spotter, terrain=[hill])
    _, events = act(state, "axis", "mortar", Fire(target="gis"), faces=[d10(9), d6(1)])
    assert "Mortar Team fires at Infantry Detachment" in text(events)


def sniper_game():
    return started(
        game(
            make_unit("german", "Sniper Team", "axis", (50, 50), unit_id="sniper", hidden=True),
            make_unit("us", "Infantry Detachment", "allies", (50, 30), unit_id="gis"),
            make_unit("us", "Infantry Detachment", "allies", (70, 30), unit_id="gis2"),
        ),
        "axis",
    )


def test_hidden_sniper_cannot_be_targeted_p20():
    state = sniper_game()
    state, _ = act(state, "axis", "sniper", Fire(target="gis"), faces=[d10(1), d6(1)])
    state.active_side = "allies"
    with pytest.raises(IllegalCommand, match="has not been spotted"):
        play(state, Declare(side="allies", order=UnitOrder(unit="gis", actions=(Fire(target="sniper"),))))


def test_sniper_plus_2_converts_on_5_and_stays_hidden_unless_a_6_p20():
    state, events = act(sniper_game(), "axis", "sniper", Fire(target="gis"), faces=[d10(3), d6(5), d6(5)])
    log = text(events)
    assert "needs 3+ (+2 sniper); rolled 3: 1 hit; 1 marker, casualty 5+ rolled 5: +1" in log
    assert "stays hidden (spotting roll 5)" in log and state.units["sniper"].hidden
    state, events = act(state, "axis", "sniper", Fire(target="gis"), faces=[d6(6), d10(1), d6(6)])
    assert "Sniper Team is spotted: the enemy rolled a 6" in text(events)
    assert not state.units["sniper"].hidden


def test_sniper_is_spotted_by_an_enemy_within_4_or_by_its_own_rapid_move_p20():
    state = sniper_game()
    state.active_side = "allies"
    state.units["gis"].position = P(50, 41)
    state, events = act(state, "allies", "gis", Move(path=(P(50, 45),)))
    assert 'Sniper Team is spotted: Infantry Detachment is within 4"' in text(events)
    state = sniper_game()
    state, events = act(state, "axis", "sniper", Move(path=(P(58, 50),), rapid=True))
    assert "Sniper Team is spotted: it made a rapid move" in text(events)


def test_sniper_dummy_marker_is_unmasked_by_an_enemy_within_4_p20():
    state = sniper_game()
    state.units["sniper"].decoy = P(20, 50)
    state.active_side = "allies"
    state.units["gis"].position = P(20, 42)
    state, events = act(state, "allies", "gis", Move(path=(P(20, 47),)))
    assert "The hidden marker at (20, 50) was a dummy" in text(events)
    assert state.units["sniper"].decoy is None and state.units["sniper"].hidden
