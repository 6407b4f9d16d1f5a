"""A game under the House Rules V1.0 through the game flow: the rule set chosen at creation,
the quick reference's units, the reaction table, reactivation, quality tokens and direct fire,
with scripted dice and exact outcomes."""

import pytest

from engine.commands import (
    Declare,
    Embark,
    Fire,
    LaySmoke,
    MoraleTestOrder,
    Move,
    React,
    StartGame,
    UnitOrder,
)
from engine.dice import ScriptedDice, d6, d10
from engine.errors import IllegalCommand
from engine.event_data import FireData, ToHit
from engine.events import EventLog
from engine.rulesets import find_rule_set, with_rule_set
from engine.scenarios.new_game import make_unit
from engine.state import CoverKind, Going, Phase, TerrainFeature
from engine.variants.house_v1.buildings import spread_fires
from engine.variants.house_v1.commands import (
    Bombard,
    ChooseDefender,
    CloseCombat,
    EnterBuilding,
    RequestFire,
    ShellBuilding,
)
from engine.variants.house_v1.indirect_fire.play import expire_fire_markers
from engine.variants.house_v1.smoke.screens import thin_smoke
from engine.variants.house_v1.state import SmokeScreen
from engine.variants.house_v1.traits import Experience
from tests.engine.helpers import P, act, box, declare, fire_text, game, play, started


def house(*units, **kw):
    return with_rule_set(game(*units, sides={"allies": "british", "axis": "german"}, **kw), "house-v1")


def test_a_game_takes_the_quick_references_units_when_it_lists_them_s2():
    state = house(
        make_unit("british", "Sherman 75mm", "allies", (10, 10), unit_id="sherman"),
        make_unit("german", "Panzer IV G (late) to J", "axis", (10, 40), unit_id="panzer"),
        make_unit("german", "Sd.Kfz 234/2 8-Rad Puma", "axis", (20, 40), unit_id="puma"),
    )
    assert state.ruleset == "house_v1"
    assert state.units["sherman"].profile.name == "Sherman 75mm" and state.units["sherman"].profile.house
    assert state.units["panzer"].profile.name == "Pz IV H/J"  # 14/10, as the 2015 entry
    puma = state.units["puma"].profile  # not in the quick reference: the 2015 unit seen the house way
    assert puma.name == "Sd.Kfz 234/2 8-Rad Puma" and puma.house.light


def test_an_unknown_rule_set_is_refused():
    with pytest.raises(IllegalCommand, match="There is no rule set 'house-v2': choose core_2015 or house_v1"):
        find_rule_set("house-v2")


def duel():
    return house(
        make_unit("british", "Infantry Detachment", "allies", (30, 10), unit_id="squad", facing=90),
        make_unit("british", "Sherman 75mm", "allies", (50, 10), unit_id="sherman", facing=90),
        make_unit("german", "Infantry Detachment", "axis", (30, 20), unit_id="gruppe", facing=270),
        make_unit("german", "Panther", "axis", (50, 40), unit_id="panther", facing=270),
        make_unit("german", "Sd.Kfz 123 Luchs", "axis", (70, 40), unit_id="scout", facing=270),
    )


def test_infantry_fire_small_arms_two_d10_within_12_and_a_casualty_throw_s5():
    state = started(duel(), "allies")
    # 2 dice within 12"; 5+ hits; casualty throw: infantry in the open 4+
    state, events = act(state, "allies", "squad", Fire(target="gruppe"), faces=[d10(5), d10(3), d6(4)])
    assert fire_text(events) == (
        'Infantry Detachment fires small arms (infantry squad) at Infantry Detachment (8.0"): needs 5+; '
        "rolled 5, 3: 1 hit; casualty throw (infantry, open) 4+, rolled 4: "
        "2 markers -> Infantry Detachment has 2 markers (House Rules HR5.7)"
    )
    assert state.units["gruppe"].morale_markers == 2


def test_a_tank_fires_he_at_infantry_one_die_beyond_12_s5():
    state = started(duel(), "allies")
    state, events = act(state, "allies", "sherman", Fire(target="gruppe"), faces=[d10(7), d6(3)])
    text = fire_text(events)
    assert text.startswith("Sherman 75mm fires high explosive (gun) at Infantry Detachment")
    assert text.endswith(
        "casualty throw (medium HE, open) 4+, rolled 3: 1 marker -> Infantry Detachment has 1 marker "
        "(House Rules HR5.7)"
    )


def test_ap_fire_penetration_and_damage_against_the_front_within_60_degrees_s5():
    state = started(duel(), "allies")
    state.units["sherman"].position = P(50, 28)  # 12" or less: two dice
    # Panther front 17; AP 8; a double hit: d10 7 + 8 + 2 = 17 -> equal: a second marker
    state, events = act(state, "allies", "sherman", Fire(target="panther"), faces=[d10(6), d10(9), d10(7)])
    assert fire_text(events).endswith(
        "; 1 marker; penetration 7+8+2 double hit against front armour 17: equal, +1 marker "
        "(House Rules HR5.5)"
    )
    assert state.units["panther"].morale_markers == 2


def test_armour_far_beyond_the_ap_is_not_even_marked_s5():
    state = started(duel(), "allies")
    state.units["sherman"].position = P(50, 28)
    state.units["sherman"].profile = state.units["sherman"].profile.model_copy(update={"weapon": 5})
    state.units["sherman"].profile = state.units["sherman"].profile.model_copy(
        update={"house": state.units["sherman"].profile.house.model_copy(update={"ap": 5})}
    )
    state, events = act(state, "allies", "sherman", Fire(target="panther"), faces=[d10(6), d10(9), d10(10)])
    assert fire_text(events).endswith("; AP 5 cannot hurt front armour 17: no effect (House Rules HR5.5)")
    assert state.units["panther"].morale_markers == 0


