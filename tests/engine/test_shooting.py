"""Firing in play: aspect, hull down, transports, Kaboom!, smoke, close combat (pp. 10-12)."""

import pytest

from engine.commands import Declare, DeclineReaction, Fire, LaySmoke, PassInitiative, UnitOrder
from engine.dice import d6, d10
from engine.errors import IllegalCommand
from engine.setup import make_unit
from engine.state import CoverKind, Going, TableSize, TerrainFeature
from tests.engine.helpers import P, act, game, play, started, text


def fire(state, side, unit, target, *faces):
    return act(state, side, unit, Fire(target=target), faces=faces)


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
WOODS = TerrainFeature(
    id="woods",
    kind="woods",
    outline=(P(40, 30), P(60, 30), P(60, 40), P(40, 40)),
    going=Going.ROUGH,
    cover=CoverKind.COVER,
)


def test_infantry_fire_all_round_support_squads_90_degrees_p11():
    state = started(
        game(
            make_unit("german", "Infantry Detachment", "axis", (50, 50), facing=270, unit_id="gren"),
            make_unit("german", "MG Team", "axis", (30, 50), facing=270, unit_id="mg"),
            make_unit("us", "Infantry Detachment", "allies", (50, 62), unit_id="behind"),
        ),
        "axis",
    )
    _, events = fire(state, "axis", "gren", "behind", d10(1), d10(1))
    assert "Infantry Detachment fires at Infantry Detachment" in text(events)
    with pytest.raises(IllegalCommand, match="outside MG Team's 90 degree arc"):
        play(state, Declare(side="axis", order=UnitOrder(unit="mg", actions=(Fire(target="behind"),))))


def test_side_aspect_hits_side_armour_p11():
    state = started(
        game(
            make_unit("us", "Sherman 76mm", "allies", (20, 20), facing=90, unit_id="sherman"),
            make_unit("german", "Tiger I", "axis", (20, 40), facing=0),
        ),
        "allies",
    )
    _, events = fire(state, "allies", "sherman", "tiger-i", d10(6), d10(5))
    assert "Penetration (side) 5+9=14 vs 14: equal, +1 marker" in text(events)


def test_hull_down_takes_one_off_the_damage_roll_p12():
    state = started(
        game(
            make_unit("german", "Panther", "axis", (50, 40), facing=270),
            make_unit("us", "Sherman 75mm", "allies", (50, 21), facing=90, unit_id="sherman"),
            terrain=[WALL],
        ),
        "axis",
    )
    _, events = fire(state, "axis", "panther", "sherman", d10(7), d10(6), d6(3))
    assert "Damage d6 3 -1 hull down: Crew cabin filled with smoke and shrapnel" in text(events)


def loaded_halftrack(**kw):
    return started(
        game(
            make_unit("us", "Sherman 75mm", "allies", (50, 10), facing=90, unit_id="sherman"),
            make_unit("german", "251 Halftrack", "axis", (50, 40), facing=270, unit_id="ht", **kw),
            make_unit("german", "Infantry Detachment", "axis", (50, 40), unit_id="gren", embarked_in="ht"),
            make_unit("german", "Infantry Detachment", "axis", (56, 40), unit_id="near"),
            make_unit("german", "Infantry Detachment", "axis", (70, 40), unit_id="far"),
            **({"table": TableSize(width=96, depth=72)}),
        ),
        "allies",
    )


def test_hit_equal_to_a_loaded_transport_forces_the_passengers_out_with_its_markers_p12():
    state = loaded_halftrack(morale_markers=1)
    state, events = fire(state, "allies", "sherman", "ht", d10(5), d10(2))
    log = text(events)
    assert "2+8=10 vs 10: equal" in log
    assert "Infantry Detachment is forced out of 251 Halftrack" in log
    assert state.units["gren"].embarked_in is None
    assert state.units["gren"].morale_markers == 3  # the halftrack's 1 + hit + equal


def test_destroyed_transport_passengers_bail_out_with_markers_up_to_morale_p12():
    state, events = fire(loaded_halftrack(), "allies", "sherman", "ht", d10(5), d10(6), d6(4))
    assert state.units["ht"].destroyed
    assert "bails out of the wreck with 5 markers" in text(events)
    assert not state.units["gren"].destroyed and state.units["gren"].morale_markers == 5


def test_kaboom_destroys_passengers_and_shakes_friends_within_12_p12():
    state, events = fire(loaded_halftrack(), "allies", "sherman", "ht", d10(5), d10(6), d6(6))
    assert state.units["gren"].destroyed
    assert state.units["near"].morale_markers == 1
    assert state.units["far"].morale_markers == 0  # 18" away, edge to edge
    assert "Kaboom!" in text(events)


def test_kaboom_radius_is_6_on_a_small_table_p12():
    state = started(
        game(
            make_unit("us", "Sherman 75mm", "allies", (30, 10), facing=90, unit_id="sherman"),
            make_unit("german", "Panzer IV G (late) to J", "axis", (30, 30), facing=270, unit_id="pz"),
            make_unit("german", "Infantry Detachment", "axis", (35, 30), unit_id="near"),
            make_unit("german", "Infantry Detachment", "axis", (42, 30), unit_id="mid"),
            table=TableSize(width=72, depth=48),
        ),
        "allies",
    )
    state, _ = fire(state, "allies", "sherman", "pz", d10(5), d10(8), d6(6))
    assert state.units["near"].morale_markers == 1
    assert state.units["mid"].morale_markers == 0


