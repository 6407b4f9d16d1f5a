"""``/force``: build, check, save, copy, export and import your forces (pp. 18-24).

Forces belong to a player in a server; every answer is private, since a force is the player's
own business until the game starts.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.discord_adapter.answers import FORM, PRIVATE, acknowledge, carry_out, show_form
from bot.discord_adapter.common import owner_scope, send_long, send_reply, suggestions
from bot.discord_adapter.markdown import fenced
from bot.discord_adapter.schema_commands import schema_command
from bot.services.force_service import ForceService, troop_quality
from bot.services.game_service import GameError
from engine.forces import (
    Force,
    add_unit,
    remove_unit,
    upgrade,
)
from engine.profiles import load_orbat
from engine.rules.force import nation_transports
from engine.rulesets import RULE_SETS, RuleSet


def force_service(interaction: discord.Interaction) -> ForceService:
    return interaction.client.forces  # type: ignore[attr-defined]


def where(interaction: discord.Interaction) -> tuple[str, str]:
    """The server (or the player's direct messages) and the player a force belongs to."""
    return owner_scope(interaction), str(interaction.user.id)


async def own_forces(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    return suggestions(current, await force_service(interaction).names(*where(interaction)))


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
    own = list(RULE_SETS[force.rules].own_units(force.nation))
    return suggestions(current, own + [u.name for u in orbat.units] + list(orbat.lend_lease))


async def force_units(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    force = await _chosen_force(interaction)
    return suggestions(current, [u.label for u in force.units]) if force else []


async def transports(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
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

    async def on_submit(self, interaction: discord.Interaction) -> None:
        if not await acknowledge(interaction, private=True):
            return

        async def import_force() -> None:
            text = await force_service(interaction).import_text(
                *where(interaction), self.text.value, replace=self.replace
            )
            await send_reply(interaction, text)

        await carry_out(interaction, import_force)


class ForceCommands(app_commands.Group):
    def __init__(self) -> None:
        super().__init__(name="force", description="Build and keep your Iron Cross forces")

    @schema_command("force new", extras=PRIVATE)
    async def new(
        self,
        interaction: discord.Interaction,
        nation: str,
        name: str,
        points: app_commands.Range[int, 1, 10000],
        date: str | None = None,
        ruleset: str = RuleSet.name,
    ) -> None:
        answer = await force_service(interaction).create(
            *where(interaction), nation, name, points, date, ruleset
        )
        await send_reply(interaction, answer)

    @schema_command("force add", extras=PRIVATE)
    @app_commands.autocomplete(force=own_forces, unit=orbat_units)
    async def add(
        self,
        interaction: discord.Interaction,
        force: str,
        unit: str,
        label: str | None = None,
        quality: str | None = None,
    ) -> None:
        answer = await force_service(interaction).edit(
            *where(interaction), force, lambda f: add_unit(f, unit, label, troop_quality(quality))
        )
        await send_reply(interaction, answer)

    @schema_command("force remove", extras=PRIVATE)
    @app_commands.autocomplete(force=own_forces, unit=force_units)
    async def remove(self, interaction: discord.Interaction, force: str, unit: str) -> None:
        answer = await force_service(interaction).edit(
            *where(interaction), force, lambda f: remove_unit(f, unit)
        )
        await send_reply(interaction, answer)

    @schema_command("force upgrade", extras=PRIVATE)
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
        quality: str | None = None,
    ) -> None:
        def change(f: Force) -> Force:
            qualities = None if quality is None else troop_quality(quality)
            return upgrade(
                f,
                unit,
                iaw=iaw,
                transport=transport,
                command=command,
                subcommander=subcommander,
                quality=qualities,
            )

        answer = await force_service(interaction).edit(*where(interaction), force, change)
        await send_reply(interaction, answer)

    @schema_command("force show", extras=PRIVATE)
    @app_commands.autocomplete(force=own_forces)
    async def show(self, interaction: discord.Interaction, force: str) -> None:
        await send_reply(interaction, await force_service(interaction).show(*where(interaction), force))

    @schema_command("force list", extras=PRIVATE)
    async def list(self, interaction: discord.Interaction) -> None:
        await send_reply(interaction, await force_service(interaction).listing(*where(interaction)))

    @schema_command("force copy", extras=PRIVATE)
    @app_commands.autocomplete(force=own_forces)
    async def copy(self, interaction: discord.Interaction, force: str, name: str) -> None:
        answer = await force_service(interaction).copy(*where(interaction), force, name)
        await send_reply(interaction, answer)

    @schema_command("force export", extras=PRIVATE)
    @app_commands.autocomplete(force=own_forces)
    async def export(self, interaction: discord.Interaction, force: str) -> None:
        text = await force_service(interaction).export(*where(interaction), force)
        await send_long(interaction, fenced(text), ephemeral=True)

    @schema_command("force import", extras=FORM)
    async def import_(self, interaction: discord.Interaction, replace: bool = False) -> None:
        await show_form(interaction, ImportForm(replace))

    @schema_command("force delete", extras=PRIVATE)
    @app_commands.autocomplete(force=own_forces)
    async def delete(self, interaction: discord.Interaction, force: str) -> None:
        answer = await force_service(interaction).delete(*where(interaction), force)
        await send_reply(interaction, answer)
