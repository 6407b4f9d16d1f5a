"""The built-in quick battles (``engine/data/quick_battle.yaml``): a table and two forces,
deployed and ready to start."""

from __future__ import annotations

from functools import cache
from typing import Any

import yaml

from engine.deployment.areas import DeploymentAreas, check_areas_allowed, deployment_area_spans
from engine.deployment.plan import Zone
from engine.errors import IllegalCommand
from engine.game_state import GameState, PlannedScenario
from engine.profiles import DATA_DIR
from engine.scenarios.book import find_scenario
from engine.scenarios.new_game import make_unit, new_game
from engine.scenarios.setup import AttackerChoice, check_attacker_choice
from engine.state import Objective, Point, TableSize, TerrainFeature, Unit
from engine.tables.layout import BattleTable
from engine.tables.scenario_ground import (
    Along,
    deployment_edges,
    nearest_set_up_spot,
    scenario_objectives,
)
from engine.wording import counted

DATA_WIDTH = 72.0  # the table width the forces' x positions are written for
QUICK_AREA_DEPTH = 12.0  # inches from its edge a quick battle's force stands in


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


def table_title(table: str | BattleTable) -> str:
    """A built-in table's description, or a saved or generated table's name and size."""
    if isinstance(table, BattleTable):
        return f'{table.name} ({table.width:g}" x {table.depth:g}", {counted(len(table.pieces), "piece")})'
    return quick_tables()[table]


def _clear_of_terrain(units: list[Unit], size: TableSize, terrain: list[TerrainFeature]) -> list[Unit]:
    """Each unit moved, if it must be, to the nearest place in its side's 12" along its edge
    where it may stand and touches no other unit."""
    probe = new_game({"allies": "", "axis": ""}, [], terrain=terrain, table=size)
    placed: list[Unit] = []
    for unit in units:
        zone = Zone(edge="near" if unit.side == "allies" else "far", furthest=QUICK_AREA_DEPTH)
        spot = nearest_set_up_spot(probe, unit, zone, placed)
        if spot is None:
            raise IllegalCommand(f"{unit.name} finds no room along its edge of this table")
        placed.append(unit.model_copy(update={"position": spot}))
    return placed


def _table(name: str | BattleTable) -> tuple[TableSize, list[TerrainFeature], dict[str, Any]]:
    """A table's size, terrain and layout data (objectives); a saved table has no layout data:
    its objectives are placed by :mod:`engine.tables.scenario_ground`."""
    if isinstance(name, BattleTable):
        return name.size, list(name.terrain()), {}
    tables = _data()["tables"]
    if name not in tables:
        raise IllegalCommand(f"There is no table {name!r}: choose {', '.join(tables)}")
    layout = tables[name]
    size = TableSize(width=layout["width"], depth=layout["depth"])
    terrain = [
        TerrainFeature.model_validate({**f, "outline": [_point(p) for p in f["outline"]]})
        for f in layout["terrain"]
    ]
    return size, terrain, layout


def scenario_battle(
    scenario_id: str,
    table: str | BattleTable = "village",
    attacker: str | None = None,
    attacker_choice: AttackerChoice | None = None,
    plotted: bool = False,
    along: Along | None = None,
    areas: DeploymentAreas = "edges",
) -> GameState:
    """A book scenario on a built-in, saved or generated table, waiting for the two sides'
    forces (pp. 28-31). In Capture and Breakthrough ``attacker`` names the attacking side;
    elsewhere the allies play the first role and the axis the second. The sides set up along
    the table's long edges, or its short ones (``along``), their areas shaped as ``areas``
    (opposite corners, along roads, flanks: :mod:`engine.deployment.areas`)."""
    scenario = find_scenario(scenario_id)
    sides = ("allies", "axis")
    if scenario.has_attacker:
        if attacker not in sides:
            raise IllegalCommand(f"{scenario.title} needs an attacker: allies or axis")
        roles = {attacker: "attacker", next(s for s in sides if s != attacker): "defender"}
    else:
        roles = dict(zip(sides, scenario.roles, strict=True))
    check_attacker_choice(scenario, attacker_choice)
    if plotted and scenario.deployment != "alternating":
        raise IllegalCommand(
            f"In {scenario.title} the defender sets up first: there is no plotted deployment"
        )
    if along not in (None, "long", "short"):
        raise IllegalCommand("The sides set up along the table's long edges or its short ones: long or short")
    size, terrain, layout = _table(table)
    if isinstance(table, BattleTable):
        objectives = scenario_objectives(scenario, size, terrain)
    else:
        places = layout.get("scenario_objectives", {}).get(scenario.objectives, [])
        objectives = [Objective(id=o["id"], position=_point(o["position"])) for o in places]
    state = new_game({side: "" for side in sides}, [], terrain=terrain, table=size, objectives=objectives)
    if along is not None or isinstance(table, BattleTable):
        edges = deployment_edges(size, along or "long")
        for side, edge in zip(sides, edges, strict=True):
            state.sides[side].entry_edge = edge
    check_areas_allowed(scenario.title, scenario.deployment_areas, areas)
    first = next(side for side in sides if roles[side] in ("attacker", "first"))
    for side in sides:  # refused now if the table does not allow the shape (no road near an edge)
        edge = state.sides[side].entry_edge
        deployment_area_spans(areas, size, edge, terrain, first=side == first)
    state.planned_scenario = PlannedScenario(
        id=scenario.id,
        roles=roles,
        attacker_choice=attacker_choice,
        plotted=plotted,
        areas=areas,
    )
    return state


def quick_battle(table: str | BattleTable = "village", allies: str = "us") -> GameState:
    """A quick battle: ``allies`` (us, british or soviet) against the German force on ``table``.
    On a saved or generated table each unit stands at the nearest place along its edge it may
    stand on, with a Meeting Engagement's objectives (p. 28)."""
    raw = _data()
    if allies not in allied_forces():
        raise IllegalCommand(f"There is no allied force {allies!r}: choose {', '.join(allied_forces())}")
    size, terrain, layout = _table(table)
    if isinstance(table, BattleTable):
        objectives = scenario_objectives(find_scenario("meeting"), size, terrain)
    else:
        objectives = [Objective(id=o["id"], position=_point(o["position"])) for o in layout["objectives"]]
    forces = {"allies": allies, "axis": "german"}
    units = [unit for side, name in forces.items() for unit in _deploy(name, side, size)]
    if isinstance(table, BattleTable):
        units = _clear_of_terrain(units, size, terrain)
    return new_game(
        {side: raw["forces"][name]["nation"] for side, name in forces.items()},
        units,
        terrain=terrain,
        table=size,
        objectives=objectives,
        last_turn=raw["last_turn"],
        random_length=raw["random_length"],
    )
