"""Rule sets as packages (issue 20, step 2): the core engine never imports a rule set's package
nor names one; the packages register themselves and the registry lists them."""

import ast
from pathlib import Path

from engine.rulesets import RULE_SETS, rule_set_choices

ENGINE = Path(__file__).resolve().parents[2] / "engine"
VARIANTS = ENGINE / "variants"
REGISTERING = ENGINE / "__init__.py"  # imports engine.variants once, so the packages register


def _core_modules() -> list[tuple[Path, ast.Module]]:
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
