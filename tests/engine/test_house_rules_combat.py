"""Close combat and indirect fire against loaded transports and soft vehicles, overrun troops
answering with their own weapons, and the rule set named in every result (House Rules V1.0,
s. 3, 5 and 6), with scripted dice and exact outcomes."""

from engine.commands import Fire
from engine.dice import d6, d10
from engine.event_data import FireData, RolledTest, ToHit
from engine.scenarios.new_game import make_unit
from engine.variants.house_v1.commands import Bombard, ChooseFallBack, RequestFire
from tests.engine.helpers import P, act, fire_text, game, play, started, texts
from tests.engine.test_house_rules_flow import charge, house

# --- close combat against a loaded transport (s. 6, s. 3 and 5 Transports) ----------------------


def carrier(facing):
    """A British section 4" from an Sd.Kfz 251 carrying a German squad."""
    state = started(
        house(
            make_unit(
                "british", "Infantry Detachment", "allies", (30, 10), unit_id="tommies", name="Tommies"
            ),
            make_unit("german", "251 Halftrack", "axis", (30, 14), unit_id="sdkfz", facing=facing),
            make_unit("german", "Infantry Detachment", "axis", (30, 14), unit_id="gruppe", name="Gruppe"),
        ),
        "allies",
    )
    state.units["gruppe"].embarked_in = "sdkfz"
    return state


def fight_on(state, *faces):
    """The defending vehicle's side chooses to fight the second round (s. 6)."""
    return play(state, ChooseFallBack(side="axis", fall_back=False), *faces)


def test_the_squad_a_transport_carries_fights_and_takes_the_markers_s6():
    faces = [
        d6(3),  # initiation
        d10(2),  # round 1: the carried squad, one die like a support squad: a miss
        *(d10(6), d10(1), d6(5)),  # the section at the halftrack, a target in cover: 5+, 1 + 1 markers
    ]
    state, events = charge(carrier(facing=90), "tommies", "sdkfz", *faces)  # the MG faces away
    state, more = fight_on(
        state,
        *(d10(9), d6(4)),  # round 2: the squad (-2 for its markers) hits, 4+ in the open
        *(d10(1), d10(1)),  # the section (-2) misses
    )
    assert texts(events)[6] == (
        "251 Halftrack came through the first round: fall back or fight on (/choose fall_back|fight_on) "
        "(House Rules HR6.4)"
    )
    assert texts(events)[3:6] + texts(more) == [
        "Round 1: Gruppe fires at Tommies: needs 5+; rolled 2: miss (House Rules HR6.4)",
        "Round 1: Tommies fires at 251 Halftrack: needs 5+; rolled 6, 1: 1 hit; "
        "casualty 5+ rolled 5: 2 markers (House Rules HR6.4)",
        "Gruppe, carried, takes the 2 markers",
        "Round 2: Gruppe fires at Tommies: needs 5+ (2 morale markers -2); rolled 9: 1 hit; "
        "casualty 4+ rolled 4: 2 markers (House Rules HR6.4)",
        "Round 2: Tommies fires at 251 Halftrack: needs 5+ (2 morale markers -2); rolled 1, 1: miss "
        "(House Rules HR6.4)",
        "251 Halftrack holds: Tommies falls back to 30.0,5.5",
    ]
    markers = {unit_id: unit.morale_markers for unit_id, unit in state.units.items()}
    assert markers == {"tommies": 2, "sdkfz": 0, "gruppe": 2}
    initiation = next(e.data for e in events if isinstance(e.data, RolledTest))
    assert (initiation.test, initiation.unit, initiation.roll, initiation.passed) == (
        "close combat initiation",
        "tommies",
        3,
        True,
    )
    volleys = [e.data for e in events + more if isinstance(e.data, FireData)]
    assert [(v.close_combat_round, v.firer, v.target, v.markers_placed) for v in volleys] == [
        (1, "gruppe", "tommies", 0),
        (1, "tommies", "sdkfz", 2),
        (2, "gruppe", "tommies", 2),
        (2, "tommies", "sdkfz", 0),
    ]
    assert volleys[2].to_hit == ToHit(needed=7, modifiers=(("2 morale markers", -2),), rolls=(9,), hits=1)


