"""``/force``: build, check, save, copy, export and import your forces (pp. 18-24).

Forces belong to a player in a server; every answer is private, since a force is the player's
own business until the game starts.
"""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands

from bot.discord_adapter.answers import FORM, PRIVATE, acknowledge, carry_out
from bot.discord_adapter.common import send_long
from bot.services.force_service import ForceService
from bot.services.game_service import GameError
from engine.forces import (
    Force,
    add_unit,
    remove_unit,
    upgrade,
)
from engine.profiles import load_orbat
from engine.rules.force import nation_transports

Nation = Literal["german", "british", "us", "soviet"]
CHOICES = 25


def force_service(interaction: discord.Interaction) -> ForceService:
    return interaction.client.forces  # type: ignore[attr-defined]


def where(interaction: discord.Interaction) -> tuple[str, str]:
    """The server (or "dm") and the player a force belongs to."""
    return str(interaction.guild_id or "dm"), str(interaction.user.id)


def _choices(names: list[str], typed: str) -> list[app_commands.Choice[str]]:
    words = typed.casefold().split()
    found = [n for n in names if all(w in n.casefold() for w in words)]
    return [app_commands.Choice(name=n[:100], value=n[:100]) for n in found[:CHOICES]]


async def own_forces(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    return _choices(await force_service(interaction).names(*where(interaction)), current)


async def _chosen_force(interaction: discord.Interaction) -> Force | None:
    name = getattr(interaction.namespace, "force", None)
    if not name:
        return None
    try:
        return await force_service(interaction).force(*where(interaction), name)
    except GameError:
        return None


async def orbat_units(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The chosen force's order of battle (with lend lease), as the player types."""
    force = await _chosen_force(interaction)
    if force is None:
        return []
    orbat = load_orbat(force.nation)
    return _choices([u.name for u in orbat.units] + list(orbat.lend_lease), current)


async def force_units(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    force = await _chosen_force(interaction)
    return _choices([u.label for u in force.units], current) if force else []


async def transports(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    force = await _chosen_force(interaction)
    if force is None:
        return []
    return _choices(["none", *nation_transports(load_orbat(force.nation))], current)


class ImportForm(discord.ui.Modal, title="Import a force"):
    text = discord.ui.TextInput(
        label="Paste the force's text (from /force export)",
        style=discord.TextStyle.paragraph,
        max_length=4000,
    )

    def __init__(self, replace: bool) -> None:
        super().__init__(timeout=None)
        self.replace = replace

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await acknowledge(interaction, private=True)

        async def import_force() -> None:
            text = await force_service(interaction).import_text(
                *where(interaction), self.text.value, replace=self.replace
            )
            await send_long(interaction, text, ephemeral=True)

        await carry_out(interaction, import_force)


class ForceCommands(app_commands.Group):
    def __init__(self) -> None:
        super().__init__(name="force", description="Build and keep your Iron Cross forces")

    @app_commands.command(
        name="new", description="Start a force from a nation's order of battle", extras=PRIVATE
    )
    @app_commands.describe(
        nation="Its order of battle",
        name="Your name for it",
        points="Its points limit",
        date="When it fights, e.g. 1944-09 or 1945 (checks 1945-only and late-1944 units)",
    )
    async def new(
        self,
        interaction: discord.Interaction,
        nation: Nation,
        name: str,
        points: app_commands.Range[int, 1, 10000],
        date: str | None = None,
    ) -> None:
        answer = await force_service(interaction).create(*where(interaction), nation, name, points, date)
        await send_long(interaction, answer, ephemeral=True)

    @app_commands.command(
        name="add", description="Add a unit from the force's order of battle", extras=PRIVATE
    )
    @app_commands.describe(force="One of your forces", unit="The order of battle entry", label="Its name")
    @app_commands.autocomplete(force=own_forces, unit=orbat_units)
    async def add(
        self, interaction: discord.Interaction, force: str, unit: str, label: str | None = None
    ) -> None:
        answer = await force_service(interaction).edit(
            *where(interaction), force, lambda f: add_unit(f, unit, label)
        )
        await send_long(interaction, answer, ephemeral=True)

    @app_commands.command(
        name="remove", description="Take a unit (and its transport) out of a force", extras=PRIVATE
    )
    @app_commands.autocomplete(force=own_forces, unit=force_units)
    async def remove(self, interaction: discord.Interaction, force: str, unit: str) -> None:
        answer = await force_service(interaction).edit(
            *where(interaction), force, lambda f: remove_unit(f, unit)
        )
        await send_long(interaction, answer, ephemeral=True)

    @app_commands.command(
        name="upgrade",
        description="IAW, transport, command unit or sub-commander for a unit",
        extras=PRIVATE,
    )
    @app_commands.describe(
        iaw="The infantry detachment carries the nation's anti-tank weapon",
        transport="A transport bought for it (none sells it back)",
        command="Make it the command unit",
        subcommander="Make it the German sub-commander",
    )
    @app_commands.autocomplete(force=own_forces, unit=force_units, transport=transports)
    async def upgrade(
        self,
        interaction: discord.Interaction,
        force: str,
        unit: str,
        iaw: bool | None = None,
        transport: str | None = None,
        command: bool = False,
        subcommander: bool = False,
    ) -> None:
        def change(f: Force) -> Force:
            return upgrade(f, unit, iaw=iaw, transport=transport, command=command, subcommander=subcommander)

        answer = await force_service(interaction).edit(*where(interaction), force, change)
        await send_long(interaction, answer, ephemeral=True)

    @app_commands.command(
        name="show", description="A force with its points, break points and problems", extras=PRIVATE
    )
    @app_commands.autocomplete(force=own_forces)
    async def show(self, interaction: discord.Interaction, force: str) -> None:
        await send_long(
            interaction, await force_service(interaction).show(*where(interaction), force), ephemeral=True
        )

    @app_commands.command(name="list", description="Your forces in this server", extras=PRIVATE)
    async def list(self, interaction: discord.Interaction) -> None:
        await send_long(
            interaction, await force_service(interaction).listing(*where(interaction)), ephemeral=True
        )

    @app_commands.command(name="copy", description="Copy a force under a new name", extras=PRIVATE)
    @app_commands.autocomplete(force=own_forces)
    async def copy(self, interaction: discord.Interaction, force: str, name: str) -> None:
        answer = await force_service(interaction).copy(*where(interaction), force, name)
        await send_long(interaction, answer, ephemeral=True)

    @app_commands.command(name="export", description="The force as text to paste or keep", extras=PRIVATE)
    @app_commands.autocomplete(force=own_forces)
    async def export(self, interaction: discord.Interaction, force: str) -> None:
        text = await force_service(interaction).export(*where(interaction), force)
        await send_long(interaction, f"```\n{text}\n```", ephemeral=True)

    @app_commands.command(name="import", description="Paste a force's text (opens a form)", extras=FORM)
    @app_commands.describe(replace="Replace your force of the same name")
    async def import_(self, interaction: discord.Interaction, replace: bool = False) -> None:
        await interaction.response.send_modal(ImportForm(replace))

    @app_commands.command(name="delete", description="Delete one of your forces", extras=PRIVATE)
    @app_commands.autocomplete(force=own_forces)
    async def delete(self, interaction: discord.Interaction, force: str) -> None:
        answer = await force_service(interaction).delete(*where(interaction), force)
        await send_long(interaction, answer, ephemeral=True)
