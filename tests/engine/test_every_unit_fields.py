"""Every unit of both books goes into a force under its rule set and into a game: it fires, moves
and, where its rules have close combat, assaults (issue 22). Parametrised over the data, so a
unit added to an order of battle or to the quick reference is covered without a new test."""

from __future__ import annotations

import pytest

from engine.commands import Declare, DeclineReaction, Fire, Move, UnitOrder
from engine.dice import SeededDice
from engine.errors import IllegalCommand
from engine.forces import add_unit, choose_command, force_units, new_force, set_transport
from engine.game import apply
from engine.profiles import NATIONS, Special, load_orbat
from engine.rulesets import RuleSet, with_rule_set
from engine.scenarios.new_game import make_unit, new_game
from engine.state import Point, Unit
from engine.variants.house_v1.commands import Bombard, CloseCombat
from engine.variants.house_v1.state import FireMarker
from engine.variants.house_v1.traits import MoveClass
from engine.variants.house_v1.units import quick_reference_entries
from tests.engine.helpers import started

HOUSE = "house_v1"
ENEMY = {"german": "british", "british": "german", "us": "german", "soviet": "german"}
HERE, AHEAD, TANK_AT = Point(x=40, y=20), Point(x=40, y=26), Point(x=48, y=34)
FAR = Point(x=40, y=46)  # beyond a mortar's 18" least range (s. 5 Indirect fire)


def _cases():
    for nation in NATIONS:
        for profile in load_orbat(nation).units:
            yield pytest.param(RuleSet.name, nation, profile.name, id=f"2015-{nation}-{profile.name}")
    for nation in NATIONS:
        for name in quick_reference_entries(nation):
            yield pytest.param(HOUSE, nation, name, id=f"house-{nation}-{name}")


def _fielded(rules: str, nation: str, name: str) -> tuple[Unit, list[Unit]]:
    """The unit as a force under ``rules`` brings it to a game (a transport is bought for an
    infantry squad, which rides in it), and whoever else came with it."""
    force = new_force(nation, "Every unit", 10_000, rules=rules)
    try:
        force = add_unit(force, name, label="Tested")
    except IllegalCommand as only_as_transport:
        assert "comes only as a transport" in str(only_as_transport)
        squad = next(u.name for u in load_orbat(nation).units if u.unit_class.value == "infantry")
        force = choose_command(add_unit(force, squad, label="Tested"), "Tested")  # some carry only the HQ
        force = set_transport(force, "Tested", name)
    units = force_units(force, "allies")
    tested = next(u for u in units if u.profile.name == force_units_name(units, name))
    return tested, [u for u in units if u is not tested]


def force_units_name(units: list[Unit], name: str) -> str:
    names = [u.profile.name for u in units]
    return name if name in names else next(n for n in names if n.casefold() == name.casefold())


def _game(rules: str, nation: str, name: str):
    tested, others = _fielded(rules, nation, name)
    tested = tested.model_copy(update={"position": HERE, "facing": 90.0})
    riders = [u.model_copy(update={"position": HERE, "embarked_in": tested.id}) for u in others]
    enemy = ENEMY[nation]
    squad = next(u.name for u in load_orbat(enemy).units if u.unit_class.value == "infantry")
    tank = "Panther" if enemy == "german" else "Sherman 75mm"
    units = [
        tested,
        *riders,
        make_unit(enemy, squad, "axis", AHEAD, unit_id="squad", facing=270),
        make_unit(enemy, tank, "axis", TANK_AT, unit_id="tank", facing=270),
        make_unit(enemy, squad, "axis", FAR, unit_id="far", facing=270),
        make_unit(nation, "Infantry Detachment", "allies", (20, 8), unit_id="hq", command=True),
    ]
    state = new_game({"allies": nation, "axis": enemy}, units)
    if rules != RuleSet.name:
        state = with_rule_set(state, rules)
    return started(state, "allies"), tested.id


def _act(state, unit: str, *actions, seed: int = 1):
    dice = SeededDice(seed)
    state, declared = apply(state, Declare(side="allies", order=UnitOrder(unit=unit, actions=actions)), dice)
    if state.pending is None:  # an immediate close combat: no reaction (s. 3)
        return state, declared
    state, resolved = apply(state, DeclineReaction(side="axis", window=state.pending.window), dice)
    return state, [*declared, *resolved]


def _fires(state, unit: str) -> list[str]:
    """The unit's shots, trying each target and way of firing its rules allow."""
    tries = [(Fire(target="squad"),), (Fire(target="tank"),), (Fire(target="squad", weapon="light_mortar"),)]
    for actions in tries:
        try:
            _, events = _act(state.model_copy(deep=True), unit, *actions)
        except IllegalCommand:
            continue
        return [e.text for e in events if e.kind == "fire"]
    if state.ruleset == HOUSE:  # a mortar fires indirectly at a spot a spotter called (s. 5)
        marked = state.model_copy(deep=True)
        marked.fire_markers.append(FireMarker(side="allies", at=FAR, turn=state.turn))
        try:
            _, events = _act(marked, unit, Bombard())
        except IllegalCommand:
            return []
        return [e.text for e in events if e.kind in ("fire", "bombard", "indirect")]
    return []


def _armed(unit: Unit) -> bool:
    house = unit.profile.house
    if house is not None:
        return (
            house.ap is not None
            or house.he is not None
            or house.mg
            or house.flamethrower
            or (house.troop_type.value == "support_light")
        )
    specials = (Special.FLAMETHROWER, Special.SNIPER)
    return unit.profile.weapon is not None or any(unit.profile.has(s) for s in specials)


@pytest.mark.parametrize("rules, nation, name", list(_cases()))
def test_every_unit_is_fielded_and_fires_moves_and_assaults(rules, nation, name):
    state, unit = _game(rules, nation, name)
    tested = state.units[unit]
    shots = _fires(state, unit)
    assert bool(shots) == _armed(tested), f"{name}: {shots or 'no shot'}"
    assert not shots or shots[0].startswith(tested.name)

    immobile = tested.profile.house is not None and tested.profile.house.move is MoveClass.NONE
    to = Point(x=HERE.x - 2, y=HERE.y)
    if immobile:
        with pytest.raises(IllegalCommand):
            _act(state.model_copy(deep=True), unit, Move(path=(to,)))
    else:
        moved, _ = _act(state.model_copy(deep=True), unit, Move(path=(to,)))
        assert moved.units[unit].position == to

    if rules == HOUSE:
        close = state.model_copy(deep=True)
        close.units["squad"].position = Point(x=HERE.x, y=HERE.y + 4.5)
        try:
            fought, events = _act(close, unit, CloseCombat(target="squad"))
        except IllegalCommand as refused:
            assert not _may_assault(tested), f"{name} may assault: {refused}"
        else:
            assert _may_assault(tested), f"{name} assaulted"
            assert any(e.kind == "close_combat" for e in events)


def _may_assault(unit: Unit) -> bool:
    """House Rules V1.0, s. 6: infantry squads attack, and enclosed AFVs overrun."""
    house = unit.profile.house
    assert house is not None
    return house.troop_type.value in ("infantry", "enclosed_afv")
