"""The scripts in ``benchmarks/`` still work against today's code, so none rots unseen: every one
imports (a name it takes from the bot, the engine, the renderer or the test harness that was
renamed or removed fails here), and those whose sizes go small enough run once at their smallest,
in a few seconds at most (a method or a reply that changed its shape fails too)."""

import asyncio
import importlib.util
import inspect
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests.storage.postgres import binaries

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"

# the arguments that make a script cheap (scale_out's, below: it starts a PostgreSQL server)
SMALLEST = {
    "backup_during_play": ["--games", "1", "--played", "55"],
    "busy_channels": ["--channels", "1", "--actions", "2"],
    "dice_and_rules": ["--quick"],
    "first_response": ["--channels", "1", "--repeats", "5", "--workers", "1"],
    "gc_pauses": ["--windows", "10", "--loads", "20"],
    "migration_kills": ["--kills", "1"],
    "pipeline": ["--actions", "3", "--burst", "2", "--workers", "0", "--tables", "1", "--live", "1"],
    "random_taps": ["--games", "1", "--units", "1"],  # a whole game by taps: about 10 s
    "replay": ["--lengths", "20", "--logs", "10", "--no-battle"],
    "restart_overdue": ["--windows", "2"],
    "restart_windows": ["--windows", "2"],
    "stand_in": ["--battles", "1", "--throws", "1", "--workers", "1", "--first", "2"],  # its shortest
    "stand_in_loop": ["--decisions", "2"],
    "rules_library_load": ["--quick"],
    "table_cache": ["--tables", "1", "--rounds", "1"],
    "undo": ["--lengths", "5", "--repeats", "1"],
}


def benchmark(name: str) -> ModuleType:
    """The script as a module: its ``main()`` runs only when it is run as a script."""
    spec = importlib.util.spec_from_file_location(f"benchmarks_{name}", BENCHMARKS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", sorted(path.stem for path in BENCHMARKS.glob("*.py")))
def test_the_benchmark_imports(name: str) -> None:
    assert callable(benchmark(name).main)


def run(name: str, arguments: list[str], monkeypatch) -> None:
    """The script's ``main()``, as if run with these arguments."""
    monkeypatch.setattr(sys, "argv", [f"{name}.py", *arguments])
    ran = benchmark(name).main()
    if inspect.iscoroutine(ran):
        asyncio.run(ran)


@pytest.mark.parametrize("name", sorted(SMALLEST))
def test_the_benchmark_runs_at_its_smallest(name: str, monkeypatch, capsys) -> None:
    run(name, SMALLEST[name], monkeypatch)
    assert capsys.readouterr().out.strip()  # it printed its figures


def test_scale_out_runs_at_its_smallest(monkeypatch, capsys) -> None:
    """One process on a throw-away PostgreSQL server, as the script starts one itself."""
    if binaries() is None:
        pytest.skip("PostgreSQL's server binaries are not installed")
    run("scale_out", ["--channels", "2", "--at-once", "1", "--processes", "1", "--overdue", "2"], monkeypatch)
    out = capsys.readouterr().out
    assert "1 process(es):" in out and "fired 2 overdue windows" in out and "twice: 0" in out


def test_the_rules_coverage_runs_on_a_book_of_two_headings(tmp_path, monkeypatch, capsys) -> None:
    """The coverage script reads a book by its file's name: here a made-up one of two headings,
    in the shape of the 2015 rules (a table of contents, then the headings in capitals)."""
    contents = "| Moving | 3 |\n| Firing | 4 |\n"
    book = contents + "\nIntroduction\n\nMOVING\n\nA unit goes.\n\nFIRING\n\nA unit shoots.\n"
    (tmp_path / "iron-cross-rules-2015.txt").write_text(book, encoding="utf-8")
    run("rules_import_coverage", ["--seeds", str(tmp_path)], monkeypatch)
    assert "iron-cross-rules-2015 headings: 2 of 2 resolve" in capsys.readouterr().out