def test_smoke_obscures_for_the_turn_p12():
    state = started(
        game(
            make_unit("us", "Infantry Detachment", "allies", (50, 20), unit_id="gis"),
            make_unit("german", "Infantry Detachment", "axis", (50, 30), unit_id="gren"),
        ),
        "axis",
    )
    state, _ = play(state, Declare(side="axis", order=UnitOrder(unit="gren", actions=(LaySmoke(),))))
    state, events = play(state, DeclineReaction(side="allies", window=state.pending.window), d10(5))
    assert "lays smoke: needs 5+, rolled 5: obscured" in text(events)
    with pytest.raises(IllegalCommand, match="hidden in smoke and may not fire"):
        play(state, Declare(side="axis", order=UnitOrder(unit="gren", actions=(Fire(target="gis"),))))
    state, _ = play(state, PassInitiative(side="axis"))
    state, events = fire(state, "allies", "gis", "gren", d10(5), d10(1), d6(4))
    assert "needs 5+ (-1 smoke, +1 close range); rolled 5, 1: 1 hit" in text(events)
    assert "casualty 5+ rolled 4: +0" in text(events)  # the smoke counts as cover


def test_smoke_fails_below_5_and_clears_at_the_end_of_the_turn_p12():
    state = started(
        game(
            make_unit("us", "Infantry Detachment", "allies", (50, 10), unit_id="gis"),
            make_unit("german", "Infantry Detachment", "axis", (50, 30), unit_id="gren"),
        ),
        "axis",
        tokens=None,
    )
    state.sides["allies"].tokens = 0
    state.units["gren"].smoke = None
    state, _ = play(
        state,
        Declare(side="axis", order=UnitOrder(unit="gren", actions=(LaySmoke(),))),
        d10(9),
        d6(1),
        d6(1),
        d6(3),
        d6(1),
    )
    assert state.turn == 2 and state.units["gren"].smoke is None


def test_close_combat_is_infantry_shooting_in_contact_p12():
    state = started(
        game(
            make_unit("german", "Infantry Detachment", "axis", (50, 30), unit_id="gren"),
            make_unit("us", "Infantry Detachment", "allies", (50, 28), unit_id="gis"),
        ),
        "axis",
    )
    state, events = fire(state, "axis", "gren", "gis", d10(4), d10(3), d6(4))
    assert 'fires at Infantry Detachment (0.0"): needs 4+ (+1 close range); rolled 4, 3: 1 hit' in text(
        events
    )
    assert state.units["gis"].morale_markers == 2


def test_infantry_contact_attack_not_from_the_front_and_a_10_penetrates_p11_p12():
    state = started(
        game(
            make_unit("german", "Infantry Detachment", "axis", (50, 30), unit_id="side"),
            make_unit("german", "Infantry Detachment", "axis", (52.25, 33.25), unit_id="front"),
            make_unit("us", "M26 Pershing", "allies", (52.25, 30), facing=90, unit_id="pershing"),
        ),
        "axis",
    )
    with pytest.raises(IllegalCommand, match="in contact from the front"):
        play(state, Declare(side="axis", order=UnitOrder(unit="front", actions=(Fire(target="pershing"),))))
    state, events = fire(state, "axis", "side", "pershing", d10(5), d10(10), d6(4))
    assert "a 10 in contact always penetrates" in text(events)
    assert state.units["pershing"].destroyed


def test_tank_gun_7_plus_can_inflict_three_markers_on_infantry_in_cover_at_close_range_p10():
    state = started(
        game(
            make_unit("german", "Panther", "axis", (50, 45), facing=270),
            make_unit("us", "Infantry Detachment", "allies", (50, 35), unit_id="gis"),
            terrain=[WOODS],
        ),
        "axis",
    )
    state, events = fire(state, "axis", "panther", "gis", d10(5), d10(9), d6(4), d6(5))
    assert "casualty 4+ rolled 4, 5: +2" in text(events)
    assert state.units["gis"].morale_markers == 3


def test_smoke_fired_by_a_supporting_gun_is_rolled_by_the_unit_it_hides_p12():
    state = started(
        game(
            make_unit("us", "Infantry Detachment", "allies", (50, 20), unit_id="gis"),
            make_unit("us", "MG Team", "allies", (40, 20), unit_id="mg"),
            make_unit("us", "Sherman 75mm", "allies", (60, 10), facing=90, unit_id="sherman"),
            make_unit("german", "Infantry Detachment", "axis", (50, 40), unit_id="gren"),
        ),
        "allies",
    )
    with pytest.raises(IllegalCommand, match="MG Team cannot fire smoke"):
        play(state, Declare(side="allies", order=UnitOrder(unit="gis", actions=(LaySmoke(supporter="mg"),))))
    state, _ = play(
        state, Declare(side="allies", order=UnitOrder(unit="gis", actions=(LaySmoke(supporter="sherman"),)))
    )
    state, events = play(state, DeclineReaction(side="axis", window=state.pending.window), d10(4))
    assert "Infantry Detachment lays smoke: needs 5+, rolled 4: no smoke" in text(events)
    assert events[-1].rolls[0].purpose == "smoke, Infantry Detachment"
