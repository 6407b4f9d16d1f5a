"""``/rule`` looks the rules up, ``/library`` lists what it searches; ``/rules`` manages the
server's own documents, each carried out by its handler (:mod:`bot.handlers.lookups`).

Discord cannot run a command that has subcommands, so the lookup players use all the time is
the plain ``/rule query:``, the list every member may read the plain ``/library``, and the
library's upkeep, shown only to members who may manage the server, lives under ``/rules``.
"""

from __future__ import annotations

from discord import app_commands

from bot.discord_adapter.answers import PRIVATE
from bot.discord_adapter.common import owner_scope
from bot.discord_adapter.handled_commands import handled_command
from bot.discord_adapter.served import Interaction


async def section_names(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    found = await interaction.client.services.rules.suggest(owner_scope(interaction), current)
    return [app_commands.Choice(name=label[:100], value=value[:100]) for label, value in found]


rule_command = handled_command("rule", {"query": section_names})
library_command = handled_command("library", extras=PRIVATE)


@app_commands.default_permissions(manage_guild=True)  # shown to admins; the handler still checks
class RulesCommands(app_commands.Group):
    def __init__(self) -> None:
        super().__init__(name="rules", description="The rules library: the server's own documents")
        handled_command("rules import", group=self, extras=PRIVATE)
        handled_command("rules remove", group=self, extras=PRIVATE)
