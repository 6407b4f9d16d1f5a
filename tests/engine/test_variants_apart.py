"""Rule sets as packages (issue 20, step 2): the core engine never imports a rule set's package
nor names one; the packages register themselves and the registry lists them."""

import ast
from functools import cache
from pathlib import Path
from typing import Literal

import pytest

from engine import variant_parts
from engine.commands import ACTION_KINDS, BaseAction, LaySmoke, Move
from engine.errors import IllegalCommand
from engine.game_state import GameState
from engine.rulesets import RULE_SETS, RuleSet, rule_set_choices, with_rule_set
from engine.scenarios.new_game import make_unit
from engine.state import Phase, Point
from engine.variant_parts import VariantPart, register_part
from tests.engine.helpers import declare, game, started

ENGINE = Path(__file__).resolve().parents[2] / "engine"
VARIANTS = ENGINE / "variants"
REGISTERING = ENGINE / "__init__.py"  # imports engine.variants once, so the packages register


@cache
def _core_modules() -> list[tuple[Path, ast.Module]]:
    """Every core module of the engine, parsed once."""
    return [
        (path, ast.parse(path.read_text(), filename=str(path)))
        for path in sorted(ENGINE.rglob("*.py"))
        if VARIANTS not in path.parents
    ]


def _imported(tree: ast.Module) -> set[str]:
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names |= {node.module, *(f"{node.module}.{alias.name}" for alias in node.names)}
    return names


def test_no_core_module_imports_a_rule_set_package():
    found = {
        f"{path.relative_to(ENGINE.parent)}: {name}"
        for path, tree in _core_modules()
        for name in _imported(tree)
        if name.startswith("engine.variants") and not (path == REGISTERING and name == "engine.variants")
    }
    assert found == set()


def test_no_core_module_names_a_rule_set_package():
    packages = {path.name for path in VARIANTS.iterdir() if (path / "__init__.py").exists()}
    assert packages == {"house_v1"}
    found = [
        f"{path.relative_to(ENGINE.parent)}:{node.lineno}"
        for path, tree in _core_modules()
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and any(package in node.value for package in packages)
    ]
    assert found == []


def test_the_registry_offers_every_rule_set_by_name_and_title():
    assert rule_set_choices() == {"core_2015": "Iron Cross 2015", "house_v1": "House Rules V1.0"}
    assert list(RULE_SETS) == ["core_2015", "house_v1"]


class Skirmish(RuleSet):
    """A made-up third rule set: the 2015 rules without smoke, and a count of its own."""

    name = "skirmish"
    title = "Skirmish"
    actions = ("move", "fire", "embark", "disembark")


class SkirmishGame(VariantPart):
    rules: Literal["skirmish"] = "skirmish"
    skirmish_rounds: int = 0


def test_a_third_rule_set_plugs_in_without_a_change_to_the_core(monkeypatch):
    monkeypatch.setitem(RULE_SETS, Skirmish.name, Skirmish())
    for registry in ("_ATTRIBUTES", "_PARTS"):  # registered for this test only
        copied = {model: dict(parts) for model, parts in getattr(variant_parts, registry).items()}
        monkeypatch.setattr(variant_parts, registry, copied)
    register_part(GameState, SkirmishGame)
    assert rule_set_choices()["skirmish"] == "Skirmish"
    state = with_rule_set(
        game(
            make_unit("us", "Infantry Detachment", "allies", (30, 10), unit_id="gis"),
            make_unit("german", "Infantry Detachment", "axis", (30, 40), unit_id="gruppe"),
        ),
        "Skirmish",
    )
    assert isinstance(state.variant, SkirmishGame) and state.skirmish_rounds == 0
    state.skirmish_rounds = 2
    assert GameState.model_validate_json(state.model_dump_json()).skirmish_rounds == 2
    state = started(state, "allies")
    with pytest.raises(IllegalCommand, match="^Smoke is part of the Iron Cross 2015 and House Rules V1.0$"):
        declare(state, "allies", "gis", LaySmoke())
    state, _ = declare(state, "allies", "gis", Move(path=(Point(x=30, y=14),)))
    assert state.phase is Phase.REACTION and state.skirmish_rounds == 2


def test_a_second_action_of_a_kind_already_written_is_refused():
    """Stored orders are read by the action's kind, so two classes may not share one."""
    with pytest.raises(TypeError, match="'move'"):

        class Crawl(BaseAction):
            kind: Literal["move"] = "move"

    assert ACTION_KINDS["move"] is Move
