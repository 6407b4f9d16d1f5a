"""Blocking terrain by height, overlooking from upper storeys and hills, high ground's shadow, and
firing through other units (House Rules V1.0, s. 8), as tables and through the game flow."""

import pytest

from engine.battlefield import can_see
from engine.commands import Fire
from engine.errors import IllegalCommand
from engine.rulesets import with_rule_set
from engine.scenarios.new_game import make_unit
from engine.state import CoverKind, Going, Phase, TerrainFeature, TerrainHeight
from engine.variants.house_v1.sight import terrain_height
from engine.variants.house_v1.visibility import (
    Seen,
    may_fire_through_troops,
    medium_terrain_blocks,
    overlooked_low_terrain_hides,
    tucked_in_behind,
)
from tests.engine.helpers import P, box, declare, game, started

LOW, MEDIUM, HIGH = TerrainHeight.LOW, TerrainHeight.MEDIUM, TerrainHeight.HIGH

# --- the rules as tables ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "blocks_sight", "height", "expected"),
    [
        ("wall", False, None, LOW),
        ("hedge", False, None, LOW),
        ("building", True, None, MEDIUM),
        ("woods", True, None, MEDIUM),
        ("hill", False, None, MEDIUM),
        ("steep_hill", True, None, HIGH),
        ("tower", True, None, HIGH),
        ("ruins", True, None, MEDIUM),  # any other piece that blocks sight
        ("road", False, None, None),
        ("stream", False, None, None),
        ("woods", True, HIGH, HIGH),  # the table's own say
    ],
)
def test_terrain_heights_by_kind_s8_blocking_terrain(kind, blocks_sight, height, expected):
    feature = box("x", kind, 0, 0, 4, 4, blocks_sight=blocks_sight, height=height)
    assert terrain_height(feature) is expected


@pytest.mark.parametrize(
    ("distance", "tucked_in", "hidden"),
    [(6.0, True, False), (6.5, True, True), (20.0, False, False), (3.0, False, False)],
)
def test_looking_down_over_low_terrain_s8_medium_terrain(distance, tucked_in, hidden):
    assert overlooked_low_terrain_hides(distance, tucked_in=tucked_in) is hidden


@pytest.mark.parametrize(
    ("seen", "adjacent", "firing", "tucked"),
    [
        (Seen.INFANTRY, True, False, True),
        (Seen.SNIPER, True, False, True),
        (Seen.HEAVY_WEAPONS, True, False, True),
        (Seen.SMALL_VEHICLE, True, False, True),
        (Seen.OTHER_VEHICLE, True, False, False),
        (Seen.INFANTRY, True, True, False),
        (Seen.INFANTRY, False, False, False),
    ],
)
def test_who_a_wall_still_hides_from_above_s8_medium_terrain(seen, adjacent, firing, tucked):
    assert tucked_in_behind(seen, adjacent=adjacent, firing=firing) is tucked


@pytest.mark.parametrize(
    ("viewer", "behind", "blocks"),
    [(None, 30.0, True), (MEDIUM, 30.0, True), (HIGH, 12.0, True), (HIGH, 12.5, False)],
)
def test_medium_terrain_and_high_grounds_shadow_s8_high_terrain(viewer, behind, blocks):
    assert medium_terrain_blocks(viewer, target_behind=behind) is blocks


@pytest.mark.parametrize(
    ("from_height", "gun", "only_enemies", "at_vehicle_or_building", "allowed"),
    [
        (True, False, False, False, True),
        (False, False, True, True, False),
        (False, True, True, True, True),
        (False, True, False, True, False),
        (False, True, True, False, False),
    ],
)
def test_firing_through_troops_s8_seeing_through_other_units(
    from_height, gun, only_enemies, at_vehicle_or_building, allowed
):
    assert (
        may_fire_through_troops(
            from_height=from_height,
            gun=gun,
            only_enemies=only_enemies,
            at_vehicle_or_building=at_vehicle_or_building,
        )
        is allowed
    )


# --- on the table -----------------------------------------------------------------------------


