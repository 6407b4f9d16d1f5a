"""What blocks a line of sight, and the measure a player takes before an order: distance, sight
and cover (p. 10; House Rules V1.0, s. 8), on a table with a wood and a church."""

import pytest

from engine.battlefield import OBSERVATION, UNSPOTTED, sighting, what_blocks
from engine.commands import Fire
from engine.errors import IllegalCommand
from engine.rulesets import with_rule_set
from engine.scenarios.new_game import make_unit
from engine.state import CoverKind, Going, TerrainFeature
from tests.engine.helpers import P, box, declare, game, started

WOOD = box("wood", "woods", 20, 20, 30, 30, going=Going.ROUGH, cover=CoverKind.COVER, blocks_sight=True)
CHURCH = box("church", "building", 40, 20, 46, 30, cover=CoverKind.COVER, blocks_sight=True, building=True)


def table(**units_at):
    """German infantry at the bottom of the table; US squads where the test puts them."""
    return game(
        make_unit("german", "Infantry Detachment", "axis", (35, 10), unit_id="gren", name="Grenadiers"),
        *(
            make_unit("us", "Infantry Detachment", "allies", at, unit_id=uid, name=uid.upper())
            for uid, at in units_at.items()
        ),
        terrain=[WOOD, CHURCH],
    )


def test_the_wood_and_the_church_are_named_as_what_blocks():
    state = table(behind_wood=(25, 40), behind_church=(43, 40), behind_both=(43, 34), open=(35, 40))
    viewer = state.units["gren"]
    assert what_blocks(state, viewer, state.units["behind_wood"]) == ["the wood"]
    assert what_blocks(state, viewer, state.units["behind_church"]) == ["the church (building)"]
    assert what_blocks(state, viewer, state.units["open"]) == []
    both = game(
        make_unit("german", "Infantry Detachment", "axis", (10, 25), unit_id="gren", name="Grenadiers"),
        make_unit("us", "Infantry Detachment", "allies", (55, 25), unit_id="far", name="Far"),
        terrain=[WOOD, CHURCH],
    )
    assert what_blocks(both, both.units["gren"], both.units["far"]) == ["the wood", "the church (building)"]


def test_a_fire_order_at_a_unit_out_of_sight_names_what_blocks_the_line_p10():
    state = started(table(behind_wood=(25, 40), behind_church=(43, 40)), "axis")
    wood = "^Grenadiers cannot see BEHIND_WOOD: the wood blocks the line of sight$"
    with pytest.raises(IllegalCommand, match=wood):
        declare(state, "axis", "gren", Fire(target="behind_wood"))
    church = r"^Grenadiers cannot see BEHIND_CHURCH: the church \(building\) blocks the line of sight$"
    with pytest.raises(IllegalCommand, match=church):
        declare(state, "axis", "gren", Fire(target="behind_church"))


def test_a_hidden_enemy_is_not_spotted():
    state = table(open=(35, 40))
    state.units["open"].hidden = True
    assert what_blocks(state, state.units["gren"], state.units["open"]) == [UNSPOTTED]


def test_observation_distance_blocks_a_static_unit_in_cover_under_the_house_rules_s8():
    state = with_rule_set(table(in_wood=(25, 21)), "house-v1")
    state.units["gren"].position = P(25, 10)  # 11" off, at the wood's edge: seen but for the distance
    assert what_blocks(state, state.units["gren"], state.units["in_wood"]) == [OBSERVATION]
    state.units["in_wood"].fired_this_turn = True
    assert what_blocks(state, state.units["gren"], state.units["in_wood"]) == []


def test_sighting_a_unit_gives_distance_sight_and_cover():
    state = table(in_wood=(25, 21.5), open=(40, 12))
    viewer = state.units["gren"]
    viewer.position = P(25, 10)
    seen = sighting(state, viewer, state.units["in_wood"])
    assert (seen.seen, seen.cover) == (True, CoverKind.COVER)
    assert seen.distance == pytest.approx(11.5 - 2.0)  # edge to edge: two 2" squads, centres 11.5" apart
    in_open = sighting(state, viewer, state.units["open"])
    assert (in_open.seen, in_open.cover, in_open.blocked_by) == (True, CoverKind.OPEN, ())


def test_sighting_a_spot_behind_the_church():
    state = table()
    state.units["gren"].position = P(43, 10)
    spot = sighting(state, state.units["gren"], P(43, 40))
    assert spot.blocked_by == ("the church (building)",)
    assert not spot.seen
    assert spot.distance == pytest.approx(30 - 1.0)  # from the squad's edge


def test_sighting_a_vehicle_just_behind_a_wall_finds_it_hull_down_p12():
    wall = TerrainFeature(
        id="wall",
        kind="wall",
        outline=(P(30, 30), P(40, 30)),
        linear=True,
        cover=CoverKind.COVER,
        hull_down=True,
    )
    state = game(
        make_unit("german", "Infantry Detachment", "axis", (35, 10), unit_id="gren", name="Grenadiers"),
        make_unit("us", "Sherman 75mm", "allies", (35, 32), facing=90, unit_id="sherman", name="Sherman"),
        make_unit("us", "Sherman 75mm", "allies", (20, 32), facing=90, unit_id="open", name="Open"),
        terrain=[wall],
    )
    behind = sighting(state, state.units["gren"], state.units["sherman"])
    assert (behind.seen, behind.cover, behind.hull_down) == (True, CoverKind.COVER, True)
    in_open = sighting(state, state.units["gren"], state.units["open"])
    assert (in_open.cover, in_open.hull_down) == (CoverKind.OPEN, False)