def test_infantry_without_an_iaw_cannot_fire_at_an_afv_s5():
    state = started(duel(), "allies")
    state.units["scout"].position, state.units["scout"].facing = P(30, 12), 0.0
    # in contact with its side: the 2015 rules (p. 11) would let it fire
    with pytest.raises(
        IllegalCommand, match="has no anti-tank weapon: infantry fight armour only in close combat"
    ):
        declare(state, "allies", "squad", Fire(target="scout"))


def test_a_light_elite_scout_car_reacts_on_2_plus_tokens_and_ignores_markers_s3():
    state = started(duel(), "allies")
    state.units["scout"].morale_markers = 2
    state, _ = declare(state, "allies", "squad", Move(path=(P(30, 14),)))
    order = UnitOrder(unit="scout", actions=(Move(path=(P(70, 44),)),))
    state, events = play(state, React(side="axis", window=state.pending.window, order=order), d6(2))
    test = next(e for e in events if e.kind == "reaction_test")
    assert "needs 2+ (base 2+, markers ignored, House Rules HR3.4), rolled 2: success" in test.text


def test_a_default_unit_reacts_on_3_plus_tokens_plus_markers_with_no_vehicle_penalty_s3():
    state = started(duel(), "allies")
    state.units["panther"].morale_markers = 1
    state, _ = declare(state, "allies", "squad", Move(path=(P(30, 14),)))
    order = UnitOrder(unit="panther", actions=(Move(path=(P(50, 44),)),))
    state, events = play(state, React(side="axis", window=state.pending.window, order=order), d6(3))
    test = next(e for e in events if e.kind == "reaction_test")
    assert "needs 4+ (base 3+, +1 morale marker, House Rules HR3.4), rolled 3: failed" in test.text


def test_veterans_throw_for_each_token_they_bring_s3():
    state = duel()
    veteran = state.units["gruppe"].profile.house.model_copy(update={"experience": Experience.VETERAN})
    state.units["gruppe"].profile = state.units["gruppe"].profile.model_copy(update={"house": veteran})
    # tokens are drawn allies first, then axis: the veteran's d6 comes with the axis draw
    state, events = play(state, StartGame(), d6(6), d6(4), d6(1))
    lines = [e.text for e in events]
    assert "Infantry Detachment (veteran) rolls 6: +1 token (House Rules HR3.1)" in lines
    assert state.sides["axis"].tokens == 3 + 1


def test_command_rethrows_reach_only_6_under_the_house_rules_s3():
    state = house(
        make_unit("british", "Infantry Detachment", "allies", (10, 10), unit_id="hq", command=True),
        make_unit("british", "Infantry Detachment", "allies", (20, 10), unit_id="able"),  # 8" off
        make_unit("british", "Infantry Detachment", "allies", (14, 10), unit_id="dog"),  # 2" off
        make_unit("german", "Infantry Detachment", "axis", (60, 45), unit_id="gren"),
    )
    state = started(state, "allies")
    state.units["able"].tokens = state.units["dog"].tokens = 1
    state, events = act(state, "allies", "able", Move(path=(P(20, 14),)), faces=[d6(1)])
    assert [e.kind for e in events][1:] == ["activation_test"]  # no re-roll at 8"
    state, events = act(state, "allies", "dog", Move(path=(P(14, 14),)), faces=[d6(1), d6(4)])
    assert "Infantry Detachment fails with 1; the command unit orders a re-roll" in [e.text for e in events]


def test_support_squads_may_not_move_and_fire_s4():
    state = started(
        house(
            make_unit("german", "MG Team", "axis", (30, 40), unit_id="mg", facing=270),
            make_unit("british", "Infantry Detachment", "allies", (30, 20), unit_id="squad"),
        ),
        "axis",
    )
    assert state.units["mg"].profile.name == "Tripod MG team"
    with pytest.raises(
        IllegalCommand, match="MG Team is a support squad: it may move or fire in one activation, not both"
    ):
        declare(state, "axis", "mg", Move(path=(P(30, 38),)), Fire(target="squad"))


def test_a_veteran_unit_has_two_markers_taken_off_on_a_5_s7():
    state = started(
        house(
            make_unit("british", "Infantry Detachment", "allies", (10, 10), unit_id="vets"),
            make_unit("german", "Infantry Detachment", "axis", (60, 45), unit_id="gren"),
        ),
        "allies",
    )
    vets = state.units["vets"]
    vets.morale_markers = 3
    vets.profile = vets.profile.model_copy(
        update={"house": vets.profile.house.model_copy(update={"experience": Experience.VETERAN})}
    )
    # taken first after gaining the initiative: no reaction is allowed (s. 3)
    state, events = play(state, Declare(side="allies", order=MoraleTestOrder()), d6(5))
    lines = [e.text for e in events]
    assert "Infantry Detachment loses 2 morale markers (1 left) (House Rules HR7.1)" in lines


# --- close combat (s. 4, s. 6) -----------------------------------------------------------------


def melee():
    """A British squad 2" from a German one; a Sherman and a German MG team further off."""
    return started(
        house(
            make_unit("british", "Infantry Detachment", "allies", (30, 10), unit_id="tommies"),
            make_unit("british", "Sherman 75mm", "allies", (60, 10), unit_id="sherman", facing=90),
            make_unit("german", "Infantry Detachment", "axis", (30, 14), unit_id="gruppe"),
            make_unit("german", "MG Team", "axis", (45, 20), unit_id="mg"),
            make_unit("german", "Panzer IV G (late) to J", "axis", (10, 40), unit_id="panzer"),
        ),
        "allies",
    )


def assault(state, unit, target, *before):
    return declare(state, "allies", unit, *before, CloseCombat(target=target))


