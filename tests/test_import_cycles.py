"""No import cycles in ``engine/``, ``renderer/`` or ``bot/``: each module's imports (those only for
type checking too) are read with ast, and the graph of a package's modules has no strongly
connected group of two or more."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def modules(package: str, root: Path = ROOT) -> dict[str, Path]:
    found = {}
    for path in (root / package).rglob("*.py"):
        parts = path.relative_to(root).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The modules of ``known`` that the module imports, by ``import`` or ``from ... import``.
    ``from package import module`` imports that module, not the package's ``__init__`` (as
    ``from package.module import name`` does not count the ``__init__`` either)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(
                    [*package.split(".")[: len(package.split(".")) - node.level + 1], base]
                ).strip(".")
            submodules = {f"{base}.{alias.name}" for alias in node.names} & known.keys()
            found |= submodules
            if len(submodules) < len(node.names):  # names defined in the package's __init__
                found.add(base)
    return {module for module in found if module in known and module != name}


def cycles(package: str, root: Path = ROOT) -> list[list[str]]:
    """The strongly connected groups of two or more modules (Tarjan's algorithm)."""
    known = modules(package, root)
    graph = {name: imports(name, path, known) for name, path in known.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in graph[node]:
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return groups


@pytest.mark.parametrize("package", ["engine", "renderer", "bot"])
def test_no_import_cycles(package):
    assert cycles(package) == []


def test_a_cycle_through_a_type_checking_import_is_found(tmp_path):
    """The check itself, on a small package: a relative import one way, and one only for type
    checking the other way, make a cycle; a third module outside it is not in the group."""
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "table.py").write_text("from . import desk\nfrom pkg.alone import X\n")
    (package / "desk.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.table import Table\n"
    )
    (package / "alone.py").write_text("X = 1\n")
    assert cycles("pkg", tmp_path) == [["pkg.desk", "pkg.table"]]
    (package / "desk.py").write_text("")
    assert cycles("pkg", tmp_path) == []


def test_importing_a_module_from_its_package_does_not_count_the_package(tmp_path):
    """``from pkg import alone`` reads the module ``pkg.alone``: no cycle with a package
    ``__init__`` that imports the importer; a name the ``__init__`` itself defines does count."""
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("from pkg import table\nLIMIT = 3\n")
    (package / "table.py").write_text("from pkg import alone\n")
    (package / "alone.py").write_text("X = 1\n")
    assert cycles("pkg", tmp_path) == []
    (package / "table.py").write_text("from pkg import LIMIT, alone\n")
    assert cycles("pkg", tmp_path) == [["pkg", "pkg.table"]]
