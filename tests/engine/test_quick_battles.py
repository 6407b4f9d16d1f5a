"""Every built-in quick battle starts legal: units on the table, none in terrain they cannot
enter or on top of another, forces within the book's restrictions and evenly matched."""

import itertools

import pytest
from shapely.geometry import box

from engine.errors import IllegalCommand
from engine.geometry import features_under, footprint
from engine.profiles import load_orbat
from engine.rules.force import iaw_problem, infantry_outnumber_support_problem, rare_units_problem
from engine.scenarios.quick_battle import allied_forces, quick_battle, quick_tables
from engine.state import Going, UnitClass

BATTLES = list(itertools.product(quick_tables(), allied_forces()))


def force_points(state, side):
    units = [u for u in state.units.values() if u.side == side]
    iaw_cost = load_orbat(state.sides[side].nation).iaw.cost
    return sum(u.profile.points + (iaw_cost if u.iaw_weapon is not None else 0) for u in units)


@pytest.mark.parametrize(("table", "allies"), BATTLES)
def test_every_unit_starts_on_the_table_clear_of_impassable_terrain_and_other_units(table, allies):
    state = quick_battle(table, allies)
    edge = box(0, 0, state.table.width, state.table.depth)
    shapes = {u.id: footprint(u) for u in state.units.values()}
    for unit in state.units.values():
        assert edge.contains(shapes[unit.id]), f"{unit.name} hangs off the table"
        blocked = [
            f.id for f in features_under(unit, state.terrain) if f.going_for(unit.profile) is Going.IMPASSABLE
        ]
        assert not blocked, f"{unit.name} starts inside {blocked}"
    for a, b in itertools.combinations(state.units.values(), 2):
        assert not shapes[a.id].intersects(shapes[b.id]), f"{a.name} overlaps {b.name}"


@pytest.mark.parametrize(("table", "allies"), BATTLES)
def test_every_quick_force_keeps_the_force_rules_and_the_sides_are_evenly_matched(table, allies):
    state = quick_battle(table, allies)
    for side in state.sides.values():
        units = [u for u in state.units.values() if u.side == side.name]
        profiles = [u.profile for u in units]
        detachments = [u for u in units if u.profile.unit_class is UnitClass.INFANTRY]
        assert rare_units_problem(profiles) is None
        assert infantry_outnumber_support_problem(profiles) is None
        with_iaw = sum(1 for u in detachments if u.iaw_weapon is not None)
        assert iaw_problem(len(detachments), with_iaw, load_orbat(side.nation).iaw) is None
        assert sum(1 for u in units if u.is_command) == 1
        assert 220 <= force_points(state, side.name) <= 260
    assert abs(force_points(state, "allies") - force_points(state, "axis")) <= 20


def test_the_default_quick_battle_is_us_against_german_on_the_village_table():
    state = quick_battle()
    assert {name: side.nation for name, side in state.sides.items()} == {"allies": "us", "axis": "german"}
    assert (state.table.width, state.table.depth) == (72, 48)
    assert state.units["panzer-iv"].position.y == 40  # 8" from the German edge


def test_the_crossroads_table_scales_the_forces_to_its_four_foot_width():
    state = quick_battle("crossroads", "british")
    assert state.table.width == 48 and state.table.is_small
    assert state.units["firefly"].position.x == pytest.approx(12 * 48 / 72)


@pytest.mark.parametrize(
    ("table", "allies", "message"),
    [
        ("moon", "us", "There is no table 'moon': choose village, crossroads"),
        ("village", "german", "There is no allied force 'german': choose us, british, soviet"),
    ],
)
def test_an_unknown_table_or_force_is_refused_with_the_choices(table, allies, message):
    with pytest.raises(IllegalCommand, match=message):
        quick_battle(table, allies)
