"""Every script in ``benchmarks/`` still imports against today's code: a name it takes from the
bot, the engine, the renderer or the test harness that was renamed or removed fails here, in the
ordinary test run, rather than the next time someone measures."""

import importlib.util
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


@pytest.mark.parametrize("script", sorted(BENCHMARKS.glob("*.py")), ids=lambda path: path.name)
def test_the_benchmark_imports(script: Path) -> None:
    spec = importlib.util.spec_from_file_location(f"benchmarks_{script.stem}", script)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # its main() runs only as a script
    assert callable(module.main)
