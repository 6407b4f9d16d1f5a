"""The four scenarios on any table (engine.tables.scenario_ground): edges, objectives placed
per scenario and per points (pp. 28-31), and set-up refused where a unit could never stand."""

import pytest

from engine.commands import Deploy, JoinSide
from engine.errors import IllegalCommand
from engine.rules.scenario import objectives_needed
from engine.scenarios.book import find_scenario
from engine.scenarios.new_game import make_unit
from engine.scenarios.quick_battle import scenario_battle
from engine.state import TableSize
from engine.tables.generate import random_table
from engine.tables.layout import BattleTable, add_piece
from engine.tables.pieces import Piece
from engine.tables.scenario_ground import deployment_edges, scenario_objectives
from tests.engine.helpers import P, play, text


def test_the_sides_set_up_along_the_long_edges_or_the_short_ones():
    assert deployment_edges(TableSize(width=72, depth=48)) == ("near", "far")
    assert deployment_edges(TableSize(width=48, depth=72)) == ("left", "right")
    assert deployment_edges(TableSize(width=72, depth=48), "short") == ("left", "right")
    state = scenario_battle("meeting", BattleTable(name="Tall", width=48, depth=72))
    assert {side.name: side.entry_edge for side in state.sides.values()} == {
        "allies": "left",
        "axis": "right",
    }


@pytest.mark.parametrize("seed", range(5))
def test_a_meeting_engagement_has_four_objectives_6_from_the_edges_in_pairs_end_for_end_p28(seed):
    table = random_table(seed, 72, 48)
    placed = scenario_objectives(find_scenario("meeting"), table.size, table.terrain())
    spots = {(o.position.x, o.position.y) for o in placed}
    assert len(placed) == 4 == len(spots)
    for x, y in spots:
        assert min(x, y, 72 - x, 48 - y) >= 6
        assert (round(72 - x, 2), round(48 - y, 2)) in spots  # neither side nearer more of them


def test_capture_objectives_lie_within_6_of_the_centreline_and_are_more_on_a_big_table_p30():
    for width, depth, count in ((72, 48, 1), (96, 72, 2)):
        table = random_table(3, width, depth)
        placed = scenario_objectives(find_scenario("capture"), table.size, table.terrain())
        assert len(placed) == count
        assert all(abs(o.position.y - depth / 2) <= 6 for o in placed)


def test_no_objectives_to_place_in_escalating_engagement_and_breakthrough():
    table = random_table(3, 72, 48)
    for name in ("escalating", "breakthrough"):
        assert scenario_objectives(find_scenario(name), table.size, table.terrain()) == []


def _force(nation: str, side: str, count: int) -> tuple:
    return tuple(
        make_unit(nation, "Infantry Detachment", side, (0, 0), unit_id=f"{side}-{n}", command=n == 0)
        for n in range(count)
    )


def test_one_more_objective_for_each_500_points_a_side_over_1000_p28():
    state = scenario_battle("meeting", random_table(8, 96, 72))
    assert len(state.objectives) == 4
    for side, nation, player in (("allies", "us", "ann"), ("axis", "german", "otto")):
        join = JoinSide(
            side=side, player=player, nation=nation, units=_force(nation, side, 4), points_limit=2100
        )
        state, events = play(state, join)
    assert objectives_needed(2100) == 6 and len(state.objectives) == 6
    assert "Forces over 1,000 points: more objectives (p. 28): objective-5 at" in text(events)
    assert len({(o.position.x, o.position.y) for o in state.objectives}) == 6


def test_a_vehicle_is_not_set_up_in_a_building_p9():
    table = add_piece(
        BattleTable(name="Farm", width=72, depth=48),
        Piece(id="barn", kind="building", centre=P(10, 6), size=(6, 6)),
    )
    state = scenario_battle("meeting", table)
    tank = make_unit("us", "Sherman 75mm", "allies", (0, 0), unit_id="sherman")
    for side, nation, units in (
        ("allies", "us", (tank, *_force("us", "allies", 2))),
        ("axis", "german", _force("german", "axis", 3)),
    ):
        state, _ = play(state, JoinSide(side=side, player=side, nation=nation, units=units, points_limit=500))
    with pytest.raises(
        IllegalCommand, match="Sherman 75mm cannot stand at 10.0,6.0: the ground there is impassable"
    ):
        play(state, Deploy(side="allies", unit="sherman", at=P(10, 6)))
    state, events = play(state, Deploy(side="allies", unit="allies-1", at=P(10, 6)))  # infantry go in
    assert text(events) == "The Allies set up Infantry Detachment (Allies) at 10.0,6.0"
