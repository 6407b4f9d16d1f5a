"""Every data file the packages read is declared as package data, so an installed copy (the
Docker image installs the project, not an editable checkout) has it too."""

import fnmatch
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_data_file_is_package_data():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    declared = config["tool"]["setuptools"]["package-data"]
    missing = []
    for package in ("engine", "bot", "renderer"):
        for path in (ROOT / package).rglob("*"):
            if path.is_dir() or path.suffix in (".py", ".pyc") or "__pycache__" in path.parts:
                continue
            inside = path.relative_to(ROOT / package).as_posix()
            if not any(fnmatch.fnmatch(inside, pattern) for pattern in declared.get(package, [])):
                missing.append(f"{package}/{inside}")
    assert missing == []
