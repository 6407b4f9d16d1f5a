"""The built-in quick battles (``engine/data/quick_battle.yaml``): a table and two forces,
deployed and ready to start."""

from __future__ import annotations

from functools import cache
from typing import Any

import yaml

from engine.game_state import GameState
from engine.profiles import DATA_DIR
from engine.setup import make_unit, new_game
from engine.state import Objective, Point, TableSize, TerrainFeature, Unit

DATA_WIDTH = 72.0  # the table width the forces' x positions are written for


@cache
def _data() -> dict[str, Any]:
    return yaml.safe_load((DATA_DIR / "quick_battle.yaml").read_text("utf-8"))


def quick_tables() -> dict[str, str]:
    """Each built-in table's name with a one-line description."""
    return {name: table["title"] for name, table in _data()["tables"].items()}


def quick_forces() -> dict[str, str]:
    """Each built-in force's name with a one-line description."""
    return {name: force["title"] for name, force in _data()["forces"].items()}


def allied_forces() -> list[str]:
    """The forces that can face the German one."""
    return [name for name in _data()["forces"] if name != "german"]


def _point(pair: list[float]) -> Point:
    return Point(x=pair[0], y=pair[1])


def _deploy(force_name: str, side: str, table: TableSize) -> list[Unit]:
    """A force along its own table edge: the allies at y = 0 facing the axis at the far edge."""
    force = _data()["forces"][force_name]
    near_edge = side == "allies"
    units = []
    for entry in force["units"]:
        x, from_edge = entry["at"]
        at = (x * table.width / DATA_WIDTH, from_edge if near_edge else table.depth - from_edge)
        units.append(
            make_unit(
                force["nation"],
                entry["profile"],
                side,
                at,
                name=entry["name"],
                facing=90 if near_edge else 270,
                command=entry.get("command", False),
                iaw=entry.get("iaw", False),
            )
        )
    return units


def quick_battle(table: str = "village", allies: str = "us") -> GameState:
    """A quick battle: ``allies`` (us, british or soviet) against the German force on ``table``."""
    raw = _data()
    if table not in raw["tables"]:
        raise ValueError(f"no table {table!r}: choose from {', '.join(raw['tables'])}")
    if allies not in allied_forces():
        raise ValueError(f"no allied force {allies!r}: choose from {', '.join(allied_forces())}")
    layout = raw["tables"][table]
    size = TableSize(width=layout["width"], depth=layout["depth"])
    terrain = [
        TerrainFeature.model_validate({**f, "outline": [_point(p) for p in f["outline"]]})
        for f in layout["terrain"]
    ]
    objectives = [Objective(id=o["id"], position=_point(o["position"])) for o in layout["objectives"]]
    forces = {"allies": allies, "axis": "german"}
    return new_game(
        {side: raw["forces"][name]["nation"] for side, name in forces.items()},
        [unit for side, name in forces.items() for unit in _deploy(name, side, size)],
        terrain=terrain,
        table=size,
        objectives=objectives,
        last_turn=raw["last_turn"],
        random_length=raw["random_length"],
    )
