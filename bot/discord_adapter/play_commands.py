"""Playing by slash commands: /act, /cmt, /fallback, /pass, /react, /noreact, /choose and the rest
of the play group, each made by its builder (bot.play_orders), as at the console."""

from __future__ import annotations

from collections.abc import Callable, Iterable

import discord
from discord import app_commands

from bot.discord_adapter import referees
from bot.discord_adapter.common import players_game, suggestions
from bot.discord_adapter.schema_commands import generated_command
from bot.discord_adapter.tap_setup import apply_or_confirm, waiting
from bot.play_orders import PLAY_ORDERS
from engine.actions.base import OrderOption
from engine.actions.registry import order_options, reaction_options
from engine.view import names_for, view_for


async def play(interaction: discord.Interaction, build) -> None:
    """Turn the options into a command for the user's side, from the game as loaded once, apply
    it and report; or, for a step to be confirmed first (``/deploy done`` while the side could
    still set units up), ask (:func:`bot.discord_adapter.tap_setup.apply_or_confirm`)."""
    await apply_or_confirm(interaction, lambda state: build(state, referees.acting_side(state, interaction)))


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


def _unit_suggestions(options: Iterable[OrderOption]) -> dict[str, Callable]:
    """Autocomplete for the options of /act (or /react) that name a unit, the user's own or the
    enemy's."""
    return {
        option.name: own_units if option.whose == "own" else enemy_units
        for option in options
        if option.kind == "unit"
    }


async def waiting_units(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete: the user's units they may set up, as the set-up menu offers them (those
    waiting, then those set up, to set up again)."""
    playing = await players_game(interaction)
    if playing is None:
        return []
    state, side = playing
    return suggestions(current, [unit.name for unit in waiting(state, side)])


def play_command(path: str, **suggest: Callable) -> app_commands.Command:
    """The command ``path`` of the schema: its builder (:data:`bot.play_orders.PLAY_ORDERS`) makes
    the engine's command for the user's side from the game as loaded once."""

    async def run(interaction: discord.Interaction, **options) -> None:
        user = str(interaction.user.id)
        await play(interaction, lambda state, side: PLAY_ORDERS[path](state, side, player=user, **options))

    return generated_command(path, run, suggest)


SUGGESTED: dict[str, dict[str, Callable]] = {
    "act": {"unit": own_units, **_unit_suggestions(order_options().values())},
    "fallback": {"unit": own_units},
    "react": {"unit": own_units, **_unit_suggestions(reaction_options().values())},
    "deploy": {"unit": waiting_units},
}
PLAY_COMMANDS = tuple(play_command(path, **SUGGESTED.get(path, {})) for path in PLAY_ORDERS)
