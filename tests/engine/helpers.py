"""Small helpers for scripting games in tests."""

from __future__ import annotations

from engine.commands import ChooseInitiative, Command, StartGame
from engine.dice import ScriptedDice, d6
from engine.events import Event
from engine.game import apply
from engine.game_state import GameState
from engine.setup import new_game
from engine.state import Unit

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
