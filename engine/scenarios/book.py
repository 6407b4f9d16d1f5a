"""The four scenarios of the 2015 rulebook (pp. 28-31), loaded from ``engine/data/scenarios.yaml``.

A :class:`Scenario` holds what each briefing sets: the sides' roles and points, how much of each
force starts on the table, the special rules in play, deployment, who starts, reserves, length,
break points and objectives. :mod:`engine.rules.scenario` holds the rules these numbers feed.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, field_validator

from engine.errors import IllegalCommand
from engine.profiles import DATA_DIR
from engine.rules.scenario import (
    CAPTURE_OBJECTIVE_FROM_CENTRELINE,
    OBJECTIVE_EDGE_DISTANCE,
)
from engine.state import Point, TableSize

SpecialRule = Literal[
    "aggressive_command_or_preliminary_bombardment",
    "dug_in_and_waiting",
    "hidden_deployment",
    "objectives",
    "random_operation_length",
    "reserves",
    "unprepared",
]


def _fraction(value: object) -> Fraction:
    return Fraction(str(value))


class Scenario(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    title: str
    page: int
    summary: str
    roles: tuple[str, str]  # (first, second) or (attacker, defender)
    points: Literal["equal", "attacker_double"]
    defender_infantry_half: bool = False
    on_table_at_start: dict[str, Fraction]  # by role: the share of its units (by number)
    command_unit_in_reserve: bool = False
    special_rules: tuple[SpecialRule, ...]
    deployment: Literal["alternating", "hidden_defender_first", "defender_first"]
    deploy_within_one_move: bool = False
    deployment_area_depth: float | None = None  # inches from its own edge a side sets up in, if not a move
    deployment_areas: tuple[str, ...] = ("edges",)  # the shapes its areas may take (engine.deployment.areas)
    defender_distance_from_start_line: float | None = None
    defender_clear_of_attacker_third: bool = False  # the defender keeps out of the attacker's third
    defenders_apart: bool = False  # defending units set up spaced apart (rules.scenario)
    initiative: Literal["roll", "attacker"]
    counts_as_moved: Literal["all", "attacker"]
    reserves_from_turn: int | None  # None: no reserves
    reserves_half_first: bool = False  # half from reserves_from_turn, the rest a turn later
    turns: int | None  # None: until one side breaks
    random_operation_length: bool
    break_fraction: dict[str, Fraction]
    defender_extra_tokens: bool = False
    objectives: Literal["none", "per_points", "near_centreline", "far_third"]
    # the ways to win besides breaking the enemy, by the names engine.scenarios.winning registers
    won_at_turn_end: str | None = None  # checked at the end of each turn
    won_at_the_end: str = "objectives_held"  # when the last turn is over

    @field_validator("on_table_at_start", mode="before")
    @classmethod
    def _share_per_role(cls, value: object, info) -> object:
        if isinstance(value, dict):
            return {role: _fraction(share) for role, share in value.items()}
        return {role: _fraction(value) for role in info.data["roles"]}

    @field_validator("break_fraction", mode="before")
    @classmethod
    def _fractions(cls, value: dict[str, object]) -> dict[str, Fraction]:
        return {role: _fraction(share) for role, share in value.items()}

    @property
    def has_attacker(self) -> bool:
        return self.roles == ("attacker", "defender")

    def objective_problem(self, at: Point, table: TableSize) -> str | None:
        """Where an objective may go: 6" from every edge (p. 28); in Capture within 6" of the
        centreline (p. 30)."""
        edge = min(at.x, at.y, table.width - at.x, table.depth - at.y)
        if self.objectives == "per_points" and edge < OBJECTIVE_EDGE_DISTANCE:
            return f'an objective must be at least {OBJECTIVE_EDGE_DISTANCE:g}" from every table edge'
        off_centre = abs(at.y - table.depth / 2)
        if self.objectives == "near_centreline" and off_centre > CAPTURE_OBJECTIVE_FROM_CENTRELINE:
            return (
                f'an objective must be within {CAPTURE_OBJECTIVE_FROM_CENTRELINE:g}" of the centreline; '
                f'this one is {off_centre:g}" off'
            )
        return None


@cache
def load_scenarios() -> dict[str, Scenario]:
    raw = yaml.safe_load((DATA_DIR / "scenarios.yaml").read_text(encoding="utf-8"))
    return {entry["id"]: Scenario.model_validate(entry) for entry in raw}


def find_scenario(name: str) -> Scenario:
    wanted = name.strip().casefold().replace(" ", "-")
    for scenario in load_scenarios().values():
        if wanted in (scenario.id, scenario.title.casefold().replace(" ", "-")):
            return scenario
    choices = ", ".join(load_scenarios())
    raise IllegalCommand(f"No scenario called {name!r}: choose {choices}")
