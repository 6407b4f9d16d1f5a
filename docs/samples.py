"""Draw the sample pictures shown in the README (run from the repository's root):

    .venv/bin/python docs/samples.py

- village-spectators.png: the village table after a few moves and shots, with morale markers and
  a wreck, as spectators see it: trails of the last move and its shot;
- crossroads-axis-view.png: the crossroads table with a reaction window open, as the axis player
  sees it: the declared move (dashed) and the declared target (ringed);
- setup-referee.png: a two-against-two game during set-up, as the referee sees it: the set-up
  zones and which player holds which unit, by the name they go by.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.commands import (  # noqa: E402
    ChooseInitiative,
    Declare,
    DeclineReaction,
    Fire,
    Move,
    StartGame,
    UnitOrder,
)
from engine.dice import ScriptedDice, SeededDice, d6  # noqa: E402
from engine.game import apply  # noqa: E402
from engine.game_state import GameState  # noqa: E402
from engine.roster import remember_name  # noqa: E402
from engine.scenarios.quick_battle import quick_battle  # noqa: E402
from engine.state import Phase, Point  # noqa: E402
from renderer import render  # noqa: E402


def started(table: str, allies: str) -> GameState:
    state, _ = apply(quick_battle(table, allies), StartGame(), ScriptedDice([d6(5), d6(2)]))
    state, _ = apply(state, ChooseInitiative(side="allies", go_first=True), ScriptedDice([]))
    return state


def act(state: GameState, order: UnitOrder, dice) -> tuple[GameState, GameState, list]:
    """Declare an order and let the other side decline: the states before and after, and the
    events of the resolution."""
    side = state.active_side
    state, events = apply(state, Declare(side=side, order=order), dice)
    before = state
    if state.phase is Phase.REACTION:
        decline = DeclineReaction(side=state.other_side(side), window=state.pending.window)
        state, events = apply(state, decline, dice)
    return before, state, events


def village() -> bytes:
    state = started("village", "us")
    dice = SeededDice(7)
    orders = [
        UnitOrder(unit="sherman-1", actions=(Move(path=(Point(x=12, y=14),)),)),
        UnitOrder(unit="m10", actions=(Move(path=(Point(x=34, y=15),), facing=60),)),
        UnitOrder(unit="sherman-1", actions=(Fire(target="panzer-iv"),)),
    ]
    for order in orders:
        _, state, _ = act(state, order, dice)
    state = state.fork()
    state.units["gruppe-2"].morale_markers = 2
    state.units["stug"].morale_markers = 1
    state.units["sherman-2"].destroyed = True
    order = UnitOrder(unit="2nd-squad", actions=(Move(path=(Point(x=30, y=9), Point(x=31, y=11))),
                                                  Fire(target="gruppe-2")))
    before, after, events = act(state, order, dice)
    return render(after, None, last_events=events, before=before)


def crossroads() -> bytes:
    state = started("crossroads", "british")
    order = UnitOrder(unit="cromwell", actions=(Move(path=(Point(x=34, y=13), Point(x=31, y=16))),
                                                 Fire(target="gruppe-1")))
    state, events = apply(state, Declare(side="allies", order=order), SeededDice(3))
    return render(state, "axis", last_events=events)


def setup() -> bytes:
    from tests.engine.team_games import deploy_all, team_game

    state = deploy_all(team_game())
    state = state.model_copy(update={"deployment": team_game().deployment})  # zones still open
    for player in ("ann", "bob", "cat", "dan"):  # the names they go by, as taken when they join
        remember_name(state, player, player.capitalize())
    return render(state, "referee")


if __name__ == "__main__":
    for name, draw in (("village-spectators", village), ("crossroads-axis-view", crossroads),
                       ("setup-referee", setup)):
        data = draw()
        (ROOT / "docs" / f"{name}.png").write_bytes(data)
        print(f"docs/{name}.png: {len(data) // 1024} KiB")