def charge(state, unit, target, *faces):
    order = UnitOrder(unit=unit, actions=(CloseCombat(target=target),))
    return play(state, Declare(side="allies", order=order), *faces)


def test_a_charge_at_once_that_passes_initiation_allows_no_reaction_and_fights_two_rounds_s6():
    faces = [
        d6(3),  # initiation: 3+ (no tokens, no markers)
        *(d10(5), d10(2), d6(4)),  # round 1, the defenders first: 1 hit, casualty 4+: 1 + 1 markers
        *(d10(7), d10(8), d6(1), d6(4)),  # the attackers (-2 for their markers): 2 hits, 1 + 1
        *(d10(1), d10(1)),  # round 2: the defenders (-2) miss
        *(d10(9), d10(7), d6(6), d6(6)),  # the attackers: 2 hits, 1 + 2 markers: 5 in all
    ]
    state, events = charge(melee(), "tommies", "gruppe", *faces)
    lines = [e.text for e in events]
    assert lines[1:3] == [
        "Infantry Detachment goes in: initiation test rolled 3: passed (House Rules HR6.2)",
        "No reaction is allowed to a close combat charged at once (House Rules s. 3)",
    ]
    assert lines[3:] == [
        "Round 1: Infantry Detachment fires at Infantry Detachment: needs 5+; rolled 5, 2: 1 hit; "
        "casualty 4+ rolled 4: 2 markers (House Rules HR6.3)",
        "Round 1: Infantry Detachment fires at Infantry Detachment: needs 5+ (2 morale markers -2); "
        "rolled 7, 8: 2 hits; casualty 4+ rolled 1, 4: 2 markers (House Rules HR6.3)",
        "Round 2: Infantry Detachment fires at Infantry Detachment: needs 5+ (2 morale markers -2); "
        "rolled 1, 1: miss (House Rules HR6.3)",
        "Round 2: Infantry Detachment fires at Infantry Detachment: needs 5+ (2 morale markers -2); "
        "rolled 9, 7: 2 hits; casualty 4+ rolled 6, 6: 3 markers (House Rules HR6.3)",
        "Infantry Detachment holds: Infantry Detachment falls back to 30.0,6.0",
    ]
    assert (
        state.units["gruppe"].morale_markers == 5 and not state.units["gruppe"].destroyed
    )  # 5 is its morale
    volleys = [e.data for e in events if isinstance(e.data, FireData)]
    assert {v.at for v in volleys} == {P(30, 13)}  # where they met, before the attackers fell back
    assert state.units["tommies"].morale_markers == 2 and state.phase is Phase.ACTIVE


def test_defenders_destroyed_in_the_first_round_leave_the_attackers_in_contact_s6():
    state = melee()
    state.units["gruppe"].morale_markers = 4
    faces = [d6(4), d10(1), d10(1), d10(9), d10(9), d6(4), d6(4)]  # 3 more markers: 7 > 5
    state, events = charge(state, "tommies", "gruppe", *faces)
    assert state.units["gruppe"].destroyed and state.units["tommies"].position == P(30, 12)


def test_a_failed_initiation_fires_instead_and_the_window_opens_s6():
    state, events = charge(melee(), "tommies", "gruppe", d6(2))
    assert "Infantry Detachment goes in: initiation test rolled 2: failed (House Rules HR6.2)" in [
        e.text for e in events
    ]
    assert state.phase is Phase.REACTION
    assert state.pending.order.actions == (Fire(target="gruppe"),)


def test_a_move_that_ends_within_3_of_an_enemy_is_refused_unless_it_assaults_s4():
    state = melee()
    state.units["tommies"].position = P(30, 4)
    with pytest.raises(IllegalCommand, match='would end 2.0" from Infantry Detachment: no nearer than 3"'):
        declare(state, "allies", "tommies", Move(path=(P(30, 10),)))
    state, _ = assault(state, "tommies", "gruppe", Move(path=(P(30, 10),)))
    assert state.phase is Phase.REACTION  # a move and an assault: the enemy may react first


def test_before_a_close_combat_the_enemy_reacts_by_moving_or_firing_not_both_s6():
    state = melee()
    state.units["tommies"].position = P(30, 4)
    state, _ = assault(state, "tommies", "gruppe", Move(path=(P(30, 10),)))
    both = UnitOrder(unit="mg", actions=(Move(path=(P(45, 22),)), Fire(target="tommies")))
    with pytest.raises(IllegalCommand, match="may react by firing or moving, not both"):
        play(state, React(side="axis", window=state.pending.window, order=both))


def test_an_enclosed_afv_may_pass_within_3_s4():
    state = melee()
    state.units["sherman"].position = P(50, 15)
    state, _ = declare(state, "allies", "sherman", Move(path=(P(48, 18),)))  # under 3" from the MG team
    assert state.phase is Phase.REACTION


def test_infantry_attack_an_enclosed_afv_in_one_round_marking_it_with_any_hit_s6():
    state = melee()
    panzer = state.units["panzer"]
    panzer.position, panzer.facing = P(33, 10), 90.0  # side on, 0.5" away: the turret turns 90 to fire its MG
    faces = [
        d6(3),  # initiation
        d10(3),  # the panzer's turret MG: a miss
        d10(6),
        d10(5),  # the squad: a double hit, whatever the armour: a marker
        d10(1),  # penetration: 1 + AP 3 + 2 = 6 against side armour 10: bounces
    ]
    state, events = charge(state, "tommies", "panzer", *faces)
    lines = [e.text for e in events]
    assert (
        lines[3] == "Round 1: Panzer IV G (late) to J fires at Infantry Detachment: needs 5+; rolled 3: miss "
        "(House Rules HR6.5)"
    )
    assert lines[4] == (
        "Round 1: Infantry Detachment fires at Panzer IV G (late) to J: needs 5+; rolled 6, 5: 2 hits; "
        "1 marker; penetration 6 against side armour 10: bounces (House Rules HR6.5)"
    )
    assert state.units["panzer"].morale_markers == 1
    assert lines[5].startswith("Panzer IV G (late) to J holds: Infantry Detachment falls back")