def house(*units, **kw):
    return with_rule_set(game(*units, sides={"allies": "british", "axis": "german"}, **kw), "house-v1")


WALL = TerrainFeature(
    id="wall", kind="wall", outline=(P(20, 25), P(60, 25)), linear=True, width=0.5, cover=CoverKind.COVER
)


def walled_field(storeys=2):
    """Germans watching from a farmhouse 10" south of a wall, from the ground beside it and from a
    hillock near the wall; British infantry tucked in behind the wall, and further back."""
    farmhouse = box(
        "farmhouse", "building", 40, 10, 45, 15, cover=CoverKind.COVER, building=True, storeys=storeys
    )
    hillock = box("hillock", "hill", 47, 18, 53, 23)
    state = started(
        house(
            make_unit(
                "german", "Infantry Detachment", "axis", (42.5, 12.5), name="Watch", in_building="farmhouse"
            ),
            make_unit("german", "Infantry Detachment", "axis", (35, 12), name="Ground"),
            make_unit("german", "Infantry Detachment", "axis", (50, 20.5), name="Knoll"),
            make_unit("british", "Infantry Detachment", "allies", (42.5, 26.5), name="Tucked"),
            make_unit("british", "Infantry Detachment", "allies", (30, 29), name="Behind"),
            make_unit("british", "Infantry Detachment", "allies", (52, 26.5), name="Close"),
            terrain=[farmhouse, hillock, WALL],
        ),
        "axis",
    )
    for unit_id in ("tucked", "behind", "close"):
        state.units[unit_id].moved_this_turn = True  # seen at any range, but for the terrain
    return state


def sees(state, viewer, target):
    return can_see(state, state.units[viewer], state.units[target])


def test_on_the_ground_a_wall_hides_all_but_those_right_behind_it_s8_low_terrain():
    state = walled_field()
    assert not sees(state, "ground", "behind")
    assert sees(state, "ground", "tucked")  # up against the wall


def test_from_an_upper_storey_one_sees_over_the_wall_but_not_troops_tucked_in_beyond_6_s8():
    state = walled_field()
    assert sees(state, "watch", "behind")
    assert not sees(state, "watch", "tucked")  # 12" off, right behind the wall, not firing
    state.units["tucked"].fired_this_turn = True
    assert sees(state, "watch", "tucked")


def test_a_building_of_one_storey_gives_no_view_over_the_wall_s8_medium_terrain():
    state = walled_field(storeys=1)
    assert not sees(state, "watch", "behind")


def test_from_a_hill_one_sees_over_the_wall_and_within_6_everything_s8_medium_terrain():
    state = walled_field()
    assert sees(state, "knoll", "behind")
    assert sees(state, "knoll", "close")  # tucked in behind the wall, but within 6"


def high_ground(kind):
    """A German observer on a hill south of a wood; British infantry 6" and 14" beyond the wood."""
    wood = box("wood", "woods", 20, 40, 60, 45, going=Going.ROUGH, cover=CoverKind.COVER, blocks_sight=True)
    hill = box("height", kind, 0, 0, 10, 10, blocks_sight=True)
    state = started(
        house(
            make_unit("german", "Infantry Detachment", "axis", (5, 5), name="Observer"),
            make_unit("british", "Infantry Detachment", "allies", (40, 52), name="Shadowed"),
            make_unit("british", "Infantry Detachment", "allies", (40, 60), name="Beyond"),
            terrain=[wood, hill],
        ),
        "axis",
    )
    for unit_id in ("shadowed", "beyond"):
        state.units[unit_id].moved_this_turn = True
    return state


def test_high_ground_sees_over_medium_terrain_beyond_its_12_inch_shadow_s8_high_terrain():
    state = high_ground("steep_hill")
    assert sees(state, "observer", "beyond")  # 14" behind the wood
    assert not sees(state, "observer", "shadowed")  # 6" behind it


def test_a_low_hill_does_not_see_over_woods_s8_medium_terrain():
    state = high_ground("hill")
    assert not sees(state, "observer", "beyond")


