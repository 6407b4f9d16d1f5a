"""The state of a channel's game, as one reply for every front end (``/game status``, and under
every action's result): turn, phase and rule set; each side with its force, players and tokens;
whom the game waits for; the choice waiting, for those who may see it; the result; and what
set-up still needs. Discord writes it with mentions and bold sides, the console as plain text.
"""

from __future__ import annotations

from bot.reply import Piece, Reply, Strong
from bot.set_up_steps import set_up_steps
from engine.game import awaiting
from engine.game_state import GameState
from engine.rich_text import listed
from engine.rulesets import rules_of
from engine.state import STAND_IN, STAND_IN_NAME
from engine.view import Audience, sees_choice
from engine.wording import counted, side_label, side_name


def game_status(state: GameState, reader: Audience, *, buttons: bool = False) -> Reply:
    """The game's state for ``reader`` (``buttons``: the set-up steps may name Discord's buttons)."""
    lines: list[tuple[Piece, ...]] = [(f"Turn {state.turn} · {state.phase.value} · {rules_of(state).title}",)]
    sides: list[Piece] = []
    for name, side in state.sides.items():
        sides += ["; "] if sides else []
        sides += [Strong(side_label(name)), f" ({side.nation or 'no force yet'}): "]
        players = [STAND_IN_NAME if p == STAND_IN else p for p in side.players]
        sides += [*(listed(players) or ["no players yet"]), f", {counted(side.tokens, 'token')}"]
    lines.append(tuple(sides))
    waiting = awaiting(state)
    if state.active_side and state.active_side != waiting:
        lines.append((f"{side_name(state.active_side, start=True)} have the initiative",))
    if waiting:
        lines.append(("Waiting for ", Strong(side_name(waiting))))
    choice = state.pending.choice if state.pending else None
    if choice is not None and sees_choice(state, reader):
        lines.append((f"Choose one of: {', '.join(choice.options)} (/choose)",))
    if state.result:
        won = f"{side_name(state.result.winner)} win" if state.result.winner else "a draw"  # as pictured
        lines.append((f"Result: {won} ({state.result.reason})",))
    steps = set_up_steps(state, buttons=buttons)
    if steps:
        lines.append((steps,))
    return Reply(tuple(lines))