def test_an_enclosed_afv_overruns_a_support_squad_and_crushes_it_s6():
    state = started(
        house(
            make_unit("british", "Sherman 75mm", "allies", (45, 14), unit_id="sherman", facing=90),
            make_unit("german", "MG Team", "axis", (45, 20), unit_id="mg", facing=270),
        ),
        "allies",
    )
    faces = [
        d6(3),  # the Sherman's initiation
        d6(2),  # the MG team fails to stand: it does not fire, and is in cover
        d10(4),
        d10(2),  # hull and turret MGs: no hit
    ]
    state, events = charge(state, "sherman", "mg", *faces)
    lines = [e.text for e in events]
    assert "MG Team stands to face it: initiation test rolled 2: failed (House Rules HR6.2)" in lines
    assert "Sherman 75mm drives over MG Team: crushed (House Rules HR6.6)" in lines
    assert state.units["mg"].destroyed


def test_who_may_not_close_combat_s6():
    state = melee()
    state.active_side = "axis"
    state.units["mg"].position = P(34, 10)
    with pytest.raises(IllegalCommand, match="Only infantry squads attack in close combat"):
        declare(state, "axis", "mg", CloseCombat(target="tommies"))
    state.active_side = "allies"
    state.units["sherman"].position = P(14, 36)
    with pytest.raises(IllegalCommand, match="Vehicles cannot close combat each other"):
        declare(state, "allies", "sherman", CloseCombat(target="panzer"))
    core = started(
        game(
            make_unit("british", "Infantry Detachment", "allies", (30, 10), unit_id="tommies"),
            make_unit("german", "Infantry Detachment", "axis", (30, 14), unit_id="gruppe"),
        ),
        "allies",
    )
    with pytest.raises(IllegalCommand, match="Close combat is part of the House Rules V1.0"):
        assault(core, "tommies", "gruppe")


# --- observation (s. 8) --------------------------------------------------------------------------


def hedgerow():
    """British infantry facing German infantry lying 10" away in a wood."""
    wood = box("wood", "woods", 20, 26, 40, 34, going=Going.ROUGH, cover=CoverKind.COVER)
    return dict(
        units=(
            make_unit("british", "Infantry Detachment", "allies", (30, 14), unit_id="tommies"),
            make_unit("german", "Infantry Detachment", "axis", (30, 28), unit_id="gruppe"),
        ),
        terrain=[wood],
    )


def test_static_infantry_in_cover_is_seen_only_within_6_s8():
    setup = hedgerow()
    state = started(house(*setup["units"], terrain=setup["terrain"]), "allies")
    with pytest.raises(IllegalCommand, match="Infantry Detachment cannot see Infantry Detachment"):
        declare(state, "allies", "tommies", Fire(target="gruppe"))
    state.units["tommies"].position = P(30, 21)  # 5" off
    state, _ = declare(state, "allies", "tommies", Fire(target="gruppe"))
    assert state.phase is Phase.REACTION


def test_a_unit_that_fired_or_moved_is_seen_wherever_there_is_line_of_sight_s8():
    setup = hedgerow()
    state = started(house(*setup["units"], terrain=setup["terrain"]), "allies")
    state.units["gruppe"].fired_this_turn = True
    state, _ = declare(state, "allies", "tommies", Fire(target="gruppe"))
    assert state.phase is Phase.REACTION


def test_the_2015_rules_have_no_observation_distances():
    setup = hedgerow()
    state = started(game(*setup["units"], terrain=setup["terrain"]), "allies")
    state, _ = declare(state, "allies", "tommies", Fire(target="gruppe"))
    assert state.phase is Phase.REACTION


# --- transports (s. 3, s. 5) ------------------------------------------------------------------


def lorry():
    state = started(
        house(
            make_unit("british", "Truck/Jeep", "allies", (30, 14), unit_id="lorry", facing=90),
            make_unit("british", "Infantry Detachment", "allies", (30, 14), unit_id="tommies"),
            make_unit("german", "MG Team", "axis", (30, 24), unit_id="mg", facing=270),
        ),
        "axis",
    )
    state.units["tommies"].embarked_in = "lorry"
    return state


def test_markers_on_a_loaded_transport_go_on_the_unit_it_carries_s3_s5():
    state = lorry()
    assert state.units["lorry"].profile.name == "Soft vehicles"
    # tripod MG, 2 dice within 12"; a soft vehicle takes the casualty throw: MG in the open 3+
    state, events = act(state, "axis", "mg", Fire(target="lorry"), faces=[d10(6), d10(2), d6(3)])
    assert "Infantry Detachment, carried, takes the 2 markers" in [e.text for e in events]
    assert state.units["tommies"].morale_markers == 2 and state.units["lorry"].morale_markers == 0


def test_back_in_its_transport_a_unit_keeps_the_larger_count_of_markers_s3():
    state = lorry()
    state.units["tommies"].embarked_in = None
    state.units["tommies"].position = P(30, 12)
    state.units["tommies"].morale_markers, state.units["lorry"].morale_markers = 1, 2
    state.active_side = "allies"
    state, _ = act(state, "allies", "tommies", Embark(transport="lorry"))
    assert (state.units["tommies"].morale_markers, state.units["lorry"].morale_markers) == (2, 0)


# --- indirect fire (s. 5) ------------------------------------------------------------------------


