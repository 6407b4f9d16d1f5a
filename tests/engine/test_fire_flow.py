"""Firing through the game flow: commands in, scripted dice, exact outcome (Iron Cross 2015,
pp. 10-12).

Every expectation here is read from the rulebook; the engine must match it.
"""

import pytest

from engine.battlefield import visible_enemies
from engine.commands import Declare, DeclineReaction, Fire, LaySmoke, Move, PassInitiative, React, UnitOrder
from engine.dice import DieCategory, d6, d10
from engine.errors import IllegalCommand
from engine.event_data import RolledTest, ToHit
from engine.scenarios.new_game import make_unit
from engine.state import CoverKind, Going, TableSize, TerrainFeature
from tests.engine.helpers import P, act, box, declare, fire_data, fire_text, game, play, started, texts

WALL = TerrainFeature(
    id="wall",
    kind="wall",
    outline=(P(40, 23), P(60, 23)),
    linear=True,
    width=0.5,
    going=Going.ROUGH,
    cover=CoverKind.COVER,
    hull_down=True,
)


def fire(state, side, unit, target, *faces):
    return act(state, side, unit, Fire(target=target), faces=faces)


# --- line of sight and arcs (pp. 10-11) -----------------------------------------------------------


def sight_game(blocks_sight):
    woods = box(
        "woods", "woods", 30, 30, 70, 40, going=Going.ROUGH, cover=CoverKind.COVER, blocks_sight=blocks_sight
    )
    return started(
        game(
            make_unit("german", "Infantry Detachment", "axis", (50, 50), unit_id="gren", name="Grenadiers"),
            make_unit("us", "Infantry Detachment", "allies", (50, 20), unit_id="gis", name="GIs"),
            terrain=[woods],
        ),
        "axis",
    )


def test_line_of_sight_blocked_by_woods_cannot_see_p10():
    blocked = "^Grenadiers cannot see GIs: the woods block the line of sight$"
    with pytest.raises(IllegalCommand, match=blocked):
        declare(sight_game(blocks_sight=True), "axis", "gren", Fire(target="gis"))
    _, events = fire(sight_game(blocks_sight=False), "axis", "gren", "gis", d10(4))
    assert fire_text(events) == 'Grenadiers fires at GIs (28.0"): needs 5+; rolled 4: miss'


def arcs_game():
    return started(
        game(
            make_unit("german", "MG Team", "axis", (30, 50), facing=270, unit_id="mg", name="MG"),
            make_unit(
                "german", "StuG IV, StuG III F-H", "axis", (70, 50), facing=270, unit_id="stug", name="StuG"
            ),
            make_unit(
                "german",
                "Infantry Detachment",
                "axis",
                (50, 50),
                facing=270,
                unit_id="gren",
                name="Grenadiers",
            ),
            make_unit("us", "Infantry Detachment", "allies", (30, 40), unit_id="ahead", name="Ahead"),
            make_unit("us", "Infantry Detachment", "allies", (38, 40), unit_id="edge", name="Edge"),
            make_unit("us", "Infantry Detachment", "allies", (42, 40), unit_id="flank", name="Flank"),
            make_unit("us", "Infantry Detachment", "allies", (50, 58), unit_id="behind", name="Behind"),
            make_unit(
                "us", "Sherman 75mm", "allies", (70, 30), facing=90, unit_id="s-ahead", name="Sherman Ahead"
            ),
            make_unit(
                "us",
                "Sherman 75mm",
                "allies",
                (80, 40),
                facing=90,
                unit_id="s-oblique",
                name="Sherman Oblique",
            ),
        ),
        "axis",
    )


def test_support_squad_fires_in_a_90_degree_arc_to_its_front_p11():
    state = arcs_game()
    _, events = fire(state, "axis", "mg", "ahead", d10(1), d10(1))
    assert fire_text(events) == 'MG fires at Ahead (8.0"): needs 4+ (+1 close range); rolled 1, 1: miss'
    shot = fire_data(events)
    assert (shot.firer, shot.target, shot.distance) == ("mg", "ahead", 8.0)
    assert shot.to_hit == ToHit(needed=4, modifiers=(("close range", 1),), rolls=(1, 1), hits=0)
    assert shot.markers_placed == 0
    _, events = fire(state, "axis", "mg", "edge", d10(1), d10(1))  # 39 degrees off its facing
    assert fire_text(events) == 'MG fires at Edge (10.0"): needs 4+ (+1 close range); rolled 1, 1: miss'
    with pytest.raises(
        IllegalCommand, match="^Flank is outside MG's 90 degree arc of fire"
    ):  # 50 degrees off
        declare(state, "axis", "mg", Fire(target="flank"))


