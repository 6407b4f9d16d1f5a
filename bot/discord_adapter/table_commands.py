"""``/table``: build, generate, share and keep a server's tables (the terrain of a battle,
2015 rulebook pp. 3, 8, 27), each carried out by its handler (:mod:`bot.handlers.tables`).
Anyone in the server sees, copies, exports and fights on them; only a table's maker changes or
deletes it. The picture is drawn again after every change."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.discord_adapter.answers import PRIVATE
from bot.discord_adapter.common import owner_scope, suggestions
from bot.discord_adapter.handled_commands import ask_of, handled_command, present
from bot.discord_adapter.schema_commands import schema_command
from bot.discord_adapter.served import Interaction
from bot.discord_adapter.table_buttons import table_view
from bot.handlers import HANDLERS
from bot.services.table_service import TableService
from engine.scenarios.quick_battle import quick_tables


def table_service(interaction: Interaction) -> TableService:
    return interaction.client.services.tables


async def battlefields(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The built-in tables, random, and the server's own, as the user types."""
    named = {title: name for name, title in quick_tables().items()}
    named["random: a table laid out from the seed option"] = "random"
    named.update({name: name for name in await table_service(interaction).names(owner_scope(interaction))})
    return suggestions(current, named)


async def server_tables(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    return suggestions(current, await table_service(interaction).names(owner_scope(interaction)))


NAMED = {"table": server_tables}
SUGGESTED = {
    "table new": {},
    "table random": {},
    "table add": NAMED,
    "table move": NAMED,
    "table turn": NAMED,
    "table remove": NAMED,
    "table list": {},
    "table copy": NAMED,
    "table export": NAMED,
    "table import": {},
    "table delete": NAMED,
}


class TableCommands(app_commands.Group):
    def __init__(self) -> None:
        super().__init__(name="table", description="Build, generate and share this server's tables")
        for path, suggest in SUGGESTED.items():
            handled_command(path, suggest, group=self, extras=PRIVATE)

    @schema_command("table show")
    @app_commands.autocomplete(table=server_tables)
    async def show(self, interaction: discord.Interaction, table: str) -> None:
        """The table for everyone here, with the buttons to build it by taps
        (:mod:`bot.discord_adapter.table_buttons`): the handler found it by the name typed."""
        shown = await HANDLERS["table show"](ask_of(interaction), table=table)
        await present(interaction, shown, view=table_view(table.strip()))
