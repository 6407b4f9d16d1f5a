"""Orders of Battle special rules through the game flow: commands in, scripted dice, exact
outcome (Iron Cross 2015, pp. 18-20).

Every expectation here is read from the rulebook; the engine must match it.
"""

import pytest

from engine.commands import ChooseInitiative, Declare, Fire, Move, PassInitiative, React, UnitOrder
from engine.dice import d6, d10
from engine.errors import IllegalCommand
from engine.scenarios.new_game import make_unit
from engine.state import CoverKind, Going, TableSize
from tests.engine.helpers import P, act, box, declare, fire_text, game, play, started, texts


def gis(at, unit_id="gis", name="GIs", **kw):
    return make_unit("us", "Infantry Detachment", "allies", at, unit_id=unit_id, name=name, **kw)


# --- anti-tank guns (p. 18) ---------------------------------------------------------------------


def pak_game():
    return started(
        game(
            make_unit("german", "PaK40 Anti-tank Gun", "axis", (50, 40), facing=270, unit_id="pak"),
            gis((50, 32)),
        ),
        "axis",
    )


def test_anti_tank_gun_rolls_one_die_at_infantry_p18():
    state, events = act(pak_game(), "axis", "pak", Fire(target="gis"), faces=[d10(7), d6(4)])
    assert fire_text(events) == (
        'PaK40 Anti-tank Gun fires at GIs (6.0"): needs 4+ (+1 close range); rolled 7: 1 hit; '
        "1 marker, casualty 4+ rolled 4: +1 -> GIs has 2 markers"
    )


def test_anti_tank_gun_may_fire_only_when_stationary_p18():
    state = pak_game()
    with pytest.raises(IllegalCommand, match="^PaK40 Anti-tank Gun fires only when stationary$"):
        declare(state, "axis", "pak", Move(path=(P(51, 40),), facing=270), Fire(target="gis"))
    with pytest.raises(IllegalCommand, match="^PaK40 Anti-tank Gun fires only when stationary$"):
        declare(state, "axis", "pak", Fire(target="gis"), Move(path=(P(51, 40),), facing=270))


def test_anti_tank_gun_shield_counts_as_cover_against_infantry_p18():
    state = pak_game()
    state.active_side = "allies"
    _, events = act(state, "allies", "gis", Fire(target="pak"), faces=[d10(4), d10(1), d6(4)])
    assert fire_text(events) == (
        'GIs fires at PaK40 Anti-tank Gun (6.0"): needs 4+ (+1 close range); rolled 4, 1: 1 hit; '
        "1 marker, casualty 5+ rolled 4: +0 -> PaK40 Anti-tank Gun has 1 marker"
    )


# --- command unit and sub-commander (pp. 18, 20) -----------------------------------------------------


def command_game(*extra, table=None):
    state = started(
        game(
            gis((10, 10), unit_id="hq", name="HQ", command=True),
            gis((20, 10), unit_id="able", name="Able"),  # 8" from the HQ
            gis((10, 20), unit_id="charlie", name="Charlie"),  # 8" from the HQ
            gis((14, 10), unit_id="dog", name="Dog"),  # 2" from the HQ
            gis((40, 10), unit_id="baker", name="Baker"),  # 28" from the HQ
            make_unit("german", "Infantry Detachment", "axis", (60, 45), unit_id="gren"),
            *extra,
            table=table,
        ),
        "allies",
    )
    for unit in ("hq", "able", "charlie", "dog", "baker"):
        state.units[unit].tokens = 1
    return state


def step_up(state, unit, *faces):
    at = state.units[unit].position
    return act(state, "allies", unit, Move(path=(P(at.x, at.y + 4),)), faces=faces)


def test_command_unit_rerolls_a_failed_reactivation_within_12_p18():
    state, events = step_up(command_game(), "able", d6(1), d6(4))
    assert texts(events)[1:] == [
        "Able fails with 1; the command unit orders a re-roll",
        "Able reactivates: needs 2+ (1 token), rolled 4: success",
        'Able moves 4.0" to 20.0,14.0',
    ]
    assert state.units["able"].position == P(20, 14)


def test_command_reroll_is_once_per_turn_p18():
    state, _ = step_up(command_game(), "able", d6(1), d6(4))
    state, events = step_up(state, "charlie", d6(1))
    assert texts(events)[1:] == [
        "Charlie reactivates: needs 2+ (1 token), rolled 1: failed, the token is spent"
    ]
    assert state.units["charlie"].position == P(10, 20)