def test_hull_mounted_gun_fires_only_directly_forwards_p11():
    state = arcs_game()
    _, events = fire(state, "axis", "stug", "s-ahead", d10(1))
    assert fire_text(events) == 'StuG fires at Sherman Ahead (16.0"): needs 5+; rolled 1: miss'
    with pytest.raises(IllegalCommand, match="^Sherman Oblique is outside StuG's .* arc of fire"):
        declare(state, "axis", "stug", Fire(target="s-oblique"))


def test_a_target_outside_the_arc_is_refused_with_the_move_that_turns_to_face_it_p8_p11():
    state = arcs_game()
    with pytest.raises(IllegalCommand) as refused:
        declare(state, "axis", "stug", Fire(target="s-oblique"))
    assert str(refused.value) == (
        "Sherman Oblique is outside StuG's 45 degree arc of fire: turn to face it first with a move toward "
        'it, as a unit ends a move facing the way it went (e.g. move:70.7,49.3, 1" toward it)'
    )
    turned = UnitOrder(unit="stug", actions=(Move(path=(P(70.7, 49.3),)), Fire(target="s-oblique")))
    state, _ = play(state, Declare(side="axis", order=turned))
    assert state.pending is not None  # the order stands, waiting on the Allies' reaction


def test_infantry_fire_all_round_p11():
    state = arcs_game()
    _, events = fire(state, "axis", "gren", "behind", d10(1), d10(1))
    assert (
        fire_text(events) == 'Grenadiers fires at Behind (6.0"): needs 4+ (+1 close range); rolled 1, 1: miss'
    )


# --- armour (pp. 11-12) ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tiger_at", "tiger_facing", "result"),
    [
        (
            (20, 40),
            0,
            'Sherman 76mm fires at Tiger I (16.5"): needs 5+; rolled 6: 1 hit; 1 marker. '
            "Penetration (side) 5+9=14 vs 14: equal, +1 marker",
        ),
        (
            (20, 40.25),
            90,
            'Sherman 76mm fires at Tiger I (16.0"): needs 5+; rolled 6: 1 hit; 1 marker. '
            "Penetration (side) 5+9=14 vs 14: equal, +1 marker",
        ),
        (
            (20, 40.25),
            270,
            'Sherman 76mm fires at Tiger I (16.0"): needs 5+; rolled 6: 1 hit; 1 marker. '
            "Penetration (front) 5+9=14 vs 17: bounces",
        ),
    ],
    ids=["side", "rear-uses-side", "front"],
)
def test_side_aspect_uses_side_armour_rear_too_p11(tiger_at, tiger_facing, result):
    state = started(
        game(
            make_unit("us", "Sherman 76mm", "allies", (20, 20), facing=90, unit_id="sherman"),
            make_unit("german", "Tiger I", "axis", tiger_at, facing=tiger_facing, unit_id="tiger"),
        ),
        "allies",
    )
    state, events = fire(state, "allies", "sherman", "tiger", d10(6), d10(5))
    assert fire_text(events) == result
    assert state.units["tiger"].morale_markers == (1 if result.endswith("bounces") else 2)


def hull_down_game(terrain):
    return started(
        game(
            make_unit("german", "Panther", "axis", (50, 40), facing=270, unit_id="panther"),
            make_unit("us", "Sherman 75mm", "allies", (50, 21), facing=90, unit_id="sherman"),
            terrain=terrain,
        ),
        "axis",
    )