def battery():
    """A British company command spotting for a 3" mortar; a German squad 30" off in the open."""
    return started(
        house(
            make_unit("british", "Infantry Detachment", "allies", (20, 10), unit_id="hq", command=True),
            make_unit("british", "Mortar Team", "allies", (20, 2), unit_id="mortar", facing=90),
            make_unit("british", "Infantry Detachment", "allies", (60, 10), unit_id="tommies"),
            make_unit("german", "Infantry Detachment", "axis", (20, 40), unit_id="gruppe"),
        ),
        "allies",
    )


def test_a_spotter_places_a_marker_and_a_mortar_fires_at_it_s5():
    state, events = act(battery(), "allies", "hq", RequestFire(at=P(20, 40)), faces=[d10(5)])
    assert (
        "Infantry Detachment calls for fire at 20.0,40.0: needs 5+; rolled 5: marker placed "
        "(House Rules HR5.91)" in [e.text for e in events]
    )
    assert state.fire_markers[0].at == P(20, 40) and state.fire_markers[0].placed
    request = next(e.data for e in events if e.kind == "indirect")
    assert (request.test, request.unit, request.needed, request.roll, request.passed) == (
        "request fire",
        "hq",
        5,
        5,
        True,
    )
    # a d10 of 10 lands on the marker; the squad under it takes 2 medium HE dice needing 4+ (open)
    state, events = act(state, "allies", "mortar", Bombard(), faces=[d10(10), d6(3), d6(4), d6(2)])
    lines = [e.text for e in events]
    landed, effect = [e.data for e in events if isinstance(e.data, FireData)]
    assert (landed.firer, landed.target, landed.at, landed.indirect) == ("mortar", None, P(20, 40), True)
    assert landed.aim == P(20, 40)  # the marker it was fired at (the picture draws any stray from it)
    assert (effect.target, effect.distance, effect.markers_placed) == ("gruppe", 0.0, 1)
    assert not effect.along_a_line_of_fire  # the overlay draws no arrow for a shell
    assert "Mortar Team fires at the marker: d10 10, d6 3: lands on the marker (House Rules HR5.92)" in lines
    assert (
        'Infantry Detachment (0.0" away, open) takes 2 medium HE dice needing 4+: rolled 4, 2: 1 marker '
        "(House Rules HR5.93)" in lines
    )
    assert state.units["gruppe"].morale_markers == 1


def test_a_units_later_shots_stray_by_the_difference_of_two_d6_s5():
    state, _ = act(battery(), "allies", "hq", RequestFire(at=P(20, 40)), faces=[d10(5)])
    state, _ = act(state, "allies", "mortar", Bombard(), faces=[d10(1), d6(3)])  # a 1: the shot fails
    state.units["mortar"].tokens = 0  # (spare the reactivation test)
    state, events = act(state, "allies", "mortar", Bombard(), faces=[d10(6), d6(6), d6(4), d6(5)])
    # face 6 is half way round from the x axis: 2" toward the left edge; 1-2" off, one die
    lines = [e.text for e in events]
    assert (
        'Mortar Team fires at the marker: d10 6, d6 6 and 4: lands 2" off, at 18.0,40.0 (House Rules HR5.92)'
        in lines
    )
    assert (
        'Infantry Detachment (2.0" away, open) takes 1 medium HE dice needing 4+: rolled 5: 1 marker '
        "(House Rules HR5.93)" in lines
    )


def test_a_failed_request_is_tried_again_with_the_best_of_two_d10_s5():
    state, events = act(battery(), "allies", "hq", RequestFire(at=P(20, 40)), faces=[d10(3)])
    assert not state.fire_markers[0].placed
    state.units["hq"].tokens = 0
    state, events = act(state, "allies", "hq", RequestFire(at=P(20.5, 40)), faces=[d10(2), d10(6)])
    placed = "rolled 2, 6 (best of two): marker placed (House Rules HR5.91)"
    assert any(e.text.endswith(placed) for e in events)


def test_indirect_fire_refusals_s5():
    state = battery()
    with pytest.raises(IllegalCommand, match="Mortar Team is not a spotter"):
        declare(state, "allies", "mortar", RequestFire(at=P(20, 40)))
    with pytest.raises(IllegalCommand, match="The Allies have no fire marker this turn"):
        declare(state, "allies", "mortar", Bombard())
    state, _ = act(state, "allies", "hq", RequestFire(at=P(20, 40)), faces=[d10(5)])
    state.units["hq"].tokens = 0
    with pytest.raises(
        IllegalCommand, match="The Allies already have their fire marker for this turn, at 20.0,40.0"
    ):
        declare(state, "allies", "hq", RequestFire(at=P(40, 40)))
    state.units["mortar"].position = P(20, 25)
    with pytest.raises(IllegalCommand, match='indirect fire needs 18" or more'):
        declare(state, "allies", "mortar", Bombard())
    with pytest.raises(IllegalCommand, match="Infantry Detachment cannot fire indirectly"):
        declare(state, "allies", "hq", Bombard())


def test_a_marker_unused_for_a_whole_turn_is_removed_s5():
    state, _ = act(battery(), "allies", "hq", RequestFire(at=P(20, 40)), faces=[d10(5)])
    state.turn += 1
    expire_fire_markers(state)
    assert len(state.fire_markers) == 1  # still there in the following turn, to be taken up
    state.turn += 1
    expire_fire_markers(state)
    assert state.fire_markers == []


# --- smoke (s. 5) -------------------------------------------------------------------------------


def smoke_range():
    """A Sherman and a British squad facing a German squad 14" off, all in the open."""
    return started(
        house(
            make_unit("british", "Sherman 75mm", "allies", (40, 10), unit_id="sherman", facing=90),
            make_unit("british", "Infantry Detachment", "allies", (20, 10), unit_id="tommies"),
            make_unit("german", "Infantry Detachment", "axis", (20, 26), unit_id="gruppe"),
        ),
        "allies",
    )