def test_command_reroll_does_not_reach_beyond_12_p18():
    state, events = step_up(command_game(), "baker", d6(1))
    assert texts(events)[1:] == [
        "Baker reactivates: needs 2+ (1 token), rolled 1: failed, the token is spent"
    ]
    assert state.units["baker"].position == P(40, 10)


def test_command_reroll_reaches_only_6_on_a_6_by_4_table_p18():
    small = TableSize(width=72, depth=48)
    state, events = step_up(command_game(table=small), "able", d6(1))
    assert texts(events)[1:] == ["Able reactivates: needs 2+ (1 token), rolled 1: failed, the token is spent"]
    state, events = step_up(command_game(table=small), "dog", d6(1), d6(2))
    assert "Dog fails with 1; the command unit orders a re-roll" in texts(events)
    assert state.units["dog"].position == P(14, 14)


def test_sub_commander_extends_the_command_reroll_range_p20():
    sub = gis((45, 10), unit_id="sub", name="Sub", subcommander=True)  # 3" from Baker
    state, events = step_up(command_game(sub), "baker", d6(1), d6(2))
    assert texts(events)[1:] == [
        "Baker fails with 1; the command unit orders a re-roll",
        "Baker reactivates: needs 2+ (1 token), rolled 2: success",
        'Baker moves 4.0" to 40.0,14.0',
    ]


def test_command_reroll_is_lost_with_the_command_unit_even_near_a_sub_commander_p18():
    sub = gis((45, 10), unit_id="sub", name="Sub", subcommander=True)
    state = command_game(sub)
    state.units["hq"].destroyed = True
    _, events = step_up(state, "able", d6(1))
    assert texts(events)[1:] == ["Able reactivates: needs 2+ (1 token), rolled 1: failed, the token is spent"]
    _, events = step_up(state, "baker", d6(1))
    assert texts(events)[1:] == [
        "Baker reactivates: needs 2+ (1 token), rolled 1: failed, the token is spent"
    ]


# --- flamethrowers (p. 18) --------------------------------------------------------------------


def flamer_game():
    trench = box("trench", "trench", 40, 34, 60, 38, cover=CoverKind.FORTIFICATION)
    return started(
        game(
            make_unit("german", "Flamethrower Team", "axis", (50, 30), facing=90, unit_id="flamer"),
            gis((50, 36)),
            gis((50, 41), unit_id="far", name="Far GIs"),
            terrain=[trench],
        ),
        "axis",
    )


def test_flamethrower_team_ignores_fortifications_and_marks_each_hit_p18():
    state, events = act(
        flamer_game(), "axis", "flamer", Fire(target="gis"), faces=[d10(4), d10(7), d6(4), d6(1)]
    )
    assert fire_text(events) == (
        'Flamethrower Team fires at GIs (4.0"): needs 4+ (+1 close range); rolled 4, 7: 2 hits; '
        "2 markers, casualty 4+ rolled 4, 1: +1 -> GIs has 3 markers"
    )
    assert state.units["gis"].morale_markers == 3


def test_flamethrower_reaches_8_and_fires_only_when_stationary_p18():
    state = flamer_game()
    with pytest.raises(IllegalCommand, match='^Far GIs is 9.0" away: flamethrowers reach 8"$'):
        declare(state, "axis", "flamer", Fire(target="far"))
    with pytest.raises(IllegalCommand, match="fires only when stationary"):
        declare(state, "axis", "flamer", Move(path=(P(51, 30),), facing=90), Fire(target="gis"))


def test_flamethrower_team_counts_as_heavy_p18():
    state = flamer_game()
    state.units["flamer"].tokens = 1
    _, events = act(state, "axis", "flamer", Move(path=(P(50, 28),)), faces=[d6(2)])
    assert texts(events)[1:] == [
        "Flamethrower Team reactivates: needs 3+ (1 token, heavy -1), rolled 2: failed, the token is spent"
    ]


def flame_tank_game():
    return started(
        game(
            make_unit(
                "german",
                "Panzer III M (F1)",
                "axis",
                (50, 30),
                facing=270,
                unit_id="flammpanzer",
                name="Flammpanzer",
            ),
            make_unit("us", "Sherman 75mm", "allies", (50, 24), facing=90, unit_id="sherman"),
            make_unit("us", "M10 Tank Destroyer", "allies", (44.25, 27), facing=0, unit_id="m10", name="M10"),
        ),
        "axis",
    )