def test_hull_down_behind_a_wall_takes_one_off_the_damage_roll_p12():
    state, events = fire(hull_down_game([WALL]), "axis", "panther", "sherman", d10(7), d10(6), d6(3))
    assert fire_text(events) == (
        'Panther fires at Sherman 75mm (15.0"): needs 5+; rolled 7: 1 hit; 1 marker. '
        "Penetration (front) 6+10=16 vs 13: penetrates. "
        "Damage d6 3 -1 hull down: Crew cabin filled with smoke and shrapnel"
    )
    assert state.units["sherman"].morale_markers == 3
    shot = fire_data(events)
    assert (shot.to_hit.needed, shot.to_hit.rolls, shot.to_hit.hits) == (5, (7,), 1)
    assert (shot.damage, shot.markers_placed, shot.markers, shot.fate) == (
        "Crew cabin filled with smoke and shrapnel",
        3,
        3,
        "stands",
    )
    assert [die.category for die in next(e for e in events if e.kind == "fire").rolls] == [
        DieCategory.TO_HIT,
        DieCategory.PENETRATION,
        DieCategory.PENETRATION,
    ]
    state, events = fire(hull_down_game([]), "axis", "panther", "sherman", d10(7), d10(6), d6(3))
    assert fire_text(events).endswith("Damage d6 3: Screech! Vehicle damaged")
    assert state.units["sherman"].morale_markers == 5


# --- transports hit (p. 12) ----------------------------------------------------------------------


def loaded_halftrack(*extra, markers=0, passenger="Infantry Detachment", table=None, at=(50, 40)):
    sherman_at = (at[0], at[1] - 30 if table is None else at[1] - 20)
    return started(
        game(
            make_unit("us", "Sherman 75mm", "allies", sherman_at, facing=90, unit_id="sherman"),
            make_unit(
                "german",
                "251 Halftrack",
                "axis",
                at,
                facing=270,
                unit_id="ht",
                name="Halftrack",
                morale_markers=markers,
            ),
            make_unit(
                "german",
                passenger,
                "axis",
                at,
                facing=270,
                unit_id="gren",
                name="Passengers",
                embarked_in="ht",
            ),
            *extra,
            table=table,
        ),
        "allies",
    )


def test_hit_equal_to_a_loaded_halftracks_armour_forces_the_passengers_out_with_its_markers_p12():
    state, events = fire(loaded_halftrack(markers=1), "allies", "sherman", "ht", d10(5), d10(2))
    assert fire_text(events) == (
        'Sherman 75mm fires at Halftrack (26.5"): needs 5+; rolled 5: 1 hit; 1 marker. '
        "Penetration (front) 2+8=10 vs 10: equal, +1 marker"
    )
    assert "Passengers is forced out of Halftrack" in texts(events)
    assert state.units["ht"].morale_markers == 3
    passengers = state.units["gren"]
    assert passengers.embarked_in is None and not passengers.destroyed
    assert passengers.morale_markers == 3  # the transport's 1 + the hit's + the equal's


def test_hit_exceeding_a_loaded_halftracks_armour_forces_the_passengers_out_too_p12():
    state, events = fire(loaded_halftrack(), "allies", "sherman", "ht", d10(5), d10(5), d6(1))
    assert fire_text(events).endswith("Penetration (front) 5+8=13 vs 10: penetrates. Damage d6 1: Rattled")
    assert state.units["gren"].embarked_in is None
    assert state.units["gren"].morale_markers == 2 == state.units["ht"].morale_markers


def test_hit_below_a_loaded_halftracks_armour_leaves_the_passengers_aboard_p12():
    state, events = fire(loaded_halftrack(), "allies", "sherman", "ht", d10(5), d10(1))
    assert fire_text(events).endswith("Penetration (front) 1+8=9 vs 10: bounces")
    assert state.units["gren"].embarked_in == "ht" and state.units["gren"].morale_markers == 0


@pytest.mark.parametrize(("passenger", "morale"), [("Infantry Detachment", 5), ("MG Team", 3)])
def test_destroyed_transports_passengers_bail_out_with_markers_up_to_their_morale_p12(passenger, morale):
    state, events = fire(
        loaded_halftrack(passenger=passenger), "allies", "sherman", "ht", d10(5), d10(6), d6(4)
    )
    assert fire_text(events).endswith("Damage d6 4: Foom! Vehicle destroyed")
    assert state.units["ht"].destroyed
    assert f"Passengers bails out of the wreck with {morale} markers" in texts(events)
    passengers = state.units["gren"]
    assert passengers.embarked_in is None and not passengers.destroyed
    assert passengers.morale_markers == morale


