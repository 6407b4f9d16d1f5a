"""The built-in quick battle (``engine/data/quick_battle.yaml``), ready to start."""

from __future__ import annotations

from typing import Any

import yaml

from engine.game_state import GameState
from engine.profiles import DATA_DIR
from engine.setup import make_unit, new_game
from engine.state import Objective, Point, TableSize, TerrainFeature


def _point(pair: list[float]) -> Point:
    return Point(x=pair[0], y=pair[1])


def quick_battle() -> GameState:
    """Two forces of about 240 points, deployed on a 6' x 4' table with terrain."""
    raw: dict[str, Any] = yaml.safe_load((DATA_DIR / "quick_battle.yaml").read_text("utf-8"))
    terrain = [
        TerrainFeature.model_validate({**f, "outline": [_point(p) for p in f["outline"]]})
        for f in raw["terrain"]
    ]
    objectives = [
        Objective(id=o["id"], position=_point(o["position"])) for o in raw["objectives"]
    ]
    units = []
    for side, force in raw["sides"].items():
        for entry in force["units"]:
            units.append(
                make_unit(
                    force["nation"],
                    entry["profile"],
                    side,
                    tuple(entry["at"]),
                    name=entry["name"],
                    facing=force["facing"],
                    command=entry.get("command", False),
                    iaw=entry.get("iaw", False),
                )
            )
    return new_game(
        {side: force["nation"] for side, force in raw["sides"].items()},
        units,
        terrain=terrain,
        table=TableSize(**raw["table"]),
        objectives=objectives,
        last_turn=raw["last_turn"],
        random_length=raw["random_length"],
    )
