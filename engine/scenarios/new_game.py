"""Putting a game together: units from the orders of battle, sides, terrain and the table."""

from __future__ import annotations

import re
from collections.abc import Iterable
from fractions import Fraction

from engine.game_state import GameState
from engine.profiles import find_profile, load_orbat
from engine.rules.victory import force_break_point
from engine.state import Objective, Point, Side, TableSize, TerrainFeature, Unit


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.casefold()).strip("-")


def make_unit(
    nation: str,
    profile: str,
    side: str,
    at: tuple[float, float] | Point,
    *,
    name: str | None = None,
    unit_id: str | None = None,
    facing: float = 0.0,
    command: bool = False,
    subcommander: bool = False,
    iaw: bool = False,
    **flags: object,
) -> Unit:
    """A unit from a nation's order of battle, placed on the table."""
    unit_profile = find_profile(nation, profile)
    position = at if isinstance(at, Point) else Point(x=at[0], y=at[1])
    label = name or unit_profile.name
    return Unit(
        id=unit_id or slug(label),
        name=label,
        side=side,
        profile=unit_profile,
        position=position,
        facing=facing,
        is_command=command,
        is_subcommander=subcommander,
        iaw_weapon=load_orbat(nation).iaw.weapon if iaw else None,
        **flags,
    )


def new_game(
    sides: dict[str, str],
    units: Iterable[Unit],
    *,
    terrain: Iterable[TerrainFeature] = (),
    table: TableSize | None = None,
    objectives: Iterable[Objective] = (),
    break_fraction: Fraction = Fraction(2, 3),
    last_turn: int | None = None,
    random_length: bool = False,
    players: dict[str, list[str]] | None = None,
) -> GameState:
    """A game in its setup phase. ``sides`` maps each side's name to its nation.

    Each force's break point is ``break_fraction`` of its total BP (2/3 by default, p. 28).
    """
    unit_map: dict[str, Unit] = {}
    for unit in units:
        if unit.id in unit_map:
            raise ValueError(f"two units share the id {unit.id!r}")
        if unit.side not in sides:
            raise ValueError(f"{unit.name} is on an unknown side {unit.side!r}")
        unit_map[unit.id] = unit
    side_map = {}
    for name, nation in sides.items():
        total = sum(u.profile.break_points for u in unit_map.values() if u.side == name)
        side_map[name] = Side(
            name=name,
            nation=nation,
            players=list((players or {}).get(name, [])),
            break_point=force_break_point(total, break_fraction),
            reserves_at_start=sum(1 for u in unit_map.values() if u.side == name and u.in_reserve),
            entry_edge="near" if name == sorted(sides)[0] else "far",
        )
    return GameState(
        table=table or TableSize(),
        terrain=tuple(terrain),
        objectives=list(objectives),
        sides=side_map,
        units=unit_map,
        last_turn=last_turn,
        random_length=random_length,
    )