def test_kaboom_destroys_the_passengers_and_marks_each_friendly_unit_within_12_p12():
    state = loaded_halftrack(
        make_unit("german", "Infantry Detachment", "axis", (56, 40), unit_id="near", name="Near"),
        make_unit("german", "Infantry Detachment", "axis", (63.5, 40), unit_id="edge", name="Edge"),
        make_unit("german", "Infantry Detachment", "axis", (64.5, 40), unit_id="far", name="Far"),
        make_unit("us", "Infantry Detachment", "allies", (50, 48), unit_id="gis", name="GIs"),
    )
    state, events = fire(state, "allies", "sherman", "ht", d10(5), d10(6), d6(6))
    log = texts(events)
    assert fire_text(events).endswith("Damage d6 6: Kaboom!")
    assert "Halftrack explodes!" in log
    assert "Passengers is lost with Halftrack" in log
    assert state.units["ht"].destroyed and state.units["gren"].destroyed
    assert "Near is shaken by the blast: +1 marker" in log
    assert "Edge is shaken by the blast: +1 marker" in log
    assert [state.units[u].morale_markers for u in ("near", "edge", "far", "gis")] == [1, 1, 0, 0]


def test_kaboom_reaches_only_6_on_a_6_by_4_table_p12():
    state = started(
        game(
            make_unit("us", "Sherman 75mm", "allies", (30, 10), facing=90, unit_id="sherman"),
            make_unit("german", "Panzer IV G (late) to J", "axis", (30, 30), facing=270, unit_id="pz"),
            make_unit("german", "Infantry Detachment", "axis", (35, 30), unit_id="near", name="Near"),
            make_unit("german", "Infantry Detachment", "axis", (39, 30), unit_id="mid", name="Mid"),
            table=TableSize(width=72, depth=48),
        ),
        "allies",
    )
    state, events = fire(state, "allies", "sherman", "pz", d10(5), d10(8), d6(6))
    assert fire_text(events) == (
        'Sherman 75mm fires at Panzer IV G (late) to J (16.0"): needs 5+; rolled 5: 1 hit; 1 marker. '
        "Penetration (front) 8+8=16 vs 14: penetrates. Damage d6 6: Kaboom!"
    )
    assert state.units["near"].morale_markers == 1  # 2.75" away
    assert state.units["mid"].morale_markers == 0  # 6.75" away


# --- smoke (p. 12) ----------------------------------------------------------------------------


def smoke_game(**gren):
    return started(
        game(
            make_unit("us", "Infantry Detachment", "allies", (50, 20), unit_id="gis", name="GIs"),
            make_unit(
                "german", "Infantry Detachment", "axis", (50, 30), unit_id="gren", name="Grenadiers", **gren
            ),
        ),
        "axis",
    )


def test_smoke_needs_5_on_a_d10_with_no_modifiers_p12():
    """Moving and two morale markers would be -2 each on a shot; smoke ignores them."""
    state = smoke_game(morale_markers=2)
    smoked, events = act(state, "axis", "gren", Move(path=(P(54, 30),)), LaySmoke(), faces=[d10(5)])
    assert texts(events)[-1] == "Grenadiers lays smoke: needs 5+, rolled 5: obscured"
    laid = RolledTest(test="smoke", unit="gren", side="axis", needed=5, roll=5, passed=True)
    assert events[-1].data == laid
    assert smoked.units["gren"].smoke is not None
    clear, events = act(state, "axis", "gren", Move(path=(P(54, 30),)), LaySmoke(), faces=[d10(4)])
    assert texts(events)[-1] == "Grenadiers lays smoke: needs 5+, rolled 4: no smoke"
    assert clear.units["gren"].smoke is None


def test_smoked_unit_is_harder_to_hit_counts_as_in_cover_and_may_not_fire_p12():
    state, _ = act(smoke_game(), "axis", "gren", LaySmoke(), faces=[d10(5)])
    with pytest.raises(IllegalCommand, match="^Grenadiers is hidden in smoke and may not fire this turn$"):
        declare(state, "axis", "gren", Fire(target="gis"))
    state, _ = play(state, PassInitiative(side="axis"))
    state, _ = declare(state, "allies", "gis", Fire(target="gren"))
    with pytest.raises(IllegalCommand, match="hidden in smoke and may not fire"):
        play(
            state,
            React(
                side="axis",
                window=state.pending.window,
                order=UnitOrder(unit="gren", actions=(Fire(target="gis"),)),
            ),
        )
    state, events = play(
        state, DeclineReaction(side="axis", window=state.pending.window), d10(5), d10(1), d6(4)
    )
    assert fire_text(events) == (
        'GIs fires at Grenadiers (8.0"): needs 5+ (-1 smoke, +1 close range); rolled 5, 1: 1 hit; '
        "1 marker, casualty 5+ rolled 4: +0 -> Grenadiers has 1 marker"
    )