def test_flame_tank_against_an_enclosed_vehicle_only_inflicts_a_marker_p18():
    state, events = act(flame_tank_game(), "axis", "flammpanzer", Fire(target="sherman"), faces=[d10(6)])
    assert fire_text(events) == (
        'Flammpanzer fires at Sherman 75mm (2.0"): needs 4+ (+1 close range); rolled 6: 1 hit; '
        "the flame only rattles the enclosed crew: 1 marker"
    )
    assert state.units["sherman"].morale_markers == 1 and not state.units["sherman"].destroyed


def test_flame_tank_penetrates_an_open_topped_vehicle_on_2_p18():
    state, events = act(
        flame_tank_game(), "axis", "flammpanzer", Fire(target="m10"), faces=[d10(6), d6(2), d6(4)]
    )
    assert fire_text(events) == (
        'Flammpanzer fires at M10 (2.5"): needs 4+ (+1 close range); rolled 6: 1 hit; '
        "1 marker; flame penetrates on 2+ (rolled 2). Damage d6 4: Foom! Vehicle destroyed"
    )
    assert state.units["m10"].destroyed
    state, events = act(flame_tank_game(), "axis", "flammpanzer", Fire(target="m10"), faces=[d10(6), d6(1)])
    assert fire_text(events).endswith("1 marker; flame on the open vehicle needs 2+, rolled 1: no effect")
    assert state.units["m10"].morale_markers == 1


def test_flame_penetrating_a_loaded_open_topped_transport_forces_the_passengers_out_p12_p18():
    """p. 18: open-topped vehicles are penetrated on 2+; p. 12: any hit that equals or exceeds a
    loaded transport's armour forces the passengers out with the transport's markers."""
    state = started(
        game(
            make_unit(
                "german",
                "Panzer III M (F1)",
                "axis",
                (50, 30),
                facing=270,
                unit_id="flammpanzer",
                name="Flammpanzer",
            ),
            make_unit(
                "us",
                "M3 Halftrack/Dodge WC-51",
                "allies",
                (50, 25),
                facing=90,
                unit_id="ht",
                name="Halftrack",
            ),
            gis((50, 25), embarked_in="ht"),
        ),
        "axis",
    )
    state, events = act(state, "axis", "flammpanzer", Fire(target="ht"), faces=[d10(6), d6(2), d6(1)])
    assert fire_text(events).endswith("1 marker; flame penetrates on 2+ (rolled 2). Damage d6 1: Rattled")
    assert not state.units["ht"].destroyed and state.units["ht"].morale_markers == 2
    assert "GIs is forced out of Halftrack" in texts(events)
    assert state.units["gis"].embarked_in is None
    assert state.units["gis"].morale_markers == 2


def test_flamethrower_team_suffers_extra_markers_on_3_p18():
    state = started(
        game(
            make_unit("german", "Flamethrower Team", "axis", (50, 30), facing=270, unit_id="flamer"),
            gis((50, 20)),
        ),
        "allies",
    )
    _, events = act(state, "allies", "gis", Fire(target="flamer"), faces=[d10(4), d10(1), d6(3)])
    assert fire_text(events) == (
        'GIs fires at Flamethrower Team (8.0"): needs 4+ (+1 close range); rolled 4, 1: 1 hit; '
        "1 marker, casualty 3+ rolled 3: +1 -> Flamethrower Team has 2 markers"
    )


def test_penetrated_flame_tank_adds_2_to_the_damage_roll_p18():
    state = flame_tank_game()
    state.active_side = "allies"
    state, events = act(state, "allies", "sherman", Fire(target="flammpanzer"), faces=[d10(5), d10(6), d6(2)])
    assert fire_text(events).endswith(
        'Penetration (front) 6+8+1 within 6"=15 vs 13: penetrates. '
        "Damage d6 2 +2 flame tank: Foom! Vehicle destroyed"
    )


# --- heavy, howitzers, infantry guns, scouts (p. 19) --------------------------------------------------