def test_high_terrain_blocks_even_high_ground_s8_high_terrain():
    state = high_ground("steep_hill")
    tower = box("tower", "tower", 25, 30, 30, 35, blocks_sight=True)
    state = state.model_copy(update={"terrain": (*state.terrain, tower)})
    assert sees(state, "observer", "beyond")  # the tower is off to the side
    state.units["beyond"].position = P(60, 72)  # behind the tower, seen from the hill
    assert not sees(state, "observer", "beyond")


def test_the_2015_rules_read_only_which_terrain_blocks_sight():
    state = high_ground("steep_hill")
    core = started(game(*state.units.values(), terrain=list(state.terrain)), "axis")
    assert not sees(core, "observer", "beyond")  # the wood blocks sight, whatever the hill


# --- seeing and firing through other units ------------------------------------------------------


def crowded(*extra, rules="house-v1", terrain=()):
    """British troops firing north at Germans with other troops on the line between them."""
    state = game(
        make_unit("british", "Infantry Detachment", "allies", (30, 10), name="Tommies"),
        make_unit("british", "Infantry Detachment", "allies", (30, 16), name="Friends"),
        make_unit("german", "Infantry Detachment", "axis", (30, 24), name="Gruppe"),
        make_unit("british", "Sherman 75mm", "allies", (50, 10), name="Sherman", facing=90),
        make_unit("german", "Panzer IV G (late) to J", "axis", (50, 34), name="Panzer", facing=270),
        *extra,
        sides={"allies": "british", "axis": "german"},
        terrain=list(terrain),
    )
    state = started(with_rule_set(state, rules), "allies")
    state.units["gruppe"].fired_this_turn = True
    return state


def test_troops_hide_nothing_but_may_not_be_fired_through_s8_seeing_through_other_units():
    state = crowded()
    assert sees(state, "tommies", "gruppe")
    with pytest.raises(IllegalCommand) as refused:
        declare(state, "allies", "tommies", Fire(target="gruppe"))
    assert str(refused.value) == (
        "Friends is in the line of fire: troops may be fired over only from higher ground "
        "(a gun may fire past enemy troops at a vehicle or building beyond)"
    )


def test_the_2015_rules_fire_through_troops():
    state, _ = declare(crowded(rules="core-2015"), "allies", "tommies", Fire(target="gruppe"))
    assert state.phase is Phase.REACTION


def test_from_an_upper_storey_troops_are_fired_over_s8_seeing_through_other_units():
    cottage = box(
        "cottage", "building", 27.5, 7.5, 32.5, 12.5, cover=CoverKind.COVER, building=True, storeys=2
    )
    state = crowded(terrain=[cottage])
    state.units["tommies"].in_building = "cottage"
    with pytest.raises(IllegalCommand, match="Friends is in the line of fire"):
        declare(state, "allies", "tommies", Fire(target="gruppe"))  # the ground floor
    state, _ = declare(state, "allies", "tommies", Fire(target="gruppe", storey=1))
    assert state.phase is Phase.REACTION


def test_a_gun_fires_past_enemy_troops_at_a_vehicle_beyond_s8_seeing_through_other_units():
    enemies = make_unit("german", "Infantry Detachment", "axis", (50, 22), name="Grenadiers")
    state = crowded(enemies)
    state.units["grenadiers"].fired_this_turn = True
    state, _ = declare(state, "allies", "sherman", Fire(target="panzer"))
    assert state.phase is Phase.REACTION


def test_a_gun_does_not_fire_past_its_own_troops_nor_past_enemies_at_troops_s8():
    own = make_unit("british", "Infantry Detachment", "allies", (50, 22), name="Section")
    with pytest.raises(IllegalCommand, match="Section is in the line of fire"):
        declare(crowded(own), "allies", "sherman", Fire(target="panzer"))
    state = crowded()
    state.units["sherman"].position = P(30, 2)  # Friends and Tommies between it and the Gruppe
    with pytest.raises(IllegalCommand, match="is in the line of fire"):
        declare(state, "allies", "sherman", Fire(target="gruppe"))