def test_smoke_clears_at_the_end_of_the_turn_p12():
    state = smoke_game()
    state.sides["axis"].tokens = 2
    state.sides["allies"].tokens = 0
    state, _ = play(state, Declare(side="axis", order=UnitOrder(unit="gren", actions=(LaySmoke(),))), d10(5))
    assert state.turn == 1 and state.units["gren"].smoke is not None
    # the last token: the turn ends (break point tests), turn 2 begins (initiative)
    state, _ = play(
        state,
        Declare(side="axis", order=UnitOrder(unit="gren", actions=(Move(path=(P(52, 30),)),))),
        d6(2),  # reactivation (one token on it)
        d6(1),  # break point test, allies
        d6(1),  # break point test, axis
        d6(4),  # initiative, allies
        d6(3),  # initiative, axis
    )
    assert state.turn == 2
    assert state.units["gren"].smoke is None


def test_smoke_fired_by_a_supporting_gun_is_rolled_by_the_unit_it_hides_p12():
    state = started(
        game(
            make_unit("us", "Infantry Detachment", "allies", (50, 20), unit_id="gis", name="GIs"),
            make_unit("us", "MG Team", "allies", (40, 20), unit_id="mg", name="MG"),
            make_unit("us", "Sherman 75mm", "allies", (60, 10), facing=90, unit_id="sherman"),
            make_unit("german", "Infantry Detachment", "axis", (50, 40), unit_id="gren"),
        ),
        "allies",
    )
    with pytest.raises(IllegalCommand, match="^MG cannot fire smoke"):
        declare(state, "allies", "gis", LaySmoke(supporter="mg"))
    state, events = act(state, "allies", "gis", LaySmoke(supporter="sherman"), faces=[d10(4)])
    assert texts(events)[-1] == "GIs lays smoke: needs 5+, rolled 4: no smoke"
    assert events[-1].rolls[0].purpose == "smoke, GIs"


# --- close combat and infantry against vehicles (pp. 11-12) -----------------------------------------


def test_close_combat_between_infantry_is_resolved_as_shooting_p12():
    state = started(
        game(
            make_unit("german", "Infantry Detachment", "axis", (50, 30), unit_id="gren", name="Grenadiers"),
            make_unit("us", "Infantry Detachment", "allies", (50, 28), unit_id="gis", name="GIs"),
        ),
        "axis",
    )
    state, events = fire(state, "axis", "gren", "gis", d10(4), d10(3), d6(4))
    assert fire_text(events) == (
        'Grenadiers fires at GIs (0.0"): needs 4+ (+1 close range); rolled 4, 3: 1 hit; '
        "1 marker, casualty 4+ rolled 4: +1 -> GIs has 2 markers"
    )
    assert state.units["gis"].morale_markers == 2


def contact_game():
    return started(
        game(
            make_unit("german", "Infantry Detachment", "axis", (49.75, 30), unit_id="side", name="Flankers"),
            make_unit(
                "german", "Infantry Detachment", "axis", (52.25, 33.25), unit_id="front", name="Fronters"
            ),
            make_unit(
                "german", "Infantry Detachment", "axis", (48.75, 30), unit_id="near", name="Skirmishers"
            ),
            make_unit("us", "M26 Pershing", "allies", (52.25, 30), facing=90, unit_id="pershing"),
        ),
        "axis",
    )


def test_infantry_without_anti_tank_weapons_attack_vehicles_only_in_contact_p11():
    state = contact_game()
    with pytest.raises(IllegalCommand, match="^Skirmishers has no anti-tank weapon: it must be in contact"):
        declare(state, "axis", "near", Fire(target="pershing"))
    with pytest.raises(
        IllegalCommand, match="^infantry may not attack M26 Pershing in contact from the front$"
    ):
        declare(state, "axis", "front", Fire(target="pershing"))
    state, events = fire(state, "axis", "side", "pershing", d10(5), d10(9))
    assert fire_text(events) == (
        'Flankers fires at M26 Pershing (0.0"): needs 4+ (+1 close range); rolled 5: 1 hit; 1 marker. '
        'Penetration (side) 9+3+1 within 6"=13 vs 14: bounces'
    )
    assert state.units["pershing"].morale_markers == 1