def test_heavy_tiger_reactivates_on_3_where_others_need_2_p19():
    state = started(
        game(
            make_unit("german", "Tiger I", "axis", (30, 50), facing=270, unit_id="tiger"),
            make_unit("german", "Panther", "axis", (60, 50), facing=270, unit_id="panther"),
            gis((10, 10)),
        ),
        "axis",
    )
    state.units["tiger"].tokens = 1
    state.units["panther"].tokens = 1
    _, events = act(state, "axis", "tiger", Move(path=(P(30, 46),)), faces=[d6(2)])
    assert texts(events)[1:] == [
        "Tiger I reactivates: needs 3+ (1 token, heavy -1), rolled 2: failed, the token is spent"
    ]
    moved, events = act(state, "axis", "tiger", Move(path=(P(30, 46),)), faces=[d6(3)])
    assert texts(events)[1] == "Tiger I reactivates: needs 3+ (1 token, heavy -1), rolled 3: success"
    assert moved.units["tiger"].position == P(30, 46)
    _, events = act(state, "axis", "panther", Move(path=(P(60, 46),)), faces=[d6(2)])
    assert texts(events)[1] == "Panther reactivates: needs 2+ (1 token), rolled 2: success"


def howitzer_game():
    return started(
        game(
            make_unit("german", "StuH 42", "axis", (50, 40), facing=270, unit_id="stuh"),
            make_unit("us", "Sherman 75mm", "allies", (50, 10), facing=90, unit_id="sherman"),
            gis((50, 10.5)),
        ),
        "axis",
    )


def test_howitzer_adds_1_to_the_damage_roll_p19():
    state = howitzer_game()
    state.units["gis"].destroyed = True
    state, events = act(state, "axis", "stuh", Fire(target="sherman"), faces=[d10(5), d10(6), d6(3)])
    assert fire_text(events) == (
        'StuH 42 fires at Sherman 75mm (26.0"): needs 5+; rolled 5: 1 hit; 1 marker. '
        "Penetration (front) 6+8=14 vs 13: penetrates. Damage d6 3 +1 howitzer: Foom! Vehicle destroyed"
    )
    assert state.units["sherman"].destroyed


def test_howitzer_adds_a_marker_to_infantry_on_3_p19():
    state = howitzer_game()
    state.units["sherman"].destroyed = True
    state, events = act(state, "axis", "stuh", Fire(target="gis"), faces=[d10(5), d6(3)])
    assert fire_text(events) == (
        'StuH 42 fires at GIs (26.5"): needs 5+; rolled 5: 1 hit; 1 marker, '
        "casualty 3+ rolled 3: +1 -> GIs has 2 markers"
    )


def test_howitzer_ignores_the_cover_of_a_building_p19():
    building = box(
        "house", "building", 40, 35, 60, 45, going=Going.ROUGH, cover=CoverKind.COVER, building=True
    )
    state = started(
        game(
            make_unit("us", "M8 HMC", "allies", (50, 10), facing=90, unit_id="hmc"),
            make_unit("us", "M5 Stuart", "allies", (60, 10), facing=90, unit_id="stuart"),
            make_unit("german", "Infantry Detachment", "axis", (50, 40), unit_id="gren", name="Grenadiers"),
            terrain=[building],
        ),
        "allies",
    )
    _, events = act(state, "allies", "hmc", Fire(target="gren"), faces=[d10(5), d6(3)])
    assert fire_text(events) == (
        'M8 HMC fires at Grenadiers (27.5"): needs 5+; rolled 5: 1 hit; 1 marker, '
        "casualty 3+ rolled 3: +1 -> Grenadiers has 2 markers"
    )
    _, events = act(state, "allies", "stuart", Fire(target="gren"), faces=[d10(5), d6(4)])
    # no howitzer: cover
    assert fire_text(events).endswith("casualty 5+ rolled 4: +0 -> Grenadiers has 1 marker")


def flak_game():
    return started(
        game(
            make_unit("german", "Flakvierling 38", "axis", (50, 40), facing=270, unit_id="flak"),
            gis((50, 32)),
        ),
        "axis",
    )


def test_infantry_gun_adds_a_marker_on_3_and_rolls_two_dice_when_stationary_p19():
    state, events = act(flak_game(), "axis", "flak", Fire(target="gis"), faces=[d10(5), d10(2), d6(3)])
    assert fire_text(events) == (
        'Flakvierling 38 fires at GIs (6.0"): needs 4+ (+1 close range); rolled 5, 2: 1 hit; '
        "1 marker, casualty 3+ rolled 3: +1 -> GIs has 2 markers"
    )


