"""Playing by slash commands: /act, /cmt, /fallback, /pass, /react, /noreact, /choose."""

from __future__ import annotations

from collections.abc import Callable

import discord
from discord import app_commands

from bot.discord_adapter import referees
from bot.discord_adapter.common import players_game, suggestions
from bot.discord_adapter.reaction_buttons import show_result
from bot.discord_adapter.schema_commands import generated_command
from bot.text_orders import (
    FACING_FROM_EDGE,
    choice_command,
    find_unit,
    parse_path,
    reserve_call,
    unit_order,
)
from engine.actions.registry import order_options
from engine.commands import (
    ChooseInitiative,
    Command,
    Declare,
    DeclineReaction,
    Deploy,
    FallBackOrder,
    FinishDeployment,
    MoraleTestOrder,
    Order,
    PassInitiative,
    React,
)
from engine.errors import IllegalCommand
from engine.game_state import GameState
from engine.state import Phase
from engine.view import names_for, view_for


async def play(interaction: discord.Interaction, build) -> None:
    """Turn the options into a command for the user's side, from the game as loaded once, apply
    it and report."""
    outcome = await referees.act(
        interaction, lambda state: build(state, referees.acting_side(state, interaction))
    )
    await show_result(interaction, outcome)


async def _units(interaction: discord.Interaction, current: str, own: bool) -> list[app_commands.Choice[str]]:
    """Autocomplete (no deferring, at most 25): the user's units, or the enemy's it may name (a
    hidden sniper is never offered, so its presence is not given away; a marker only by its label,
    so what is under it is not either), nearest to what was typed first, by name or by tag."""
    playing = await players_game(interaction)
    if playing is None:
        return []
    state, side = playing
    offered: dict[str, str] = {}  # shown -> value
    tags = view_for(state, side).tags  # as the picture shows them: typing "Gr1" finds Gruppe 1
    for u in state.units.values():
        names = names_for(u, side) if u.on_table and (u.side == side) == own else ()
        if u.id in names:
            tag = f" [{tags[u.id]}]" if u.id in tags else ""
            offered[f"{u.name}{f' = {u.true_name}' if u.true_name else ''}{tag} ({u.profile.name})"] = u.id
        elif names:
            offered[u.name] = u.name  # an enemy marker
    return suggestions(current, offered)


async def own_units(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    return await _units(interaction, current, own=True)


async def enemy_units(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    return await _units(interaction, current, own=False)


def _act(state: GameState, side: str, unit: str, **options) -> Command:
    return Declare(side=side, order=unit_order(state, side, unit, **options))


def _unit_suggestions() -> dict[str, Callable]:
    """Autocomplete for the options of /act that name a unit, the user's own or the enemy's."""
    return {
        option.name: own_units if option.whose == "own" else enemy_units
        for option in order_options().values()
        if option.kind == "unit"
    }


def _initiative(state: GameState, side: str, choice: str) -> Command:
    return ChooseInitiative(side=side, go_first=choice == "start")


def _cmt(state: GameState, side: str) -> Command:
    return Declare(side=side, order=MoraleTestOrder())


def _fall_back(state: GameState, side: str, unit: str, to: str, reverse: bool = False) -> FallBackOrder:
    return FallBackOrder(unit=find_unit(state, unit, side), path=parse_path(to), reverse=reverse)


def _fallback(state: GameState, side: str, unit: str, to: str, reverse: bool) -> Command:
    return Declare(side=side, order=_fall_back(state, side, unit, to, reverse))


def _pass(state: GameState, side: str) -> Command:
    return PassInitiative(side=side)


def _window(state: GameState) -> int:
    if state.phase is not Phase.REACTION or state.pending is None:
        raise IllegalCommand("No reaction window is open")
    return state.pending.window


def _react(state: GameState, side: str, unit, move, fire, first, cmt, at, assault, fallback, to) -> Command:
    """The reaction the options give: a Company Morale Test, falling back (``to:`` says where, and
    only then), or the unit's move and/or fire, as ``/act`` reads them."""
    window = _window(state)
    order: Order
    if to and not fallback:
        raise IllegalCommand("to: is where a unit falls back to: add fallback:true")
    if cmt:
        order = MoraleTestOrder()
    elif fallback and unit:
        if not to:
            raise IllegalCommand("Say where to: /react unit:UNIT fallback:true to:X,Y")
        order = _fall_back(state, side, unit, to)
    elif unit:
        order = unit_order(state, side, unit, move=move, fire=fire, first=first, assault=assault)
    else:
        raise IllegalCommand("Name the reacting unit, or set cmt")
    return React(side=side, window=window, order=order, at=at)


def _noreact(state: GameState, side: str) -> Command:
    return DeclineReaction(side=side, window=_window(state))


def _reserves(state: GameState, side: str, units: str) -> Command:
    return reserve_call(state, side, units)


async def waiting_units(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete: the user's units still waiting to be set up."""
    playing = await players_game(interaction)
    if playing is None:
        return []
    state, side = playing
    plan = state.deployment.sides.get(side) if state.deployment else None
    return suggestions(current, [state.units[u].name for u in (plan.waiting if plan else [])])


def _deploy(state: GameState, side: str, unit, at, facing, done, decoy) -> Command:
    if done:
        return FinishDeployment(side=side)
    if not unit or not at:
        raise IllegalCommand("Name the unit and where it goes (unit: at:), or say done:true")
    face = facing if facing is not None else FACING_FROM_EDGE[state.sides[side].entry_edge]
    return Deploy(side=side, unit=find_unit(state, unit, side), at=at, facing=face, decoy=decoy)


def play_command(path: str, build: Callable[..., Command], **suggest: Callable) -> app_commands.Command:
    """The command ``path`` of the schema: ``build(state, side, **options)`` makes the engine's
    command for the user's side from the game as loaded once."""

    async def run(interaction: discord.Interaction, **options) -> None:
        await play(interaction, lambda state, side: build(state, side, **options))

    return generated_command(path, run, suggest)


PLAY_COMMANDS = (
    play_command("initiative", _initiative),
    play_command("act", _act, unit=own_units, **_unit_suggestions()),
    play_command("cmt", _cmt),
    play_command("fallback", _fallback, unit=own_units),
    play_command("pass", _pass),
    play_command("react", _react, unit=own_units, fire=enemy_units, assault=enemy_units),
    play_command("noreact", _noreact),
    play_command("choose", choice_command),
    play_command("reserves", _reserves),
    play_command("deploy", _deploy, unit=waiting_units),
)
