"""The action registry (issue 20, step 1): every action is one object, the rule set says which
actions a game has, and no core module asks an action's class or a rule set's name."""

import ast
from functools import cache
from pathlib import Path

import pytest

from engine.actions.base import ActionType
from engine.actions.registry import ACTION_TYPES, order_actions, order_options
from engine.commands import ACTION_KINDS, Disembark, Embark, Fire, LaySmoke, Move
from engine.errors import IllegalCommand
from engine.rulesets import RULE_SETS, RuleSet
from engine.scenarios.new_game import make_unit
from engine.state import Point
from engine.variants.house_v1.commands import (
    Bombard,
    CloseCombat,
    EnterBuilding,
    LeaveBuilding,
    RequestFire,
    ShellBuilding,
)
from tests.engine.helpers import declare, game, started

ROOT = Path(__file__).resolve().parents[2]
REGISTRY = ROOT / "engine" / "actions"
HOUSE = r"is part of the House Rules V1\.0$"
ACTION_CLASSES = {cls.__name__: cls for cls in ACTION_KINDS.values()}


@cache
def source_modules() -> list[tuple[Path, ast.Module]]:
    """Every module of the engine, the bot and the renderer, parsed once."""
    return [
        (path, ast.parse(path.read_text(), filename=str(path)))
        for package in ("engine", "bot", "renderer")
        for path in sorted((ROOT / package).rglob("*.py"))
    ]


def _modules() -> list[tuple[Path, ast.Module]]:
    """Every module of the engine, the bot and the renderer outside the registry."""
    return [(path, tree) for path, tree in source_modules() if REGISTRY not in path.parents]


def _names_in(node: ast.AST) -> set[str]:
    """Class names in an isinstance's second argument (a name, a tuple or an ``A | B`` union)."""
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)} | {
        n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)
    }


def test_no_module_outside_the_registry_asks_whether_an_action_is_of_some_class():
    found = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for path, tree in _modules()
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "isinstance"
        and len(node.args) == 2
        and _names_in(node.args[1]) & ACTION_CLASSES.keys()
    ]
    assert found == []


def test_no_module_compares_anything_with_a_rule_sets_name():
    names = set(RULE_SETS)
    found = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for path, tree in _modules()
        for node in ast.walk(tree)
        if isinstance(node, ast.Compare)
        and any(
            isinstance(side, ast.Constant) and side.value in names for side in (node.left, *node.comparators)
        )
    ]
    assert found == []


def test_rule_sets_carry_no_feature_flags():
    """What differs between rule sets is an action offered or a method, never a yes/no switch."""
    flags = {
        f"{rules.__name__}.{name}"
        for rules in (RuleSet, *RuleSet.__subclasses__())
        for name, value in vars(rules).items()
        if isinstance(value, bool)
    }
    assert flags == set()


def test_every_action_class_written_is_registered_under_its_own_name():
    classes = _subclasses(ActionType)
    assert len(classes) > 10
    assert sorted(type(action).__name__ for action in ACTION_TYPES.values()) == sorted(
        c.__name__ for c in classes
    )


def _subclasses(cls: type) -> list[type]:
    return [sub for direct in cls.__subclasses__() for sub in (direct, *_subclasses(direct))]


def test_every_action_command_has_exactly_one_action_in_each_rule_set_that_offers_it():
    for rules in RULE_SETS.values():
        assert set(rules.actions) <= ACTION_TYPES.keys(), rules.name
        commands = [ACTION_TYPES[name].command for name in rules.actions]
        assert len(commands) == len(set(commands)), rules.name
    registered = {kind.command for kind in ACTION_TYPES.values()}
    assert registered == set(ACTION_CLASSES.values())
    offered = {name for rules in RULE_SETS.values() for name in rules.actions}
    assert offered == ACTION_TYPES.keys()  # no action that no rule set offers


def test_the_2015_rules_offer_the_books_actions():
    """p. 5: move (normal or rapid), fire, embark, disembark; p. 12: smoke laid by the unit."""
    core = RULE_SETS["core_2015"]
    assert sorted(core.actions) == ["disembark", "embark", "fire", "move", "smoke"]