def test_infantry_gun_rolls_one_die_after_moving_p19():
    state, events = act(
        flak_game(),
        "axis",
        "flak",
        Move(path=(P(51, 40),), facing=270),
        Fire(target="gis"),
        faces=[d10(6), d6(2)],
    )
    assert fire_text(events) == (
        'Flakvierling 38 fires at GIs (6.0"): needs 6+ (-2 moved, +1 close range); rolled 6: 1 hit; '
        "1 marker, casualty 3+ rolled 2: +0 -> GIs has 1 marker"
    )


def scout_game(unit, name, tokens=0):
    state = started(
        game(
            make_unit(
                "german", unit, "axis", (50, 50), facing=270, unit_id="scout", name=name, morale_markers=3
            ),
            make_unit("us", "Sherman 75mm", "allies", (10, 10), facing=90, unit_id="sherman"),
        ),
        "allies",
    )
    state.units["scout"].tokens = tokens
    state, _ = declare(state, "allies", "sherman", Move(path=(P(10, 14),)))
    return state


def react_move(state, *faces):
    order = UnitOrder(unit="scout", actions=(Move(path=(P(50, 46),)),))
    return play(state, React(side="axis", window=state.pending.window, order=order), *faces)


def test_scout_car_reacts_on_2_ignoring_morale_markers_p19():
    _, events = react_move(scout_game("Sd.Kfz 234/2 8-Rad Puma", "Puma"), d6(2))
    assert "The Axis react with Puma: move to 50.0,46.0: needs 2+ (scout 2+), rolled 2: success" in texts(
        events
    )


def test_scout_car_still_counts_command_tokens_to_react_p19():
    _, events = react_move(scout_game("Sd.Kfz 234/2 8-Rad Puma", "Puma", tokens=1), d6(2))
    assert (
        "The Axis react with Puma: move to 50.0,46.0: needs 3+ (scout 2+, +1 token), rolled 2: failed"
        in texts(events)
    )


def test_other_vehicles_count_morale_markers_to_react_p19():
    _, events = react_move(scout_game("Panzer IV G (late) to J", "Panzer"), d6(5))
    assert (
        "The Axis react with Panzer: move to 50.0,46.0: needs 6+ (+3 morale markers), rolled 5: failed"
        in texts(events)
    )


# --- MG teams and mortars (pp. 19-20) -------------------------------------------------------------


def test_mg_team_inflicts_a_marker_per_hit_and_one_extra_at_most_p19():
    state = started(
        game(make_unit("german", "MG Team", "axis", (50, 40), facing=270, unit_id="mg"), gis((50, 20))),
        "axis",
    )
    state, events = act(state, "axis", "mg", Fire(target="gis"), faces=[d10(5), d10(8), d6(4), d6(6)])
    assert fire_text(events) == (
        'MG Team fires at GIs (18.0"): needs 5+; rolled 5, 8: 2 hits; 2 markers, casualty 4+ rolled 4, 6: +1 '
        "-> GIs has 3 markers"
    )
    assert state.units["gis"].morale_markers == 3


def test_mg_team_rolls_one_die_after_moving_p19():
    state = started(
        game(make_unit("german", "MG Team", "axis", (50, 40), facing=270, unit_id="mg"), gis((50, 20))),
        "axis",
    )
    _, events = act(
        state, "axis", "mg", Move(path=(P(51, 40),), facing=270), Fire(target="gis"), faces=[d10(7), d6(1)]
    )
    assert fire_text(events) == (
        'MG Team fires at GIs (18.0"): needs 7+ (-2 moved); rolled 7: 1 hit; 1 marker, '
        "casualty 4+ rolled 1: +0 -> GIs has 1 marker"
    )


def mortar_game(*extra, terrain=(), target_at=(50, 40)):
    return started(
        game(
            make_unit("german", "Mortar Team", "axis", (50, 10), facing=90, unit_id="mortar"),
            gis(target_at),
            *extra,
            terrain=terrain,
        ),
        "axis",
    )


def test_mortar_needs_8_for_a_first_shot_p20():
    state, events = act(mortar_game(), "axis", "mortar", Fire(target="gis"), faces=[d10(8), d6(1)])
    assert fire_text(events) == (
        'Mortar Team fires at GIs (28.0"): needs 8+; rolled 8: 1 hit; 1 marker, casualty 4+ rolled 1: +0 '
        "-> GIs has 1 marker"
    )


