"""The engine's boundaries and its documented example."""

import ast
import doctest
from pathlib import Path

import engine

ENGINE = Path(engine.__file__).parent
FORBIDDEN = ("bot", "renderer", "discord", "sqlmodel", "sqlalchemy", "aiosqlite", "PIL")


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_engine_imports_nothing_from_bot_renderer_discord_or_storage():
    offenders = {
        f"{path.relative_to(ENGINE)}: {name}"
        for path in ENGINE.rglob("*.py")
        for name in imported_modules(path)
        if name.split(".")[0] in FORBIDDEN
    }
    assert not offenders


def test_the_package_example_plays_an_activation_a_reaction_and_a_shot():
    result = doctest.testmod(engine, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted >= 15
    assert result.failed == 0
