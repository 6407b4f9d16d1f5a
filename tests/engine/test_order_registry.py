"""The order registry (issue 31): each kind of order is one registered type, and no module but the
registry tells the order classes apart."""

import ast
from pathlib import Path
from typing import get_args

from engine.commands import Order
from tests.engine.test_action_registry import source_modules

ROOT = Path(__file__).resolve().parents[2]
REGISTRY = ROOT / "engine" / "order_kinds.py"
ORDER_CLASSES = {cls.__name__: cls for cls in get_args(get_args(Order)[0])}


def _modules() -> list[tuple[Path, ast.Module]]:
    """Every module of the engine, the bot and the renderer but the registry."""
    return [(path, tree) for path, tree in source_modules() if path != REGISTRY]


def _imported_as(tree: ast.Module) -> dict[str, str]:
    """The names a module gives the classes it imports, with the names they were written under."""
    return {
        alias.asname or alias.name: alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }


def _classes_named(node: ast.AST, imported: dict[str, str]) -> set[str]:
    """The order classes an expression names (a name, a dotted name, a tuple or an ``A | B``)."""
    names = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
    names |= {n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)}
    return {imported.get(name, name) for name in names} & ORDER_CLASSES.keys()


def _class_tests(tree: ast.Module) -> list[tuple[int, ast.AST]]:
    """Where a module asks what class something is, with the class it asks about: an isinstance,
    a ``type(x) is C`` and a ``case C(...)``."""
    tests: list[tuple[int, ast.AST]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and len(node.args) == 2:
            if node.func.id == "isinstance":
                tests.append((node.lineno, node.args[1]))
        elif isinstance(node, ast.Compare) and _is_type_call(node.left):
            tests.extend((node.lineno, side) for side in node.comparators)
        elif isinstance(node, ast.MatchClass):
            tests.append((node.cls.lineno, node.cls))
    return sorted(tests, key=lambda test: test[0])


def _is_type_call(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "type"


def test_no_module_outside_the_registry_asks_whether_an_order_is_of_some_class():
    found = [
        f"{path.relative_to(ROOT)}:{line} ({', '.join(sorted(named))})"
        for path, tree in _modules()
        for line, asked in _class_tests(tree)
        if (named := _classes_named(asked, _imported_as(tree)))
    ]
    assert found == []


def test_the_scan_finds_every_way_of_asking_an_orders_class():
    """The scan above would see an isinstance, a type comparison and a match over an order class,
    under an imported name of its own too."""
    written = """
from engine.commands import FallBackOrder as Back, PlatoonOrder, UnitOrder
from engine import commands
a = isinstance(order, UnitOrder | Back)
b = type(order) is PlatoonOrder
match order:
    case commands.MoraleTestOrder():
        pass
c = isinstance(order, str)
"""
    tree = ast.parse(written)
    asked = [_classes_named(node, _imported_as(tree)) for _, node in _class_tests(tree)]
    assert asked == [{"UnitOrder", "FallBackOrder"}, {"PlatoonOrder"}, {"MoraleTestOrder"}, set()]


def test_every_kind_of_order_a_command_may_carry_has_one_registered_type():
    from engine.order_kinds import ORDER_KINDS

    assert {kind.command for kind in ORDER_KINDS.values()} == set(ORDER_CLASSES.values())
    assert all(kind.command.model_fields["kind"].default == name for name, kind in ORDER_KINDS.items())
