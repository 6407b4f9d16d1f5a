"""Reading positions and unit names as players type them."""

import math

import pytest

from bot.text_orders import OrderWords, find_unit, parse_move, parse_path, parse_point, unit_order
from engine.commands import Fire, Move
from engine.errors import IllegalCommand
from engine.geometry import bearing, distance
from engine.rules.movement import movement_allowance
from engine.scenarios.new_game import make_unit, new_game
from engine.scenarios.quick_battle import quick_battle
from engine.state import Point
from engine.variants.house_v1.commands import CloseCombat, EnterBuilding, LeaveBuilding, RequestFire


def test_inches_and_grid_squares():
    assert parse_point("30,18") == Point(x=30, y=18)
    assert parse_point(" 30.5 , 18 ") == Point(x=30.5, y=18)
    assert parse_point("A1") == Point(x=3, y=3)
    assert parse_point("d3") == Point(x=21, y=15)
    assert parse_point("D3+1,-2") == Point(x=22, y=13)


def test_paths_and_bad_positions():
    assert parse_path("10,10; B2") == (Point(x=10, y=10), Point(x=9, y=9))
    with pytest.raises(IllegalCommand, match="not a position: write inches as x,y"):
        parse_point("north")


def test_unit_names_by_id_or_name_with_suggestions():
    state = quick_battle()
    assert find_unit(state, "Sherman 1") == "sherman-1"
    assert find_unit(state, "PANZER-IV") == "panzer-iv"
    with pytest.raises(IllegalCommand, match="Did you mean Sherman 1 or Sherman 2"):
        find_unit(state, "shermann")
    with pytest.raises(IllegalCommand, match="No unit called 'sherman-1'"):
        find_unit(state, "sherman-1", side="axis")


def test_a_move_toward_a_unit_goes_that_far_on_the_straight_line():
    state = quick_battle()  # Sherman 1 at (12, 8); Panzer IV at (14, 40)
    (end,) = parse_move(state, "sherman-1", "10 toward Panzer IV")
    assert (end.x, end.y) == (12.62, 17.98)
    (stop,) = parse_move(state, "sherman-1", '50" toward panzer-iv')
    assert (stop.x, stop.y) == (13.74, 35.95)  # in contact with the Panzer IV's base, not on it
    facing = bearing(Point(x=12, y=8), stop)
    arrived = state.units["sherman-1"].model_copy(update={"position": stop, "facing": facing})
    assert distance(arrived, state.units["panzer-iv"]) < 0.02
    assert parse_move(state, "sherman-1", "D3") == (Point(x=21, y=15),)


def test_a_full_move_toward_a_unit_is_never_refused_as_too_long_p8():
    """A move "N toward" a unit, N the unit's whole allowance (p. 8), measures at most N after
    rounding to 0.01": at the quick battles' start positions none is refused for its length."""
    for table in ("village", "crossroads"):
        state = quick_battle(table)
        for unit in state.units.values():
            for goal in state.units.values():
                if goal.side == unit.side:
                    continue
                reach = movement_allowance(unit.profile, rapid=False, road=False)
                (end,) = parse_move(state, unit.id, f"{reach:g} toward {goal.id}")
                length = math.dist((unit.position.x, unit.position.y), (end.x, end.y))
                assert length <= reach, (table, unit.id, goal.id, length)


def test_a_hidden_unit_cannot_be_named_as_a_target():
    state = new_game(
        {"allies": "us", "axis": "german"},
        [
            make_unit("us", "Sniper Team", "allies", (30, 30), unit_id="sniper", hidden=True),
            make_unit("german", "Infantry Detachment", "axis", (10, 60), unit_id="gren"),
        ],
    )
    assert find_unit(state, "Sniper Team") == "sniper"
    with pytest.raises(IllegalCommand, match="^No unit called 'Sniper Team'.$"):
        find_unit(state, "Sniper Team", targets=True)
    # nor steered toward: a move "toward" it is refused just as for a unit that does not exist
    with pytest.raises(IllegalCommand, match="^No unit called 'sniper'.$"):
        parse_move(state, "gren", "3 toward sniper")


def test_house_rules_orders_in_words():
    state = new_game(
        {"allies": "us", "axis": "german"},
        [
            make_unit("us", "Infantry Detachment", "allies", (30, 30), unit_id="gis"),
            make_unit("german", "Infantry Detachment", "axis", (10, 60), unit_id="gren"),
        ],
    )
    order = unit_order(state, "allies", OrderWords("gis", move="30,26", enter="church"))
    assert order.actions == (Move(path=(Point(x=30, y=26),)), EnterBuilding(building="church"))
    order = unit_order(state, "allies", OrderWords("gis", leave="30,40", fire="gren"))
    assert order.actions == (LeaveBuilding(to=Point(x=30, y=40)), Fire(target="gren"))
    order = unit_order(state, "allies", OrderWords("gis", call_fire="D3"))
    assert order.actions == (RequestFire(at=Point(x=21, y=15)),)
    named = (
        r"Name the weapon gun, mg, hull_mg, gun\+hull_mg, mg\+hull_mg, light_mortar, second_gun or "
        r"flamethrower, not 'cannon'"
    )
    with pytest.raises(IllegalCommand, match=named):
        unit_order(state, "allies", OrderWords("gis", fire="gren", weapon="cannon"))
    order = unit_order(state, "allies", OrderWords("gis", fire="gren", weapon="gun+hull_mg"))
    assert order.actions == (Fire(target="gren", weapon="gun+hull_mg"),)
    order = unit_order(state, "allies", OrderWords("gis", assault="gren", overrun=False))
    assert order.actions == (CloseCombat(target="gren", overrun=False),)


def test_a_flame_tank_names_its_flamethrower_and_a_british_command_unit_its_mortar_p22():
    state = new_game(
        {"allies": "british", "axis": "german"},
        [
            make_unit("british", "Churchill Crocodile", "allies", (30, 30), unit_id="croc"),
            make_unit("british", "Infantry Detachment", "allies", (40, 30), unit_id="hq", command=True),
            make_unit("german", "Infantry Detachment", "axis", (30, 36), unit_id="gren"),
        ],
    )
    order = unit_order(state, "allies", OrderWords("croc", fire="gren", weapon="Flamethrower"))
    assert order.actions == (Fire(target="gren", flamethrower=True),)
    order = unit_order(state, "allies", OrderWords("hq", fire="gren", weapon="light_mortar"))
    assert order.actions == (Fire(target="gren", weapon="light_mortar"),)