def test_infantry_in_contact_with_a_vehicle_penetrate_on_a_natural_10_p12():
    state, events = fire(contact_game(), "axis", "side", "pershing", d10(5), d10(10), d6(4))
    assert fire_text(events) == (
        'Flankers fires at M26 Pershing (0.0"): needs 4+ (+1 close range); rolled 5: 1 hit; 1 marker. '
        "Penetration (side) a 10 in contact always penetrates: penetrates. "
        "Damage d6 4: Foom! Vehicle destroyed"
    )
    assert state.units["pershing"].destroyed


# --- tank guns and infantry (p. 10) ---------------------------------------------------------------


def tank_gun_game(cover):
    terrain = [] if cover is None else [box("cover", "woods", 40, 30, 60, 40, going=Going.ROUGH, cover=cover)]
    return started(
        game(
            make_unit("german", "Panther", "axis", (50, 45), facing=270, unit_id="panther"),
            make_unit("us", "Infantry Detachment", "allies", (50, 35), unit_id="gis", name="GIs"),
            terrain=terrain,
        ),
        "axis",
    )


SHOT = (
    'Panther fires at GIs (7.0"): needs 5+ (+1 close range, -1 enemy infantry within 12"); '
    "rolled 5, 9: 2 hits; "
)


def test_tank_gun_7_plus_adds_up_to_two_extra_markers_on_infantry_in_cover_at_close_range_p10():
    state, events = fire(
        tank_gun_game(CoverKind.COVER), "axis", "panther", "gis", d10(5), d10(9), d6(4), d6(5)
    )
    assert fire_text(events) == SHOT + "1 marker, casualty 4+ rolled 4, 5: +2 -> GIs has 3 markers"
    assert state.units["gis"].morale_markers == 3
    shot = fire_data(events)
    assert shot.to_hit == ToHit(
        needed=5, modifiers=(("close range", 1), ('enemy infantry within 12"', -1)), rolls=(5, 9), hits=2
    )
    assert (shot.markers_placed, shot.markers) == (3, 3)


def test_tank_gun_7_plus_adds_only_one_extra_marker_on_infantry_in_the_open_p10():
    state, events = fire(tank_gun_game(None), "axis", "panther", "gis", d10(5), d10(9), d6(4), d6(5))
    assert fire_text(events) == SHOT + "1 marker, casualty 4+ rolled 4, 5: +1 -> GIs has 2 markers"


def test_tank_gun_7_plus_treats_fortifications_as_cover_with_one_extra_marker_p10():
    state, events = fire(
        tank_gun_game(CoverKind.FORTIFICATION), "axis", "panther", "gis", d10(5), d10(9), d6(5), d6(6)
    )
    assert fire_text(events) == SHOT + "1 marker, casualty 5+ rolled 5, 6: +1 -> GIs has 2 markers"


def infantry_behind_a_barn(*hidden_sniper):
    return started(
        game(
            make_unit("german", "Panther", "axis", (50, 45), facing=270, unit_id="panther"),
            make_unit("us", "Sherman 75mm", "allies", (50, 15), facing=90, unit_id="sherman"),
            make_unit("us", "Infantry Detachment", "allies", (62, 45), unit_id="gis", name="GIs"),
            *hidden_sniper,
            terrain=[box("barn", "building", 55, 40, 58, 50, blocks_sight=True, cover=CoverKind.COVER)],
        ),
        "axis",
    )


def test_enemy_infantry_near_a_firing_vehicle_counts_even_unseen_p10():
    """The -1 for enemy infantry within 12" of a firing vehicle has no sight condition (p. 10),
    unlike the half move of p. 8."""
    state = infantry_behind_a_barn()
    assert "GIs" not in [u.name for u in visible_enemies(state, state.units["panther"])]
    _, events = fire(state, "axis", "panther", "sherman", d10(1))
    assert (
        fire_text(events)
        == 'Panther fires at Sherman 75mm (26.0"): needs 6+ (-1 enemy infantry within 12"); rolled 1: miss'
    )


def test_a_hidden_sniper_near_a_firing_vehicle_gives_nothing_away_p10_p20():
    sniper = make_unit("us", "Sniper Team", "allies", (40, 45), unit_id="sniper", hidden=True)
    state = infantry_behind_a_barn(sniper)
    state.units["gis"].position = P(90, 45)
    _, events = fire(state, "axis", "panther", "sherman", d10(1))
    assert fire_text(events) == 'Panther fires at Sherman 75mm (26.0"): needs 5+; rolled 1: miss'