def test_a_smoke_round_that_hits_puts_a_2_inch_puff_which_blocks_sight_s5():
    state = smoke_range()
    state.units["gruppe"].fired_this_turn = True  # seen at any range
    state, events = act(state, "allies", "sherman", LaySmoke(at=P(20, 18)), faces=[d10(6)])
    assert [e.text for e in events][1:3] == [
        "Sherman 75mm fires smoke at 20.0,18.0: needs 5+; rolled 6: on target (House Rules HR5.97)",
        "A puff of smoke at 20.0,18.0",
    ]
    fired = events[1].data
    assert isinstance(fired, FireData)
    assert (fired.firer, fired.target, fired.at) == ("sherman", None, P(20, 18))
    assert round(fired.distance, 1) == 19.7
    assert fired.to_hit == ToHit(needed=5, rolls=(6,), hits=1)
    with pytest.raises(IllegalCommand, match="cannot see"):
        declare(state, "allies", "tommies", Fire(target="gruppe"))


def test_a_puff_within_2_of_a_screen_lengthens_it_and_the_wind_thins_it_s5():
    state = smoke_range()
    state, _ = act(state, "allies", "sherman", LaySmoke(at=P(20, 18)), faces=[d10(6)])
    state.units["sherman"].tokens = 0
    state, events = act(state, "allies", "sherman", LaySmoke(at=P(21, 18)), faces=[d10(7)])
    assert state.smoke_screens[0].puffs == (P(20, 18), P(22, 18))  # placed next to the first
    log = EventLog(ScriptedDice([d6(6), d6(2)]))  # a 6 is thrown again; 2: from the left
    thin_smoke(state, log)
    assert [e.text for e in log.events] == [
        "The wind thins the screen from the left (d6 2): the puff at 20.0,18.0 clears (House Rules HR5.97)"
    ]
    assert state.smoke_screens[0].puffs == (P(22, 18),) and state.wind == "left"  # one wind for all
    log = EventLog(ScriptedDice([]))
    thin_smoke(state, log)  # an isolated puff clears
    assert state.smoke_screens == []


def test_only_a_gun_fires_smoke_and_at_a_spot_s5():
    state = smoke_range()
    with pytest.raises(IllegalCommand, match="Infantry Detachment has no gun to fire smoke with"):
        declare(state, "allies", "tommies", LaySmoke(at=P(20, 18)))
    with pytest.raises(IllegalCommand, match="smoke is fired at a spot"):
        declare(state, "allies", "sherman", LaySmoke())


def test_a_mortar_fires_smoke_at_the_marker_s5():
    state, _ = act(battery(), "allies", "hq", RequestFire(at=P(20, 40)), faces=[d10(5)])
    state, events = act(state, "allies", "mortar", Bombard(smoke=True), faces=[d10(10), d6(3)])
    assert "A puff of smoke at 20.0,40.0" in [e.text for e in events]
    assert state.units["gruppe"].morale_markers == 0


def test_a_tank_chooses_its_coaxial_or_hull_mg_instead_of_the_gun_s5():
    state = started(duel(), "allies")
    state, events = act(state, "allies", "sherman", Fire(target="gruppe", weapon="mg"), faces=[d10(8), d6(2)])
    assert fire_text(events).startswith("Sherman 75mm fires machine gun (turret MG) at Infantry Detachment")
    with pytest.raises(IllegalCommand, match="hull MG cannot reach"):
        declare(state, "allies", "sherman", Fire(target="gruppe", weapon="hull_mg"))


def test_a_gun_without_he_does_not_fire_at_troops_s5():
    state = started(
        house(
            make_unit("british", "Sherman Firefly", "allies", (30, 10), unit_id="firefly", facing=90),
            make_unit("german", "Infantry Detachment", "axis", (30, 30), unit_id="gruppe"),
        ),
        "allies",
    )
    state.units["gruppe"].fired_this_turn = True
    with pytest.raises(IllegalCommand, match="Sherman Firefly's gun has no HE round: use its machine gun"):
        declare(state, "allies", "firefly", Fire(target="gruppe", weapon="gun"))


# --- buildings (s. 4, s. 5) ----------------------------------------------------------------------


def CHURCH():
    return box("church", "building", 42, 27, 49, 33, going=Going.ROUGH, cover=CoverKind.COVER, building=True)


def BARN():
    return box("barn", "building", 49.5, 27, 53, 31, going=Going.ROUGH, cover=CoverKind.COVER, building=True)


def village():
    return started(
        house(
            make_unit(
                "german", "Infantry Detachment", "axis", (45.5, 30), unit_id="gruppe", in_building="church"
            ),
            make_unit("german", "MG Team", "axis", (45.5, 30), unit_id="mg", in_building="church"),
            make_unit("british", "Infantry Detachment", "allies", (45, 22), unit_id="tommies"),
            make_unit("british", "Sherman 75mm", "allies", (30, 10), unit_id="sherman", facing=90),
            make_unit("british", "Flamethrower Team", "allies", (40, 22), unit_id="flame"),
            terrain=[CHURCH(), BARN()],
        ),
        "allies",
    )


def test_troops_go_into_a_building_as_into_a_transport_and_vehicles_keep_out_s4():
    state = village()
    state.units["gruppe"].in_building = state.units["mg"].in_building = None
    state.units["gruppe"].position = P(51, 36)
    state.active_side = "axis"
    state, events = act(state, "axis", "gruppe", EnterBuilding(building="barn"))
    assert "Infantry Detachment goes into barn" in [e.text for e in events]
    assert state.units["gruppe"].in_building == "barn" and state.units["gruppe"].position == P(51.25, 29)
    state.active_side = "allies"
    with pytest.raises(IllegalCommand, match="Sherman 75mm cannot go into a building"):
        declare(state, "allies", "sherman", EnterBuilding(building="church"))
    state.units["tommies"].position = P(56, 30)
    with pytest.raises(IllegalCommand, match="The move ends inside barn: a move stops outside a building"):
        declare(state, "allies", "tommies", Move(path=(P(52, 30),)))


