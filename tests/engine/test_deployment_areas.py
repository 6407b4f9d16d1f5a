"""Deployment areas as the scenario pages allow (Iron Cross 2015, pp. 28-31): whole edges,
opposite corners, along roads, or with the middle of each edge left out, worked out from the
table, chosen at /game new, refused where the scenario or the table does not allow them, and
room on generated tables for every unit of both quick-battle forces."""

from functools import cache

import pytest

from engine.commands import Deploy, JoinSide
from engine.deployment.areas import deployment_area_spans, flank_spans, opposite_corner_spans, road_spans
from engine.deployment.placing import plan_deployment
from engine.deployment.plan import Zone
from engine.errors import IllegalCommand
from engine.rules.movement import movement_allowance
from engine.scenarios.book import find_scenario
from engine.scenarios.new_game import make_unit, new_game
from engine.scenarios.quick_battle import quick_battle, scenario_battle
from engine.state import TableSize
from engine.tables.generate import random_table
from engine.tables.layout import BattleTable, add_piece
from engine.tables.pieces import Piece
from engine.tables.scenario_ground import cover_in, deployment_edges, set_up_spot, zone_ground
from engine.view import REFEREE, view_for
from renderer.markers import zones_shown
from tests.engine.helpers import P, play, text
from tests.engine.test_random_tables import FACING, ROLES, SIZES

TABLE = TableSize(width=72, depth=48)


def lane_table() -> BattleTable:
    """A 6' x 4' table with one lane from the near edge to the far one at x = 45."""
    table = BattleTable(name="Lane", width=72, depth=48)
    return add_piece(table, Piece(id="lane", kind="road", points=(P(45, 0), P(45, 48))))


def test_opposite_corners_are_each_sides_half_edge_at_the_far_ends_of_the_diagonal_p28():
    assert opposite_corner_spans(TABLE, "near", first=True) == ((0.0, 36.0),)
    assert opposite_corner_spans(TABLE, "far", first=False) == ((36.0, 72.0),)
    assert opposite_corner_spans(TABLE, "left", first=True) == ((0.0, 24.0),)
    assert opposite_corner_spans(TABLE, "right", first=False) == ((24.0, 48.0),)


def test_flanks_leave_the_middle_third_of_each_edge_out_pp28_31():
    assert flank_spans(TABLE, "near") == ((0.0, 24.0), (48.0, 72.0))
    assert flank_spans(TABLE, "left") == ((0.0, 16.0), (32.0, 48.0))


def test_along_roads_is_the_edge_within_9_inches_of_a_road_near_it_pp28_31():
    terrain = lane_table().terrain()
    assert road_spans(TABLE, "near", terrain) == ((34.5, 55.5),)  # 3" road: 1.5 + 9 either side
    assert road_spans(TABLE, "far", terrain) == ((34.5, 55.5),)
    assert road_spans(TABLE, "left", terrain) == ()  # the lane runs nowhere near it
    with pytest.raises(IllegalCommand, match='^No road runs within 12" of the left table edge'):
        deployment_area_spans("roads", TABLE, "left", terrain, first=True)


def test_a_unit_outside_its_sides_part_of_the_edge_is_refused():
    zone = Zone(edge="near", furthest=12, spans=((0.0, 24.0), (48.0, 72.0)))
    squad = make_unit("us", "Infantry Detachment", "allies", (0, 0), name="Able")
    assert zone.problem(squad, P(30, 5), TABLE) == (
        "Able must set up in its side's part of the near edge: x from 0 to 24 or 48 to 72"
    )
    assert zone.problem(squad, P(50, 5), TABLE) is None
    assert zone.problem(squad, P(50, 13), TABLE) == 'Able must set up within 12" of the near edge (13.0")'
    assert zone.rectangles(TABLE, 6) == [(0.0, 0.0, 24.0, 12), (48.0, 0.0, 72.0, 12)]


def corner_meeting():
    state = scenario_battle("meeting", BattleTable(name="Open", width=72, depth=48), areas="corners")
    for side, nation in (("allies", "us"), ("axis", "german")):
        units = (
            make_unit(nation, "Infantry Detachment", side, (0, 0), unit_id=f"{side}-{n}") for n in (1, 2)
        )
        state, _ = play(state, JoinSide(side=side, player=side, units=tuple(units)))
    return state