def test_mortar_needs_7_for_a_second_shot_at_the_same_target_in_the_same_spot_p20():
    state, _ = act(mortar_game(), "axis", "mortar", Fire(target="gis"), faces=[d10(1)])
    state, events = act(state, "axis", "mortar", Fire(target="gis"), faces=[d6(2), d10(7), d6(1)])
    assert fire_text(events) == (
        'Mortar Team fires at GIs (28.0"): needs 7+ (+1 ranged in); rolled 7: 1 hit; 1 marker, '
        "casualty 4+ rolled 1: +0 -> GIs has 1 marker"
    )


def test_a_mortar_is_a_support_squad_and_fires_only_in_its_90_degree_arc_p3_p11():
    state = mortar_game(make_unit("us", "Infantry Detachment", "allies", (30, 2), unit_id="behind"))
    with pytest.raises(IllegalCommand, match="^Infantry Detachment is outside Mortar Team's 90 degree arc"):
        declare(state, "axis", "mortar", Fire(target="behind"))
    declare(state, "axis", "mortar", Fire(target="gis"))


@pytest.mark.parametrize(
    ("moved_to", "needs"),
    [((53, 40), "needs 8+ (+1 ranged in, -1 target moved)"), ((56, 40), "needs 9+ (-1 target moved)")],
    ids=["still-within-4", "moved-out-of-the-area"],
)
def test_mortar_bonus_holds_only_while_the_target_stays_within_4_of_the_spot_p20(moved_to, needs):
    state, _ = act(mortar_game(), "axis", "mortar", Fire(target="gis"), faces=[d10(1)])
    state, _ = play(state, PassInitiative(side="axis"))
    state, _ = act(state, "allies", "gis", Move(path=(P(*moved_to),)))
    state, _ = play(state, PassInitiative(side="allies"))
    state, events = act(state, "axis", "mortar", Fire(target="gis"), faces=[d6(2), d10(1)])
    assert needs in fire_text(events)


def test_mortar_bonus_is_cumulative_p20():
    state, _ = act(mortar_game(), "axis", "mortar", Fire(target="gis"), faces=[d10(1)])
    state, _ = act(state, "axis", "mortar", Fire(target="gis"), faces=[d6(2), d10(1)])
    _, events = act(state, "axis", "mortar", Fire(target="gis"), faces=[d6(3), d10(6), d6(1)])
    assert fire_text(events).startswith(
        'Mortar Team fires at GIs (28.0"): needs 6+ (+2 ranged in); rolled 6: 1 hit'
    )


def test_mortar_bonus_does_not_carry_into_the_next_turn_p20():
    state = started(
        game(
            make_unit("german", "Mortar Team", "axis", (50, 10), facing=90, unit_id="mortar"),
            gis((50, 40)),
        ),
        "axis",
        tokens=None,
    )
    state.sides["axis"].tokens = 1
    state.sides["allies"].tokens = 0
    state, _ = play(
        state,
        Declare(side="axis", order=UnitOrder(unit="mortar", actions=(Fire(target="gis"),))),
        d10(1),  # the shot misses
        d6(1),  # break point test, allies
        d6(1),  # break point test, axis
        d6(1),  # initiative, allies
        d6(6),  # initiative, axis
    )
    assert state.turn == 2
    state, _ = play(state, ChooseInitiative(side="axis", go_first=True))
    _, events = act(state, "axis", "mortar", Fire(target="gis"), faces=[d10(7)])
    assert fire_text(events) == 'Mortar Team fires at GIs (28.0"): needs 8+; rolled 7: miss'


def test_mortar_may_fire_at_exactly_12_and_marks_each_hit_on_infantry_p20():
    state, events = act(
        mortar_game(target_at=(50, 24)),
        "axis",
        "mortar",
        Fire(target="gis"),
        faces=[d10(7), d10(9), d6(1), d6(1)],
    )
    assert fire_text(events) == (
        'Mortar Team fires at GIs (12.0"): needs 7+ (+1 close range); rolled 7, 9: 2 hits; '
        "2 markers, casualty 4+ rolled 1, 1: +0 -> GIs has 2 markers"
    )


