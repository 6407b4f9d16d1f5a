"""``/rule`` looks the rules up, ``/library`` lists what it searches; ``/rules`` manages the
server's own documents.

Discord cannot run a command that has subcommands, so the lookup players use all the time is
the plain ``/rule query:``, the list every member may read the plain ``/library``, and the
library's upkeep, shown only to members who may manage the server, lives under ``/rules``.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.discord_adapter.answers import PRIVATE
from bot.discord_adapter.common import owner_scope, send_long, send_reply
from bot.discord_adapter.markdown import markdown
from bot.discord_adapter.schema_commands import schema_command
from bot.services.game_service import GameError
from bot.services.rules_service import RulesService


def rules_service(interaction: discord.Interaction) -> RulesService:
    return interaction.client.rules  # type: ignore[attr-defined]


def require_admin(interaction: discord.Interaction) -> str:
    """The server id, if the user may manage this server's library (Manage Server): a direct
    message has no library of its own, so its searches find the bot's documents alone."""
    if not interaction.guild_id:
        raise GameError("The rules library is managed in a server, not in a direct message")
    if not interaction.permissions.manage_guild:
        raise GameError("Only members with the Manage Server permission can change the rules library")
    return owner_scope(interaction)


async def section_names(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    suggestions = await rules_service(interaction).suggest(owner_scope(interaction), current)
    return [app_commands.Choice(name=label[:100], value=value[:100]) for label, value in suggestions]


@schema_command("rule")
@app_commands.autocomplete(query=section_names)
async def rule_command(interaction: discord.Interaction, query: str, private: bool = False) -> None:
    answer = await rules_service(interaction).lookup(owner_scope(interaction), query)
    await send_long(interaction, markdown(answer), ephemeral=private)


@schema_command("library", extras=PRIVATE)
async def library_command(interaction: discord.Interaction) -> None:
    await send_reply(interaction, await rules_service(interaction).sources(owner_scope(interaction)))


@app_commands.default_permissions(manage_guild=True)  # shown to admins; require_admin still checks
class RulesCommands(app_commands.Group):
    def __init__(self) -> None:
        super().__init__(name="rules", description="The rules library: the server's own documents")

    @schema_command("rules import", extras=PRIVATE)
    async def import_(
        self, interaction: discord.Interaction, document: discord.Attachment, name: str | None = None
    ) -> None:
        guild = require_admin(interaction)
        data = await document.read()
        report = await rules_service(interaction).import_document(
            guild, str(interaction.user.id), document.filename, data, name
        )
        await send_reply(interaction, report)

    @schema_command("rules remove", extras=PRIVATE)
    async def remove(self, interaction: discord.Interaction, name: str) -> None:
        guild = require_admin(interaction)
        await send_reply(interaction, await rules_service(interaction).remove(guild, name))
