"""Random tables (engine.tables.generate): 200 seeds for each scenario and table size give
tables that are valid, where every unit of both quick-battle forces can set up under the
scenario's deployment (pp. 28-31), where both sides' set-up areas have cover, and that the
same seed lays out again exactly."""

from functools import cache

import pytest

from engine.deployment.areas import flank_spans, road_spans
from engine.deployment.placing import plan_deployment
from engine.deployment.plan import Zone
from engine.rules.movement import movement_allowance
from engine.scenarios.book import find_scenario
from engine.scenarios.new_game import new_game
from engine.scenarios.quick_battle import quick_battle
from engine.tables.generate import COVER_DEPTH, STRIP, random_table
from engine.tables.layout import table_problems
from engine.tables.pieces import PieceKind
from engine.tables.scenario_ground import cover_in, deployment_edges, set_up_spot, zone_ground

SEEDS = range(200)
SIZES = [(48.0, 48.0), (72.0, 48.0), (96.0, 72.0)]
ROLES = {
    "meeting": {"allies": "first", "axis": "second"},
    "escalating": {"allies": "first", "axis": "second"},
    "capture": {"allies": "attacker", "axis": "defender"},
    "breakthrough": {"allies": "attacker", "axis": "defender"},
}
FACING = {"near": 90.0, "far": 270.0, "left": 0.0, "right": 180.0}


@cache
def table(seed: int, size: tuple[float, float]):
    return random_table(seed, *size)


@cache
def terrain(seed: int, size: tuple[float, float]):
    return table(seed, size).terrain()


@cache
def forces(size: tuple[float, float]):
    """The quick battle's US and German forces, off the table."""
    return [u.model_copy(update={"in_reserve": True}) for u in quick_battle("village").units.values()]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]:g}x{s[1]:g}")
def test_random_tables_are_valid_varied_balanced_and_the_same_from_the_same_seed(size):
    for seed in SEEDS:
        laid = table(seed, size)
        assert table_problems(laid) == [], seed
        if seed % 10 == 0:  # laid out again from the seed: the very same table
            assert random_table(seed, *size) == laid
        kinds = {piece.kind for piece in laid.pieces}
        assert PieceKind.ROAD in kinds and PieceKind.BUILDING in kinds and len(kinds) >= 5, (seed, kinds)
        state = new_game({}, [], terrain=terrain(seed, size), table=laid.size)
        near = cover_in(zone_ground(Zone(edge="near", furthest=STRIP), state.table, STRIP), state.terrain)
        far = cover_in(zone_ground(Zone(edge="far", furthest=STRIP), state.table, STRIP), state.terrain)
        assert near and len(near) == len(far), (seed, [f.id for f in near], [f.id for f in far])
    assert len({table(seed, size).pieces for seed in SEEDS}) == len(SEEDS)  # no two alike


@pytest.mark.parametrize("scenario_id", list(ROLES))
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]:g}x{s[1]:g}")
def test_every_unit_of_both_forces_sets_up_with_cover_in_each_area(scenario_id, size):
    scenario = find_scenario(scenario_id)
    roles = ROLES[scenario_id]
    for seed in SEEDS:
        laid = table(seed, size)
        state = new_game(
            {"allies": "us", "axis": "german"}, forces(size), terrain=terrain(seed, size), table=laid.size
        )
        for side, edge in zip(state.sides, deployment_edges(state.table), strict=True):
            state.sides[side].entry_edge = edge
        plan = plan_deployment(state, scenario, roles)
        placed = []
        for side, mine in plan.sides.items():
            units = state.units_of(side)
            reach = max(movement_allowance(u.profile, rapid=False, road=False) for u in units)
            assert cover_in(zone_ground(mine.zone, state.table, reach), state.terrain), (seed, side)
            facing = FACING[state.sides[side].entry_edge]
            for unit in units:
                spot = set_up_spot(state, unit, mine.zone, facing, placed, mine.spacing)
                assert spot is not None, (seed, side, unit.name)
                placed.append(unit.model_copy(update={"position": spot, "facing": facing}))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]:g}x{s[1]:g}")
def test_every_part_of_every_edge_a_side_may_set_up_on_has_cover_close_in(size):
    """Whatever areas the players choose (pp. 28-31), each part has cover within one infantry
    move of its edge: each flank third of each of the four edges (so each half, for opposite
    corners), and the stretches along the roads near it."""
    for seed in SEEDS:
        laid = table(seed, size)
        ground = terrain(seed, size)
        for edge in ("near", "far", "left", "right"):
            parts = [(span,) for span in flank_spans(laid.size, edge)] + [road_spans(laid.size, edge, ground)]
            for spans in filter(None, parts):
                zone = Zone(edge=edge, furthest=COVER_DEPTH, spans=spans)
                assert cover_in(zone_ground(zone, laid.size, COVER_DEPTH), ground), (seed, edge, spans)