def test_a_meeting_engagement_in_opposite_corners_at_game_new_and_deploy_p28():
    state = corner_meeting()
    assert [p.zone.spans for p in state.deployment.sides.values()] == [((0.0, 36.0),), ((36.0, 72.0),)]
    with pytest.raises(IllegalCommand, match="part of the near edge: x from 0 to 36$"):
        play(state, Deploy(side="allies", unit="allies-1", at=P(50, 5)))
    state, events = play(state, Deploy(side="allies", unit="allies-1", at=P(10, 5)))
    assert text(events) == "The Allies set up Infantry Detachment (Allies) at 10.0,5.0"
    with pytest.raises(IllegalCommand, match="part of the far edge: x from 36 to 72$"):
        play(state, Deploy(side="axis", unit="axis-1", at=P(10, 43)))
    # the set-up picture draws each side's corner, not its whole edge
    assert [zone for zone in zones_shown(state, view_for(state, REFEREE))] == [
        ("allies", (0.0, 0.0, 36.0, 12.0)),
        ("axis", (36.0, 36.0, 72.0, 48.0)),
    ]


def test_the_scenario_pages_decide_which_areas_may_be_chosen_pp28_31():
    table = BattleTable(name="Open", width=72, depth=48)
    with pytest.raises(IllegalCommand, match="^Capture allows these deployment areas: edges, roads, flanks$"):
        scenario_battle("capture", table, "allies", areas="corners")
    with pytest.raises(IllegalCommand, match="^Deployment areas are one of: edges, corners, roads, flanks$"):
        scenario_battle("meeting", table, areas="river")
    with pytest.raises(IllegalCommand, match='^No road runs within 12" of the near table edge'):
        scenario_battle("meeting", table, areas="roads")
    state = scenario_battle("breakthrough", lane_table(), "allies", "aggressive_command", areas="roads")
    assert state.planned_scenario.areas == "roads"


# --- every form on generated tables -------------------------------------------------------------

SEEDS = range(6)  # SIZES, ROLES and FACING as the random-table test has them


@cache
def forces():
    """The quick battle's US and German forces, off the table."""
    return [u.model_copy(update={"in_reserve": True}) for u in quick_battle("village").units.values()]


@pytest.mark.parametrize("areas", ["corners", "roads", "flanks"])
@pytest.mark.parametrize("along", ["long", "short"])
def test_every_unit_of_both_forces_sets_up_with_cover_in_each_form_on_generated_tables(areas, along):
    planned = refused = 0
    for size in SIZES:
        for seed in SEEDS:
            laid = random_table(seed, *size)
            for scenario_id, roles in ROLES.items():
                scenario = find_scenario(scenario_id)
                if areas not in scenario.deployment_areas:
                    continue
                state = new_game(
                    {"allies": "us", "axis": "german"}, forces(), terrain=laid.terrain(), table=laid.size
                )
                for side, edge in zip(state.sides, deployment_edges(state.table, along), strict=True):
                    state.sides[side].entry_edge = edge
                try:
                    plan = plan_deployment(state, scenario, roles, areas=areas)
                except IllegalCommand as refusal:  # only a table with no road near an edge
                    assert areas == "roads" and str(refusal).startswith("No road runs within 12"), refusal
                    refused += 1
                    continue
                planned += 1
                placed = []
                for side, mine in plan.sides.items():
                    units = state.units_of(side)
                    reach = max(movement_allowance(u.profile, rapid=False, road=False) for u in units)
                    ground = zone_ground(mine.zone, state.table, reach)
                    assert cover_in(ground, state.terrain), (size, seed, scenario_id, side)
                    facing = FACING[state.sides[side].entry_edge]
                    for unit in units:
                        spot = set_up_spot(state, unit, mine.zone, facing, placed, mine.spacing)
                        assert spot is not None, (size, seed, scenario_id, side, unit.name)
                        assert mine.zone.problem(unit, spot, state.table) is None
                        placed.append(unit.model_copy(update={"position": spot, "facing": facing}))
    assert planned > 3 * refused  # roads: every short edge has the main road; a long one often a lane
