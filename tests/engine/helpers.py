"""Small helpers for scripting games in tests."""

from __future__ import annotations

from engine.commands import Action, ChooseInitiative, Command, Declare, DeclineReaction, StartGame, UnitOrder
from engine.dice import ScriptedDice, d6
from engine.event_data import FireData
from engine.events import Event
from engine.game import apply
from engine.game_state import GameState
from engine.scenarios.new_game import new_game
from engine.state import Point, TerrainFeature, Unit

SIDES = {"allies": "us", "axis": "german"}


def game(*units: Unit, sides: dict[str, str] | None = None, **kw) -> GameState:
    return new_game(sides or SIDES, units, **kw)


def play(state: GameState, command: Command, *faces: tuple[int, int]) -> tuple[GameState, list[Event]]:
    """Apply a command with exactly these dice; fail if any scripted die is left over."""
    dice = ScriptedDice(faces)
    state, events = apply(state, command, dice)
    assert dice.remaining == 0, f"{dice.remaining} scripted dice were not used"
    return state, events


def started(state: GameState, active: str, tokens: int | None = 10) -> GameState:
    """Start the game with ``active`` winning the initiative (6 to 1) and going first.

    Focused tests give each side ``tokens`` so the turn does not end under them.
    """
    first = "allies" if active == "allies" else "axis"
    faces = (d6(6), d6(1)) if first == sorted(state.sides)[0] else (d6(1), d6(6))
    state, _ = play(state, StartGame(), *faces)
    if tokens is not None:
        for side in state.sides.values():
            side.tokens = tokens
    state, _ = play(state, ChooseInitiative(side=active, go_first=True))
    return state


def text(events: list[Event]) -> str:
    return "\n".join(e.text for e in events)


def P(x: float, y: float) -> Point:
    return Point(x=x, y=y)


def box(fid: str, kind: str, x0: float, y0: float, x1: float, y1: float, **kw) -> TerrainFeature:
    """A rectangular terrain piece."""
    return TerrainFeature(id=fid, kind=kind, outline=(P(x0, y0), P(x1, y0), P(x1, y1), P(x0, y1)), **kw)


def act(state: GameState, side: str, unit: str, *actions: Action, faces=()) -> tuple[GameState, list[Event]]:
    """Declare an activation, let the other side decline to react, resolve it with ``faces``."""
    state, _ = play(state, Declare(side=side, order=UnitOrder(unit=unit, actions=actions)))
    return play(state, DeclineReaction(side=state.other_side(side), window=state.pending.window), *faces)


def declare(state: GameState, side: str, unit: str, *actions: Action) -> tuple[GameState, list[Event]]:
    """Only declare an activation (its window stays open), e.g. to see it refused."""
    return play(state, Declare(side=side, order=UnitOrder(unit=unit, actions=actions)))


def texts(events: list[Event]) -> list[str]:
    return [e.text for e in events]


def fire_text(events: list[Event]) -> str:
    """The text of the one shot among the events."""
    (shot,) = [e.text for e in events if e.kind == "fire"]
    return shot


def fire_data(events: list[Event]) -> FireData:
    """What the one shot among the events did, as numbers."""
    (shot,) = [e.data for e in events if isinstance(e.data, FireData)]
    return shot
