"""``/force``: build, check, save, copy, export and import your forces (pp. 18-24), each
carried out by its handler (:mod:`bot.handlers.forces`).

Forces belong to a player in a server; every answer is private, since a force is the player's
own business until the game starts.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.discord_adapter.answers import FORM, PRIVATE, acknowledge, carry_out, show_form
from bot.discord_adapter.common import owner_scope, suggestions
from bot.discord_adapter.handled_commands import ask_of, handled_command, present
from bot.discord_adapter.schema_commands import schema_command
from bot.discord_adapter.served import Interaction
from bot.handlers import HANDLERS
from bot.services.force_service import ForceService
from bot.services.game_service import GameError
from engine.forces import Force, order_of_battle
from engine.profiles import load_orbat
from engine.rules.force import nation_transports
from engine.rulesets import RULE_SETS


def force_service(interaction: Interaction) -> ForceService:
    return interaction.client.services.forces


def where(interaction: Interaction) -> tuple[str, str]:
    """The server (or the player's direct messages) and the player a force belongs to."""
    return owner_scope(interaction), str(interaction.user.id)


async def own_forces(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    return suggestions(current, await force_service(interaction).names(*where(interaction)))


async def _chosen_force(interaction: Interaction) -> Force | None:
    name = getattr(interaction.namespace, "force", None)
    if not name:
        return None
    try:
        return await force_service(interaction).force(*where(interaction), name)
    except GameError:
        return None


async def orbat_units(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The chosen force's order of battle (with lend lease), as the player types."""
    force = await _chosen_force(interaction)
    return suggestions(current, order_of_battle(force.nation, force.rules)) if force else []


async def force_units(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    force = await _chosen_force(interaction)
    return suggestions(current, [u.label for u in force.units]) if force else []


async def transports(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    force = await _chosen_force(interaction)
    if force is None:
        return []
    carriers = nation_transports(load_orbat(force.nation))
    own = [
        name for name, entry in RULE_SETS[force.rules].own_units(force.nation).items() if entry in carriers
    ]
    return suggestions(current, ["none", *own, *carriers])


class ImportForm(discord.ui.Modal, title="Import a force"):
    text = discord.ui.TextInput(
        label="Paste the force's text (from /force export)",
        style=discord.TextStyle.paragraph,
        max_length=4000,
    )

    def __init__(self, replace: bool) -> None:
        super().__init__(timeout=None)
        self.replace = replace

    async def on_submit(self, interaction: Interaction) -> None:
        if not await acknowledge(interaction, private=True):
            return

        async def import_force() -> None:
            handler = HANDLERS["force import"]
            await present(
                interaction, await handler(ask_of(interaction), replace=self.replace, pasted=self.text.value)
            )

        await carry_out(interaction, import_force)


SUGGESTED = {
    "force new": {},
    "force add": {"force": own_forces, "unit": orbat_units},
    "force orbat": {},
    "force remove": {"force": own_forces, "unit": force_units},
    "force upgrade": {"force": own_forces, "unit": force_units, "transport": transports},
    "force show": {"force": own_forces},
    "force list": {},
    "force copy": {"force": own_forces},
    "force export": {"force": own_forces},
    "force delete": {"force": own_forces},
}


class ForceCommands(app_commands.Group):
    def __init__(self) -> None:
        super().__init__(name="force", description="Build and keep your Iron Cross forces")
        for path, suggest in SUGGESTED.items():
            handled_command(path, suggest, group=self, extras=PRIVATE)

    @schema_command("force import", extras=FORM)
    async def import_(self, interaction: Interaction, replace: bool = False) -> None:
        await show_form(interaction, ImportForm(replace))