@pytest.mark.parametrize(("cover", "needed"), [(CoverKind.COVER, 4), (CoverKind.FORTIFICATION, 5)])
def test_mortar_ignores_cover_and_treats_trenches_as_cover_p10_p20(cover, needed):
    area = box("area", "field", 40, 35, 60, 45, cover=cover)
    _, events = act(mortar_game(terrain=[area]), "axis", "mortar", Fire(target="gis"), faces=[d10(8), d6(4)])
    assert fire_text(events).endswith(
        f"casualty {needed}+ rolled 4: +{int(4 >= needed)} -> GIs has "
        f"{'2 markers' if 4 >= needed else '1 marker'}"
    )


def test_mortar_may_not_fire_at_targets_closer_than_12_p20():
    state = mortar_game(target_at=(50, 22))
    with pytest.raises(IllegalCommand, match='^GIs is 10.0" away: mortars may not fire under 12"$'):
        declare(state, "axis", "mortar", Fire(target="gis"))


def test_mortar_may_not_fire_from_woods_p20():
    woods = box("woods", "woods", 40, 5, 60, 15, going=Going.ROUGH, cover=CoverKind.COVER)
    with pytest.raises(IllegalCommand, match="^Mortar Team may not fire a mortar from trees or buildings$"):
        declare(mortar_game(terrain=[woods]), "axis", "mortar", Fire(target="gis"))


def test_mortar_may_fire_at_a_target_only_a_friendly_unit_can_see_p20():
    hill = box("hill", "hill", 30, 20, 70, 24, blocks_sight=True)
    blocked = "^Mortar Team cannot see GIs: the hill blocks the line of sight$"
    with pytest.raises(IllegalCommand, match=blocked):
        declare(mortar_game(terrain=[hill]), "axis", "mortar", Fire(target="gis"))
    spotter = make_unit("german", "Infantry Detachment", "axis", (80, 40), unit_id="spotter")
    _, events = act(
        mortar_game(spotter, terrain=[hill]), "axis", "mortar", Fire(target="gis"), faces=[d10(7)]
    )
    assert fire_text(events) == 'Mortar Team fires at GIs (28.0"): needs 8+; rolled 7: miss'


def test_mortar_may_fire_only_when_stationary_p20():
    with pytest.raises(IllegalCommand, match="^Mortar Team fires only when stationary$"):
        declare(mortar_game(), "axis", "mortar", Move(path=(P(51, 10),), facing=90), Fire(target="gis"))


# --- snipers (p. 20) --------------------------------------------------------------------------


def sniper_game():
    return started(
        game(
            make_unit("german", "Sniper Team", "axis", (50, 50), unit_id="sniper", hidden=True),
            gis((50, 30)),
        ),
        "axis",
    )


def test_hidden_sniper_cannot_be_targeted_p20():
    """Neither before it fires nor after a shot that leaves it hidden."""
    state = sniper_game()
    fired, events = act(state, "axis", "sniper", Fire(target="gis"), faces=[d10(1), d6(1)])
    assert texts(events)[-1] == "Sniper Team stays hidden (spotting roll 1)"
    for hidden in (state, fired):
        hidden.active_side = "allies"
        with pytest.raises(IllegalCommand, match="^Sniper Team has not been spotted$"):
            declare(hidden, "allies", "gis", Fire(target="sniper"))


def test_sniper_hits_at_plus_2_and_stays_hidden_unless_the_opponent_rolls_a_6_p20():
    state, events = act(sniper_game(), "axis", "sniper", Fire(target="gis"), faces=[d10(3), d6(5), d6(5)])
    assert fire_text(events) == (
        'Sniper Team fires at GIs (18.0"): needs 3+ (+2 sniper); rolled 3: 1 hit; 1 marker, '
        "casualty 5+ rolled 5: +1 -> GIs has 2 markers"
    )
    assert texts(events)[-1] == "Sniper Team stays hidden (spotting roll 5)"
    assert state.units["sniper"].hidden
    state, events = act(state, "axis", "sniper", Fire(target="gis"), faces=[d6(6), d10(1), d6(6)])
    assert texts(events)[-1] == "Sniper Team is spotted: the enemy rolled a 6"
    assert not state.units["sniper"].hidden
    state.active_side = "allies"
    _, events = act(state, "allies", "gis", Fire(target="sniper"), faces=[d10(1)])
    assert fire_text(events).startswith("GIs fires at Sniper Team")