def test_a_transports_mg_fires_in_close_combat_only_at_an_attacker_in_its_arc_s5_s6():
    state, events = charge(carrier(facing=270), "tommies", "sdkfz", d6(3), *[d10(1)] * 4)
    assert [line.split(": needs")[0] for line in texts(events)[3:6]] == [
        "Round 1: 251 Halftrack fires at Tommies",  # the MG, crewed by its squad, faces the section
        "Round 1: Gruppe fires at Tommies",
        "Round 1: Tommies fires at 251 Halftrack",
    ]


def test_an_empty_transports_mg_has_no_crew_in_close_combat_s2_s6():
    state = carrier(facing=270)
    state.units["gruppe"].embarked_in = None
    state.units["gruppe"].position = P(60, 40)
    state, events = charge(state, "tommies", "sdkfz", d6(3), *[d10(1)] * 2)
    state, more = fight_on(state, *[d10(1)] * 2)
    assert [line.split(": needs")[0] for line in texts(events)[3:4] + texts(more)[:1]] == [
        "Round 1: Tommies fires at 251 Halftrack",  # nobody answers
        "Round 2: Tommies fires at 251 Halftrack",
    ]


def test_an_enclosed_afv_uses_no_mg_that_must_turn_over_90_degrees_s5_s6():
    state = started(
        house(
            make_unit(
                "british", "Infantry Detachment", "allies", (30, 10), unit_id="tommies", name="Tommies"
            ),
            make_unit("german", "Panzer IV G (late) to J", "axis", (33, 10), unit_id="panzer", facing=0),
        ),
        "allies",
    )
    # the section is straight behind the panzer: neither its turret nor its hull MG may fire
    state, events = charge(state, "tommies", "panzer", d6(3), d10(1), d10(1))
    assert texts(events)[3] == (
        "Round 1: Tommies fires at Panzer IV G (late) to J: needs 5+; rolled 1, 1: miss (House Rules HR6.5)"
    )


# --- indirect fire on transports and soft vehicles (s. 5) -------------------------------------------


def shelled(vehicle, at_marker):
    """A British spotter and 3" mortar; a loaded German vehicle ``at_marker`` inches from the spot."""
    state = started(
        house(
            make_unit("british", "Infantry Detachment", "allies", (20, 10), unit_id="hq", command=True),
            make_unit("british", "Mortar Team", "allies", (20, 2), unit_id="mortar", facing=90),
            make_unit("german", vehicle, "axis", (20 + at_marker, 40), unit_id="vehicle", facing=90),
            make_unit("german", "Infantry Detachment", "axis", (20 + at_marker, 40), unit_id="gruppe"),
        ),
        "allies",
    )
    state.units["gruppe"].embarked_in = "vehicle"
    state, _ = act(state, "allies", "hq", RequestFire(at=P(20, 40)), faces=[d10(5)])
    return state


def test_a_soft_vehicle_is_hit_like_troops_by_the_distance_table_and_its_load_takes_the_markers_s5():
    state = shelled("Truck/Kubelwagen", 1.5)
    # a direct hit on the marker; 1-2" from medium HE: one die, 4+ in the open
    state, events = act(state, "allies", "mortar", Bombard(), faces=[d10(10), d6(3), d6(4)])
    assert texts(events)[-2:] == [
        'Truck/Kubelwagen (1.5" away, open) takes 1 medium HE dice needing 4+: rolled 4: 1 marker '
        "(House Rules HR5.93)",
        "Infantry Detachment, carried, takes the 1 marker",
    ]
    assert (state.units["vehicle"].morale_markers, state.units["gruppe"].morale_markers) == (0, 1)


def test_an_open_topped_afv_is_hurt_only_by_a_direct_hit_s5():
    state = shelled("251 Halftrack", 1.5)
    state, events = act(state, "allies", "mortar", Bombard(), faces=[d10(10), d6(3)])
    assert texts(events)[-1] == "Nobody is close enough to be hurt (House Rules HR5.93)"


def test_a_double_six_on_a_direct_hit_destroys_a_soft_vehicle_and_its_load_bails_out_shaken_s5():
    state = shelled("Truck/Kubelwagen", 0.5)
    state, events = act(state, "allies", "mortar", Bombard(), faces=[d10(10), d6(3), d6(6), d6(6)])
    lines = texts(events)
    assert "Truck/Kubelwagen is destroyed: the shell lands inside (House Rules HR5.94)" in lines
    assert "Infantry Detachment bails out of the wreck with 5 markers" in lines
    assert state.units["vehicle"].destroyed and not state.units["gruppe"].destroyed


# --- overrun troops answer with their weapons (s. 6) -----------------------------------------------


