"""Random battles to draw: a random table, and on it forces built the way ``/force`` builds them
(engine.forces: labels "<entry> <n>", transports bought for infantry), brought to the game the way
the bot brings them (engine.unit_names: a name already in the game says whose it is), set about
the table at random, sometimes crowded round one spot, sometimes by a team's two players."""

from __future__ import annotations

import random

from shapely.geometry import Polygon

from engine.errors import IllegalCommand
from engine.forces import Force, add_unit, force_units, order_of_battle, set_transport
from engine.game_state import GameState
from engine.geometry import footprint_at
from engine.scenarios.quick_battle import quick_battle
from engine.state import Point, Team, Unit
from engine.tables.generate import random_table
from engine.unit_names import names_apart

NATIONS = {"allies": ("us", "british", "soviet"), "axis": ("german",)}
PLAYERS = {"allies": ("ann", "bob"), "axis": ("otto", "udo")}
COMMON = ("Infantry Detachment", "MG Team", "Mortar Team", "Sniper Team", "Sherman 75mm", "Sherman 76mm")
TRANSPORTS = {"us": "M3 Halftrack/Dodge WC-51", "german": "251 Halftrack", "british": "Bren Carrier"}


def _force(rng: random.Random, nation: str, count: int) -> Force:
    """A force of about ``count`` units: entries from its order of battle, the common ones often
    (so that forces share names, and a force brings several of one entry)."""
    force = Force(nation=nation, name="Force", points_limit=100_000)
    entries = order_of_battle(nation)
    common = [e for e in COMMON if e in entries]
    for _ in range(count):
        entry = rng.choice(common) if common and rng.random() < 0.5 else rng.choice(entries)
        try:
            force = add_unit(force, entry)
        except IllegalCommand:
            continue  # a transport bought alone, say
    transport = TRANSPORTS.get(nation)
    for unit in force.units:
        if transport and unit.profile == "Infantry Detachment" and rng.random() < 0.3:
            try:
                force = set_transport(force, unit.label, transport)
            except (IllegalCommand, ValueError):
                pass
    return force


def _footprint(unit: Unit) -> Polygon:
    return footprint_at(unit.unit_class, unit.position, unit.facing)


def _set_about(rng: random.Random, state: GameState, units: list[Unit], crowded: bool) -> None:
    """Each unit somewhere on the table clear of the others' footprints: crowded, all within a
    few inches of one spot; else each side along its own half."""
    width, depth = state.table.width, state.table.depth
    spot = (rng.uniform(4, width - 4), rng.uniform(4, depth - 4))
    taken: list[Polygon] = []
    for unit in units:
        for _ in range(40):
            if crowded:
                x = min(max(2.5, spot[0] + rng.uniform(-6, 6)), width - 2.5)
                y = min(max(2.5, spot[1] + rng.uniform(-6, 6)), depth - 2.5)
            else:
                x = rng.uniform(2.5, width - 2.5)
                half = (2.5, depth / 2) if unit.side == "allies" else (depth / 2, depth - 2.5)
                y = rng.uniform(*half)
            unit.position, unit.facing = Point(x=x, y=y), float(rng.randrange(0, 360, 15))
            if not any(_footprint(unit).intersects(t) for t in taken):
                break
        taken.append(_footprint(unit))


def random_battle(seed: int) -> GameState:
    """A battle at setup's end on a random table of random size with random forces."""
    rng = random.Random(seed)
    width, depth = rng.choice((24.0, 36.0, 48.0, 60.0, 72.0)), rng.choice((24.0, 36.0, 48.0))
    state = quick_battle(random_table(seed, width, depth))
    state.units.clear()
    crowded = rng.random() < 0.3
    for side in ("allies", "axis"):
        nation = rng.choice(NATIONS[side])
        team = rng.random() < 0.2
        players = PLAYERS[side] if team else (None,)
        if team:
            state.sides[side].players = list(players)
            state.sides[side].team = Team(co=players[0], tokens=dict.fromkeys(players, 0))
        for player in players:
            units = force_units(_force(rng, nation, rng.randint(1, 9 if crowded else 12)), side)
            for unit in units:
                unit.player = player
            for unit in names_apart(state, units):
                state.units[unit.id] = unit
    brought = list(state.units.values())
    _set_about(rng, state, brought, crowded)
    for unit in brought:
        chance = rng.random()
        unit.morale_markers = rng.randint(1, 3) if chance < 0.15 else 0
        unit.tokens = 1 if 0.1 < chance < 0.2 else 0
        unit.destroyed = chance > 0.93
    return state