def test_small_arms_reach_troops_inside_only_after_they_fired_out_s5():
    state = village()
    with pytest.raises(IllegalCommand, match="is in church and has not fired out"):
        declare(state, "allies", "tommies", Fire(target="gruppe"))
    state.units["gruppe"].fired_this_turn = True
    # in defences: the infantry column needs 6
    state, events = act(state, "allies", "tommies", Fire(target="gruppe"), faces=[d10(7), d10(1), d6(5)])
    assert fire_text(events).endswith(
        "casualty throw (infantry, defences) 6+, rolled 5: 1 marker -> Infantry Detachment has 1 marker "
        "(House Rules HR5.7)"
    )


def test_he_on_a_building_may_mark_the_others_inside_s5():
    state = village()
    state.units["sherman"].position = P(40, 12)  # not firing through the British squad (s. 8)
    state.units["gruppe"].fired_this_turn = True  # seen
    # one die beyond 12"; the -2 for defences; a hit, casualty medium HE in defences 5+; the MG team rolls a 6
    state, events = act(state, "allies", "sherman", Fire(target="gruppe"), faces=[d10(8), d6(5), d6(6)])
    lines = [e.text for e in events]
    assert "MG Team, in church, rolls 6: 1 marker (House Rules HR5.72)" in lines
    assert state.units["mg"].morale_markers == 1


def test_two_flamethrower_hits_set_the_building_on_fire_and_empty_it_s5():
    state = village()
    state.units["flame"].position, state.units["flame"].facing = P(45, 24), 90.0
    state.units["gruppe"].fired_this_turn = True
    faces = [d10(6), d10(8), d6(1), d6(1)]  # two hits: the casualty throw, then the church burns
    state, events = act(state, "allies", "flame", Fire(target="gruppe"), faces=faces)
    lines = [e.text for e in events]
    assert "church is on fire" in lines
    assert state.units["gruppe"].in_building is None and state.units["mg"].in_building is None
    assert "church" in state.burnt
    state.active_side = "axis"
    with pytest.raises(IllegalCommand, match="church is on fire or burnt out"):
        declare(state, "axis", "gruppe", EnterBuilding(building="church"))
    log = EventLog(ScriptedDice([d6(5)]))  # end of turn: the barn next door catches on a 5
    spread_fires(state, log)
    assert "barn is on fire" in [e.text for e in log.events] and state.fires == {"church": 1, "barn": 2}


def test_an_infantry_attack_that_destroys_the_defenders_takes_the_building_s6():
    state = village()
    state.units["gruppe"].morale_markers = 5
    state.units["tommies"].position = P(45, 25)  # 1" from the church wall
    state, _ = charge(state, "tommies", "gruppe", d6(4))  # initiation passed
    assert state.pending.choice.options == ["gruppe", "mg"]  # s. 6: the Germans choose who defends
    faces = [d10(1), d10(1), d10(9), d10(9), d6(5), d6(5)]
    state, events = play(state, ChooseDefender(side="axis", unit="gruppe"), *faces)
    assert state.units["gruppe"].destroyed
    assert state.units["tommies"].in_building == "church"


def test_a_wall_blocks_sight_unless_one_side_stands_right_behind_it_s8():
    wall = TerrainFeature(
        id="wall",
        kind="wall",
        outline=(P(10, 20), P(50, 20)),
        linear=True,
        width=0.5,
        going=Going.ROUGH,
        cover=CoverKind.COVER,
    )
    state = started(
        house(
            make_unit("british", "Infantry Detachment", "allies", (30, 14), unit_id="tommies"),
            make_unit("german", "Infantry Detachment", "axis", (30, 26), unit_id="gruppe"),
            terrain=[wall],
        ),
        "allies",
    )
    state.units["gruppe"].fired_this_turn = True  # seen at any range, but for the wall
    with pytest.raises(IllegalCommand, match="cannot see"):
        declare(state, "allies", "tommies", Fire(target="gruppe"))
    state.units["tommies"].position = P(30, 18.5)  # up against the wall
    state, _ = declare(state, "allies", "tommies", Fire(target="gruppe"))
    assert state.phase is Phase.REACTION


def test_with_both_sides_inside_nobody_fires_out_and_the_fight_goes_on_within_s6():
    state = village()
    state.units["mg"].in_building, state.units["mg"].position = None, P(60, 40)  # out, and seen
    state.units["mg"].fired_this_turn = True
    tommies = state.units["tommies"]
    tommies.in_building, tommies.position = "church", P(45.5, 30)
    with pytest.raises(IllegalCommand, match="both sides are inside church: nobody fires out of it"):
        declare(state, "allies", "tommies", Fire(target="mg"))
    state, events = charge(state, "tommies", "gruppe", d6(4), *[d10(1)] * 8)
    lines = [e.text for e in events]
    assert lines[-1] == "Infantry Detachment holds: Infantry Detachment stays in church"  # no fall back
    assert state.units["tommies"].in_building == "church"