def test_the_house_rules_offer_the_books_actions_and_their_own():
    """House Rules V1.0: moves that keep out of buildings and 3" from the enemy, and going into
    and out of buildings (s. 4); smoke rounds at a spot, HE at buildings, calling and firing
    indirect fire (s. 5); close combat (s. 6)."""
    house = RULE_SETS["house_v1"]
    assert sorted(house.actions) == [
        "bombard",
        "close_combat",
        "disembark",
        "embark",
        "enter_building",
        "fire",
        "house_move",
        "leave_building",
        "request_fire",
        "shell_building",
        "smoke_round",
    ]
    assert ACTION_TYPES["house_move"].command is ACTION_TYPES["move"].command
    assert ACTION_TYPES["smoke_round"].command is ACTION_TYPES["smoke"].command


def _core_game():
    return started(
        game(
            make_unit("british", "Infantry Detachment", "allies", (30, 10), unit_id="tommies"),
            make_unit("german", "Infantry Detachment", "axis", (30, 14), unit_id="gruppe"),
        ),
        "allies",
    )


@pytest.mark.parametrize(
    "action, refusal",
    [
        (
            CloseCombat(target="gruppe"),
            r"^Close combat is part of the House Rules V1\.0 \(/game new ruleset:house_v1\)$",
        ),
        (RequestFire(at=Point(x=30, y=20)), rf"^Indirect fire with spotters {HOUSE}"),
        (Bombard(), rf"^Indirect fire with spotters {HOUSE}"),
        (EnterBuilding(building="inn"), rf"^Occupying buildings {HOUSE}"),
        (LeaveBuilding(to=Point(x=30, y=8)), rf"^Occupying buildings {HOUSE}"),
        (ShellBuilding(building="inn"), rf"^Firing at a building as a whole {HOUSE}"),
    ],
)
def test_a_2015_game_refuses_a_house_action_naming_the_rules_that_have_it(action, refusal):
    with pytest.raises(IllegalCommand, match=refusal):
        declare(_core_game(), "allies", "tommies", action)


# --- the options of /act, declared by the actions -------------------------------------------------

P1, P2 = Point(x=10, y=10), Point(x=12, y=14)


def test_every_option_of_act_is_declared_once_by_an_action():
    declared = [option.name for kind in ACTION_TYPES.values() for option in kind.options]
    assert set(order_options()) == set(declared) and len(order_options()) <= 24  # + unit: Discord's 25
    assert [n for n in order_options() if n in ("move", "fire", "assault", "bombard")] == [
        "move",
        "fire",
        "bombard",
        "assault",
    ]  # the order the actions were written in: the 2015 ones first


def test_the_actions_of_an_order_stand_in_their_places_and_first_fire_puts_the_shot_first():
    given = {"move": (P2,), "fire": "gren", "disembark": P1, "embark": "halftrack"}
    assert order_actions(given) == (
        Disembark(to=P1),
        Move(path=(P2,)),
        Fire(target="gren"),
        Embark(transport="halftrack"),
    )
    assert order_actions({**given, "first": "fire"})[:3] == (
        Disembark(to=P1),
        Fire(target="gren"),
        Move(path=(P2,)),
    )
    assert order_actions({"leave": P1, "assault": "gren", "overrun": False}) == (
        LeaveBuilding(to=P1),
        CloseCombat(target="gren", overrun=False),
    )


def test_bombard_takes_the_smoke_option_over_and_a_shot_and_smoke_are_refused_together():
    assert order_actions({"bombard": True, "smoke": True}) == (Bombard(smoke=True),)
    assert order_actions({"smoke": True}) == (LaySmoke(),)
    assert order_actions({"smoke_at": P1}) == (LaySmoke(at=P1),)
    with pytest.raises(
        IllegalCommand, match="^A unit either fires or lays smoke in one activation, not both$"
    ):
        order_actions({"fire": "gren", "smoke": True})
    with pytest.raises(IllegalCommand, match=r"go with a target \(fire:\)$"):
        order_actions({"storey": "1"})
    assert order_actions({}) == ()