def overrun(defender, facing, **flags):
    return started(
        house(
            make_unit("british", "Sherman 75mm", "allies", (45, 14), unit_id="sherman", facing=90),
            make_unit("german", defender, "axis", (45, 20), unit_id="defender", facing=facing, **flags),
        ),
        "allies",
    )


def test_an_anti_tank_gun_in_arc_answers_an_overrun_with_its_normal_ap_fire_s6():
    faces = [
        d6(3),  # the Sherman goes in
        d6(4),  # the PaK40 stands
        *(d10(9), d10(8)),  # within 12": two dice, -1 as the Sherman moved: a double hit
        d10(3),  # penetration 3 + 9 + 2 = 14 against the front armour 13
        d6(4),  # damage 4: destroyed
    ]
    state, events = charge(overrun("PaK40 Anti-tank Gun", facing=270), "sherman", "defender", *faces)
    assert fire_text(events) == (
        'PaK40 Anti-tank Gun fires armour-piercing (gun) at Sherman 75mm (0.0"): needs 5+ '
        "(target moved this turn -1); rolled 9, 8: 2 hits; 1 marker; penetration 3+9+2 double hit "
        "against front armour 13: penetrates. Damage 4: destroyed (House Rules HR5.6)"
    )
    assert state.units["sherman"].destroyed and not state.units["defender"].destroyed


def test_an_anti_tank_gun_facing_away_cannot_answer_and_is_overrun_s5_s6():
    faces = [d6(3), d6(4), d10(1), d10(1)]  # it stands, but cannot bear; the MGs miss
    state, events = charge(overrun("PaK40 Anti-tank Gun", facing=90), "sherman", "defender", *faces)
    lines = texts(events)
    assert lines[4] == (
        "PaK40 Anti-tank Gun cannot fire: Sherman 75mm is outside PaK40 Anti-tank Gun's 90 degree arc "
        "of fire: turn to face it first with a move toward it, as a unit ends a move facing the way it went "
        '(e.g. move:45.0,19.0, 1" toward it)'
    )
    assert lines[-1] == "Sherman 75mm drives over PaK40 Anti-tank Gun: crushed (House Rules HR6.6)"
    assert state.units["defender"].destroyed


def test_infantry_answer_an_overrun_with_their_iaw_s6():
    faces = [
        d6(3),
        d6(5),  # the squad stands
        *(d10(7), d10(2)),  # Panzerfaust, two dice within 8", -1 as the Sherman moved: one hit
        d10(2),  # penetration 2 + 9 = 11 against the front armour 13: bounces
        *(d10(5), d10(6), d6(3)),  # hull and turret MGs (-1 for the marker) at troops who stood: open, 3+
    ]
    state, events = charge(overrun("Infantry Detachment", 270, iaw=True), "sherman", "defender", *faces)
    assert fire_text(events) == (
        'Infantry Detachment fires armour-piercing (infantry anti-tank weapon) at Sherman 75mm (0.0"): '
        "needs 5+ (target moved this turn -1); rolled 7, 2: 1 hit; 1 marker; penetration 2+9 against "
        "front armour 13: bounces (House Rules HR5.5)"
    )
    assert texts(events)[-2:] == [
        "Round 1: Sherman 75mm fires at Infantry Detachment: needs 5+ (1 morale marker -1); "
        "rolled 5, 6: 1 hit; casualty 3+ rolled 3: 2 markers (House Rules HR6.6)",
        "Sherman 75mm drives through Infantry Detachment: +1 marker (House Rules HR6.6)",
    ]
    assert (state.units["sherman"].morale_markers, state.units["defender"].morale_markers) == (1, 3)


# --- the rule set named in every result (issue 6) ---------------------------------------------------


def test_a_2015_game_names_no_house_rule_in_its_results():
    units = (
        make_unit("british", "Infantry Detachment", "allies", (30, 10), unit_id="squad"),
        make_unit("german", "Infantry Detachment", "axis", (30, 20), unit_id="gruppe"),
    )
    core = started(game(*units, sides={"allies": "british", "axis": "german"}), "allies")
    core, events = act(core, "allies", "squad", Fire(target="gruppe"), faces=[d10(1), d10(1)])
    assert "House Rules" not in fire_text(events)
    ruled = started(house(*units), "allies")
    ruled, events = act(ruled, "allies", "squad", Fire(target="gruppe"), faces=[d10(1), d10(1)])
    assert fire_text(events).endswith("rolled 1, 1: miss (House Rules HR5.4)")