def test_medium_he_at_a_building_as_a_whole_may_mark_everyone_inside_s5():
    state = village()
    state.units["sherman"].position = P(40, 12)  # not firing through the British squad (s. 8)
    # one die beyond 12", no cover modifier against a building; then a d6 for each unit inside
    state, events = act(
        state, "allies", "sherman", ShellBuilding(building="church"), faces=[d10(5), d6(6), d6(3)]
    )
    lines = [e.text for e in events]
    assert lines[1] == "Sherman 75mm fires HE at church: needs 5+; rolled 5: 1 hit (House Rules HR5.72)"
    shot = events[1].data
    assert (shot.firer, shot.target, shot.building, shot.to_hit.hits) == ("sherman", None, "church", 1)
    assert lines[2:] == [
        "Infantry Detachment, in church, rolls 6: 1 marker (House Rules HR5.72)",
        "MG Team, in church, rolls 3: unharmed (House Rules HR5.72)",
    ]
    state.units["gruppe"].fired_this_turn = True
    state.units["sherman"].tokens = 0
    with pytest.raises(
        IllegalCommand, match="Infantry Detachment has fired out of church: fire at it instead"
    ):
        declare(state, "allies", "sherman", ShellBuilding(building="church"))
    with pytest.raises(IllegalCommand, match="has no medium or heavy HE to fire at a building"):
        declare(state, "allies", "tommies", ShellBuilding(building="church"))


# --- found in review ------------------------------------------------------------------------------


def test_nobody_walks_into_a_building_the_enemy_holds_s6():
    state = village()
    state.units["tommies"].position = P(45, 25)
    with pytest.raises(IllegalCommand, match="The enemy holds church: take it by close combat"):
        declare(state, "allies", "tommies", EnterBuilding(building="church"))


def test_troops_in_a_building_come_out_before_assaulting_anyone_outside_s4():
    state = village()
    state.active_side = "axis"
    state.units["tommies"].position = P(45, 35.5)
    with pytest.raises(IllegalCommand, match="Infantry Detachment must come out of church first"):
        declare(state, "axis", "gruppe", CloseCombat(target="tommies"))


def test_going_into_a_building_is_a_move_for_a_support_squad_s5():
    state = village()
    state.units["flame"].position, state.units["flame"].facing = P(51, 24), 90.0
    state.units["gruppe"].fired_this_turn = True
    with pytest.raises(IllegalCommand, match="is a support squad: it may move or fire"):
        declare(state, "allies", "flame", EnterBuilding(building="barn"), Fire(target="gruppe"))


def test_a_gun_that_must_be_towed_does_not_move_on_its_own_qr():
    state = started(
        house(
            make_unit("british", "17 Pdr Anti-tank Gun", "allies", (30, 10), unit_id="gun", facing=90),
            make_unit("german", "Infantry Detachment", "axis", (30, 40), unit_id="gruppe"),
        ),
        "allies",
    )
    with pytest.raises(IllegalCommand, match="17 Pdr Anti-tank Gun cannot move on its own: it must be towed"):
        declare(state, "allies", "gun", Move(path=(P(30, 12),)))


def test_a_mortar_does_not_fire_from_inside_a_building_and_a_marker_is_not_called_twice_s4_s5():
    state, _ = act(battery(), "allies", "hq", RequestFire(at=P(20, 40)), faces=[d10(5)])
    state.units["hq"].tokens = 0
    with pytest.raises(IllegalCommand, match="The Allies' fire marker is already at 20.0,40.0 this turn"):
        declare(state, "allies", "hq", RequestFire(at=P(20, 40)))
    state.units["mortar"].in_building = "house"
    with pytest.raises(IllegalCommand, match="may not fire a mortar from inside house"):
        declare(state, "allies", "mortar", Bombard())


def test_he_at_troops_inside_who_have_not_fired_goes_at_the_building_instead_s5():
    state = village()
    state.units["sherman"].position = P(45, 22)  # near enough to see them, though silent
    with pytest.raises(IllegalCommand, match="fire HE at the building as a whole \\(shell:church\\)"):
        declare(state, "allies", "sherman", Fire(target="gruppe"))


def test_a_shell_landing_on_a_building_throws_the_collateral_dice_for_everyone_inside_s5():
    state = battery()
    state.terrain = (
        *state.terrain,
        box("house", "building", 18, 38, 22, 42, cover=CoverKind.COVER, building=True),
    )
    state.units["gruppe"].in_building = "house"
    state, _ = act(state, "allies", "hq", RequestFire(at=P(20, 40)), faces=[d10(5)])
    state, events = act(state, "allies", "mortar", Bombard(), faces=[d10(10), d6(3), d6(6)])
    lines = [e.text for e in events]
    assert lines[-2:] == [
        "The shell lands on house (House Rules HR5.95)",
        "Infantry Detachment, in house, rolls 6: 1 marker (House Rules HR5.95)",
    ]


def test_one_wind_blows_on_every_screen_s5():
    state = smoke_range()
    state.smoke_screens = [
        SmokeScreen(puffs=(P(10, 30), P(12, 30))),
        SmokeScreen(puffs=(P(40, 30), P(42, 30))),
    ]
    log = EventLog(ScriptedDice([d6(4), d6(5)]))  # the first throw sets the wind; 1-5 keeps it
    thin_smoke(state, log)
    assert [s.puffs for s in state.smoke_screens] == [(P(10, 30),), (P(40, 30),)]  # both thin from the right


def test_a_fall_back_stops_short_of_a_building_in_the_way_s6():
    state = melee()
    state.terrain = (
        *state.terrain,
        box("shed", "building", 28, 4, 32, 7, cover=CoverKind.COVER, building=True),
    )
    faces = [d6(3), d10(1), d10(1), d10(1), d10(1), d10(1), d10(1), d10(1), d10(1)]
    state, events = charge(state, "tommies", "gruppe", *faces)
    assert events[-1].text == "Infantry Detachment holds: Infantry Detachment falls back to 30.0,7.5"


def test_a_mortar_fires_smoke_only_at_the_marker_s2_s5():
    with pytest.raises(IllegalCommand, match="Mortar Team fires indirectly only: smoke at the fire marker"):
        declare(battery(), "allies", "mortar", LaySmoke(at=P(20, 30)))
