"""The play commands' builders, one per command of the schema's play group: each makes the
engine's command for the user's side from the command's options as Discord gives them (a yes/no
as a bool, a position as a point). The slash commands (bot.discord_adapter.play_commands) and the
console (which reads a line's options the same way, :meth:`bot.console_grammar.Line.typed`) call
the same builder, so a line gives the same command, or the same refusal, in both."""

from __future__ import annotations

from collections.abc import Callable

from bot.set_up_done import finish_set_up
from bot.text_orders import FACING_FROM_EDGE, choice_command, find_unit, parse_path, reserve_call, unit_order
from engine.commands import (
    ChooseInitiative,
    Command,
    Declare,
    DeclineReaction,
    Deploy,
    FallBackOrder,
    MoraleTestOrder,
    Order,
    PassInitiative,
    React,
)
from engine.errors import IllegalCommand
from engine.game_state import GameState
from engine.state import Phase


def act(state: GameState, side: str, unit: str, player: str | None = None, **options) -> Command:
    return Declare(side=side, order=unit_order(state, side, unit, player=player, **options))


def initiative(state: GameState, side: str, choice: str, player: str | None = None) -> Command:
    return ChooseInitiative(side=side, go_first=choice == "start")


def cmt(state: GameState, side: str, player: str | None = None) -> Command:
    return Declare(side=side, order=MoraleTestOrder())


def fall_back_order(
    state: GameState, side: str, unit: str, to: str, reverse: bool = False, player: str | None = None
) -> FallBackOrder:
    unit_id = find_unit(state, unit, side, player=player)
    return FallBackOrder(unit=unit_id, path=parse_path(to), reverse=reverse)


def fallback(
    state: GameState, side: str, unit: str, to: str, reverse: bool, player: str | None = None
) -> Command:
    return Declare(side=side, order=fall_back_order(state, side, unit, to, reverse, player))


def pass_initiative(state: GameState, side: str, player: str | None = None) -> Command:
    return PassInitiative(side=side)


def open_window(state: GameState) -> int:
    if state.phase is not Phase.REACTION or state.pending is None:
        raise IllegalCommand("No reaction window is open")
    return state.pending.window


def react(
    state: GameState, side: str, unit, cmt, at, fallback, to, player: str | None = None, **options
) -> Command:
    """The reaction the options give: a Company Morale Test, falling back (``to:`` says where, and
    only then), or the unit's order from the options of ``/act`` that a reaction takes, read as
    ``/act`` reads them."""
    window = open_window(state)
    order: Order
    if to and not fallback:
        raise IllegalCommand("to: is where a unit falls back to: add fallback:true")
    if cmt:
        order = MoraleTestOrder()
    elif fallback and unit:
        if not to:
            raise IllegalCommand("Say where to: /react unit:UNIT fallback:true to:X,Y")
        order = fall_back_order(state, side, unit, to, bool(options.get("reverse")), player=player)
    elif unit:
        order = unit_order(state, side, unit, player=player, **options)
    else:
        raise IllegalCommand("Name the reacting unit, or set cmt")
    return React(side=side, window=window, order=order, at=at)


def noreact(state: GameState, side: str, player: str | None = None) -> Command:
    return DeclineReaction(side=side, window=open_window(state))


def reserves(state: GameState, side: str, units: str, player: str | None = None) -> Command:
    return reserve_call(state, side, units, player)


def deploy(
    state: GameState, side: str, unit, at, facing, done, decoy, confirm, player: str | None = None
) -> Command:
    """A unit set up (one set up already is set up again, elsewhere), or the side done setting
    up: confirmed first while it could still set units up (:mod:`bot.set_up_done`)."""
    if done:
        return finish_set_up(state, side, confirmed=bool(confirm))
    if confirm:
        raise IllegalCommand("confirm: goes with done: /deploy done confirm:true")
    if not unit or not at:
        raise IllegalCommand("Name the unit and where it goes (unit: at:), or say done:true")
    face = facing if facing is not None else FACING_FROM_EDGE[state.sides[side].entry_edge]
    return Deploy(
        side=side, unit=find_unit(state, unit, side, player=player), at=at, facing=face, decoy=decoy
    )


PLAY_ORDERS: dict[str, Callable[..., Command]] = {
    "initiative": initiative,
    "act": act,
    "cmt": cmt,
    "fallback": fallback,
    "pass": pass_initiative,
    "react": react,
    "noreact": noreact,
    "choose": choice_command,
    "reserves": reserves,
    "deploy": deploy,
}
"""Each play command's builder, by its path in the schema: ``builder(state, side, player=..., **options)``,
``player`` the user, whose own units a name several units share means first."""
