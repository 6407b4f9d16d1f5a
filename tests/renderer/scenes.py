"""Game states to draw: the quick battle at its start, after a few moves, and a busy table."""

from __future__ import annotations

from engine.commands import (
    ChooseInitiative,
    Declare,
    DeclineReaction,
    Fire,
    Move,
    Order,
    StartGame,
    UnitOrder,
)
from engine.dice import ScriptedDice, SeededDice, d6
from engine.events import Event
from engine.game import apply
from engine.game_state import GameState
from engine.scenarios.new_game import make_unit
from engine.scenarios.quick_battle import quick_battle
from engine.state import Phase, Point, Smoke


def P(x: float, y: float) -> Point:
    return Point(x=x, y=y)


def quick_started() -> tuple[GameState, list[Event]]:
    """The quick battle with allies winning the initiative (5 to 2) and going first."""
    state, _ = apply(quick_battle(), StartGame(), ScriptedDice([d6(5), d6(2)]))
    return apply(state, ChooseInitiative(side="allies", go_first=True), ScriptedDice([]))


def _act(state: GameState, order: Order, dice) -> tuple[GameState, list[Event]]:
    side = state.active_side
    state, events = apply(state, Declare(side=side, order=order), dice)
    if state.phase is Phase.REACTION:
        decline = DeclineReaction(side=state.other_side(side), window=state.pending.window)
        state, more = apply(state, decline, dice)
        events = events + more
    return state, events


def quick_after_moves() -> tuple[GameState, list[Event]]:
    """Two moves and two shots by the allies (seeded dice); returns the last action's events."""
    state, _ = quick_started()
    dice = SeededDice(7)
    orders = [
        UnitOrder(unit="sherman-1", actions=(Move(path=(P(12, 14),)),)),
        UnitOrder(unit="m10", actions=(Move(path=(P(34, 15),), facing=60),)),
        UnitOrder(unit="sherman-1", actions=(Fire(target="panzer-iv"),)),
        UnitOrder(unit="m10", actions=(Fire(target="stug"),)),
    ]
    events: list[Event] = []
    for order in orders:
        state, events = _act(state, order, dice)
    return state, events


def busy_table() -> GameState:
    """The quick battle after some moves, with everything the renderer draws set by hand: markers,
    tokens, a wreck, a lost squad, smoke, a turret turned, and a hidden sniper with a dummy marker."""
    state, _ = quick_after_moves()
    state = state.fork()
    units = state.units
    units["gruppe-2"].morale_markers = 2
    units["gruppe-2"].tokens = 1
    units["stug"].morale_markers = 1
    units["sherman-2"].destroyed = True
    units["3rd-squad"].destroyed = True
    units["panzer-iv"].smoke = Smoke(from_bearing=270)
    units["panzer-iv"].turret_facing = 300
    units["sniper"] = make_unit(
        "german",
        "Sniper Team",
        "axis",
        (40, 30),
        unit_id="sniper",
        name="Sniper",
        hidden=True,
        decoy=P(26, 38),
    )
    return state


class Log:
    """A game played a command at a time with scripted dice, its log kept as the store keeps it
    (each command with its events), so that its story can be told (engine.story)."""

    def __init__(self, start: GameState) -> None:
        self.start = self.state = start
        self.history: list = []

    def play(self, command, *faces) -> list[Event]:
        """Apply a command with these dice; the dice it left unused."""
        dice = ScriptedDice(list(faces))
        self.state, events = apply(self.state, command, dice)
        self.history.append((command, events))
        return events, list(faces[len(faces) - dice.remaining :])

    def act(self, side: str, unit: str, *actions, faces=()) -> list[Event]:
        """Declare an order for one unit, the other side declining to react (if it may), with
        exactly these dice."""
        events, left = self.play(Declare(side=side, order=UnitOrder(unit=unit, actions=actions)), *faces)
        if self.state.phase is Phase.REACTION:
            window = self.state.pending.window
            more, left = self.play(DeclineReaction(side=self.state.other_side(side), window=window), *left)
            events += more
        assert not left, f"{len(left)} scripted dice were not used"
        return events