def test_sniper_is_spotted_when_an_enemy_comes_within_4_p20():
    state = sniper_game()
    state.active_side = "allies"
    state.units["gis"].position = P(50, 40)
    state, events = act(state, "allies", "gis", Move(path=(P(50, 43.5),)))  # 4.5" away: still hidden
    assert state.units["sniper"].hidden
    state, events = act(state, "allies", "gis", Move(path=(P(50, 44),)), faces=[d6(2)])  # 4" away
    assert 'Sniper Team is spotted: GIs is within 4"' in texts(events)
    assert not state.units["sniper"].hidden


def test_sniper_is_spotted_if_it_makes_a_rapid_move_p20():
    state, events = act(sniper_game(), "axis", "sniper", Move(path=(P(56, 50),)))
    assert state.units["sniper"].hidden
    state, events = act(sniper_game(), "axis", "sniper", Move(path=(P(58, 50),), rapid=True))
    assert "Sniper Team is spotted: it made a rapid move" in texts(events)
    assert not state.units["sniper"].hidden


def test_sniper_dummy_marker_is_unmasked_by_an_enemy_within_4_p20():
    state = sniper_game()
    state.units["sniper"].decoy = P(20, 50)
    state.active_side = "allies"
    state.units["gis"].position = P(20, 42)
    state, events = act(state, "allies", "gis", Move(path=(P(20, 47),)))
    assert "The hidden marker at 20.0,50.0 was a dummy" in texts(events)
    assert state.units["sniper"].decoy is None and state.units["sniper"].hidden


def test_sniper_fires_only_when_stationary_and_only_at_infantry_or_open_topped_vehicles_p20():
    state = started(
        game(
            make_unit("german", "Sniper Team", "axis", (50, 50), unit_id="sniper", hidden=True),
            gis((50, 30)),
            make_unit("us", "Sherman 75mm", "allies", (30, 30), facing=90, unit_id="sherman"),
            make_unit("us", "M10 Tank Destroyer", "allies", (70, 30), facing=90, unit_id="m10", name="M10"),
        ),
        "axis",
    )
    with pytest.raises(IllegalCommand, match="^Sniper Team fires only when stationary$"):
        declare(state, "axis", "sniper", Move(path=(P(52, 50),)), Fire(target="gis"))
    with pytest.raises(IllegalCommand, match="^snipers may only shoot at infantry or open-topped vehicles$"):
        declare(state, "axis", "sniper", Fire(target="sherman"))
    state, events = act(state, "axis", "sniper", Fire(target="m10"), faces=[d10(3), d6(1)])
    assert fire_text(events).endswith("rolled 3: 1 hit; 1 marker")
    assert state.units["m10"].morale_markers == 1


def test_sniper_rapid_move_out_of_every_enemys_sight_keeps_it_hidden_p20():
    """p. 20: a sniper making a rapid move "automatically becomes spotted, assuming it could be
    seen at all": behind a ridge no enemy can see, it stays hidden."""
    ridge = box("ridge", "ridge", 30, 38, 70, 42, blocks_sight=True)
    state = started(
        game(
            make_unit("german", "Sniper Team", "axis", (50, 50), unit_id="sniper", hidden=True),
            gis((50, 30)),
            terrain=[ridge],
        ),
        "axis",
    )
    state, events = act(state, "axis", "sniper", Move(path=(P(58, 50),), rapid=True))
    assert state.units["sniper"].position == P(58, 50)
    assert state.units["sniper"].hidden


# --- infantry anti-tank weapons (p. 19) ---------------------------------------------------------------


def iaw_game(y):
    return started(
        game(
            gis((50, y), unit_id="bazooka", name="Bazooka team", iaw=True),
            make_unit(
                "german", "Panzer IV G (late) to J", "axis", (50, 40), facing=0, unit_id="pz", name="Panzer"
            ),
        ),
        "allies",
    )


def test_infantry_anti_tank_weapon_reaches_8_inches_p19():
    state, events = act(
        iaw_game(29.75), "allies", "bazooka", Fire(target="pz"), faces=[d10(4), d10(4), d6(1)]
    )
    assert fire_text(events) == (
        'Bazooka team fires at Panzer (8.0"): needs 4+ (+1 close range); rolled 4: 1 hit; 1 marker. '
        "Penetration (side) 4+7=11 vs 10: penetrates. Damage d6 1: Rattled"
    )
    with pytest.raises(IllegalCommand, match='^Panzer is 8.5" away: anti-tank weapons reach 8"$'):
        declare(iaw_game(29.25), "allies", "bazooka", Fire(target="pz"))
