"""Reading positions and unit names as players type them."""

import math

import pytest

from bot.text_orders import choice_command, find_unit, parse_move, parse_path, parse_point, unit_order
from engine.commands import ChooseTarget, Fire, MoraleTestOrder, Move, RemoveMarkers
from engine.errors import IllegalCommand
from engine.game_state import Choice, Pending
from engine.geometry import bearing, distance
from engine.rules.movement import movement_allowance
from engine.scenarios.new_game import make_unit, new_game
from engine.scenarios.quick_battle import quick_battle
from engine.state import Point
from engine.variants.house_v1.commands import (
    ChooseDefender,
    ChooseFallBack,
    CloseCombat,
    EnterBuilding,
    LeaveBuilding,
    RequestFire,
)
from tests.engine.helpers import game


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
        find_unit(state, "Sniper Team", aimed_by="axis")
    # nor steered toward: a move "toward" it is refused just as for a unit that does not exist
    with pytest.raises(IllegalCommand, match="^No unit called 'sniper'.$"):
        parse_move(state, "gren", "3 toward sniper")


def test_a_unit_is_named_by_the_tag_its_picture_shows():
    """The picture labels Gruppe 1 "Gr1": a player types what they read, for their own unit, as a
    target, or as the unit a move goes toward."""
    state = quick_battle()
    assert find_unit(state, "Gr1", side="axis") == "gruppe-1"
    order = unit_order(state, "allies", "Sh1", fire="gr1")
    assert order.unit == "sherman-1" and order.actions == (Fire(target="gruppe-1"),)
    assert parse_move(state, "sherman-1", "6 toward PzIV") == parse_move(
        state, "sherman-1", "6 toward Panzer IV"
    )
    with pytest.raises(IllegalCommand, match="^No unit called 'Gr1'.$"):
        find_unit(state, "Gr1", side="allies")  # not one of the allies' own


def test_a_hidden_unit_cannot_be_named_by_its_tag_either():
    state = new_game(
        {"allies": "us", "axis": "german"},
        [
            make_unit("us", "Sniper Team", "allies", (30, 30), unit_id="sniper", hidden=True),
            make_unit("german", "Infantry Detachment", "axis", (10, 60), unit_id="gren"),
        ],
    )
    assert find_unit(state, "Snp", side="allies") == "sniper"  # its own side reads the tag
    with pytest.raises(IllegalCommand, match=r"^No unit called 'Snp'\.(?!.*Sniper)"):
        find_unit(state, "Snp", aimed_by="axis")
    with pytest.raises(IllegalCommand, match=r"^No unit called 'Snp'\.(?!.*Sniper)"):
        parse_move(state, "gren", "3 toward Snp")


def test_house_rules_orders_in_words():
    state = new_game(
        {"allies": "us", "axis": "german"},
        [
            make_unit("us", "Infantry Detachment", "allies", (30, 30), unit_id="gis"),
            make_unit("german", "Infantry Detachment", "axis", (10, 60), unit_id="gren"),
        ],
    )
    order = unit_order(state, "allies", "gis", move="30,26", enter="church")
    assert order.actions == (Move(path=(Point(x=30, y=26),)), EnterBuilding(building="church"))
    order = unit_order(state, "allies", "gis", leave="30,40", fire="gren")
    assert order.actions == (LeaveBuilding(to=Point(x=30, y=40)), Fire(target="gren"))
    order = unit_order(state, "allies", "gis", call_fire="D3")
    assert order.actions == (RequestFire(at=Point(x=21, y=15)),)
    named = (
        r"Name the weapon gun, mg, hull_mg, gun\+hull_mg, mg\+hull_mg, light_mortar, second_gun or "
        r"flamethrower, not 'cannon'"
    )
    with pytest.raises(IllegalCommand, match=named):
        unit_order(state, "allies", "gis", fire="gren", weapon="cannon")
    order = unit_order(state, "allies", "gis", fire="gren", weapon="gun+hull_mg")
    assert order.actions == (Fire(target="gren", weapon="gun+hull_mg"),)
    order = unit_order(state, "allies", "gis", assault="gren", overrun=False)
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
    order = unit_order(state, "allies", "croc", fire="gren", weapon="Flamethrower")
    assert order.actions == (Fire(target="gren", flamethrower=True),)
    order = unit_order(state, "allies", "hq", fire="gren", weapon="light_mortar")
    assert order.actions == (Fire(target="gren", weapon="light_mortar"),)


def _waiting(kind: str, options: list[str]):
    state = game(
        make_unit("us", "Infantry Detachment", "allies", (30, 30), unit_id="gis"),
        make_unit("german", "Infantry Detachment", "axis", (30, 36), unit_id="gren"),
    )
    state.pending = Pending(
        window=1,
        side="allies",
        order=MoraleTestOrder(),
        first_action=False,
        reactor_side="axis",
        choice=Choice(kind=kind, side="axis", options=options),
    )
    return state


@pytest.mark.parametrize(
    ("unit", "close_combat", "fall_back"),
    [(None, "fall_back", True), (None, "FIGHT_ON", False), ("fall_back", None, True)],  # a bare word
)
def test_choose_answers_a_close_combat_choice_as_discord_or_the_console_give_it(
    unit, close_combat, fall_back
):
    """/choose in Discord (close_combat:), at the console (a bare word) or by a card's menu: one
    function makes the command (House Rules V1.0, s. 6)."""
    state = _waiting("close_combat_fall_back", ["fall_back", "fight_on"])
    assert choice_command(state, "axis", unit, close_combat) == ChooseFallBack(
        side="axis", fall_back=fall_back
    )
    with pytest.raises(IllegalCommand, match="^Choose close_combat: fall_back or fight_on$"):
        choice_command(state, "axis", "gren", None)


def test_choose_names_a_unit_or_none_for_each_kind_of_choice():
    state = _waiting("remove_markers", ["gren"])
    assert choice_command(state, "axis", "Gren", None) == RemoveMarkers(side="axis", unit="gren")
    with pytest.raises(IllegalCommand, match="^Choose the unit that loses its markers$"):
        choice_command(state, "axis", "none", None)
    state.pending.choice.kind = "building_defender"
    assert choice_command(state, "axis", "gren", None) == ChooseDefender(side="axis", unit="gren")
    state.pending.choice.kind = "choose_target"
    assert choice_command(state, "axis", "none", None) == ChooseTarget(side="axis", target=None)
    assert choice_command(state, "axis", "gis", None) == ChooseTarget(side="axis", target="gis")
    state.pending = None
    with pytest.raises(IllegalCommand, match="^Nothing is waiting to be chosen$"):
        choice_command(state, "axis", "gis", None)
