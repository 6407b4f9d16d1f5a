"""``/table``: build, generate, share and keep a server's tables (the terrain of a battle,
2015 rulebook pp. 3, 8, 27). Anyone in the server sees, copies, exports and fights on them;
only a table's maker changes or deletes it. The picture is drawn again after every change."""

from __future__ import annotations

import io

import discord
from discord import app_commands

from bot.discord_adapter.answers import PRIVATE, answer
from bot.discord_adapter.common import battlefield_file, owner_scope, send_long, send_reply, suggestions
from bot.discord_adapter.markdown import markdown, plain
from bot.discord_adapter.schema_commands import schema_command
from bot.discord_adapter.table_buttons import show_table_card
from bot.reply import Reply
from bot.services.game_service import GameError
from bot.services.limits import MOST_SEED, TABLE_FILE
from bot.services.table_service import TableService, read_piece, read_position
from engine.scenarios.quick_battle import quick_tables
from engine.tables.layout import (
    LARGEST,
    SMALLEST,
    BattleTable,
    add_piece,
    describe_table,
    move_piece,
    remove_piece,
    table_game,
    turn_piece,
)

Side = app_commands.Range[float, SMALLEST, LARGEST]


def table_service(interaction: discord.Interaction) -> TableService:
    return interaction.client.tables  # type: ignore[attr-defined]


async def battlefields(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The built-in tables, random, and the server's own, as the user types."""
    named = {title: name for name, title in quick_tables().items()}
    named["random: a table laid out from the seed option"] = "random"
    named.update({name: name for name in await table_service(interaction).names(owner_scope(interaction))})
    return suggestions(current, named)


async def server_tables(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    return suggestions(current, await table_service(interaction).names(owner_scope(interaction)))


async def _show(interaction: discord.Interaction, table: BattleTable, *, private: bool = True) -> None:
    """The table in words with its picture."""
    text = markdown(Reply(describe_table(table)))
    picture = await battlefield_file(table_game(table), None)
    if len(text) > 1900:
        await send_long(interaction, text, ephemeral=private)
        await interaction.followup.send(file=picture, ephemeral=private)
    else:
        await answer(interaction, text, file=picture, ephemeral=private)


class TableCommands(app_commands.Group):
    def __init__(self) -> None:
        super().__init__(name="table", description="Build, generate and share this server's tables")

    @schema_command("table new", extras=PRIVATE)
    async def new(
        self, interaction: discord.Interaction, name: str, width: Side = 72.0, depth: Side = 48.0
    ) -> None:
        user = str(interaction.user.id)
        table = await table_service(interaction).create(owner_scope(interaction), user, name, width, depth)
        await _show(interaction, table)

    @schema_command("table random", extras=PRIVATE)
    async def random(
        self,
        interaction: discord.Interaction,
        name: str,
        seed: app_commands.Range[int, 0, MOST_SEED],
        width: Side = 72.0,
        depth: Side = 48.0,
    ) -> None:
        user = str(interaction.user.id)
        table = await table_service(interaction).generate(
            owner_scope(interaction), user, name, width, depth, seed
        )
        await _show(interaction, table)

    @schema_command("table add", extras=PRIVATE)
    @app_commands.autocomplete(table=server_tables)
    async def add(
        self,
        interaction: discord.Interaction,
        table: str,
        piece: str,
        kind: str,
        at: str | None = None,
        size: str | None = None,
        points: str | None = None,
        turn: app_commands.Range[float, -360.0, 360.0] = 0.0,
        width: app_commands.Range[float, 0.1, 12.0] | None = None,
        storeys: app_commands.Range[int, 1, 6] = 1,
        height: str | None = None,
    ) -> None:
        new = read_piece(
            piece,
            kind,
            at=at,
            size=size,
            points=points,
            turn=turn,
            width=width,
            storeys=storeys,
            height=height,
        )
        user = str(interaction.user.id)
        changed = await table_service(interaction).edit(
            owner_scope(interaction), user, table, lambda t: add_piece(t, new)
        )
        await _show(interaction, changed)

    @schema_command("table move", extras=PRIVATE)
    @app_commands.autocomplete(table=server_tables)
    async def move(self, interaction: discord.Interaction, table: str, piece: str, to: str) -> None:
        where = read_position("to", to)
        user = str(interaction.user.id)
        changed = await table_service(interaction).edit(
            owner_scope(interaction), user, table, lambda t: move_piece(t, piece, where)
        )
        await _show(interaction, changed)

    @schema_command("table turn", extras=PRIVATE)
    @app_commands.autocomplete(table=server_tables)
    async def turn(
        self,
        interaction: discord.Interaction,
        table: str,
        piece: str,
        degrees: app_commands.Range[float, -360.0, 360.0],
    ) -> None:
        user = str(interaction.user.id)
        changed = await table_service(interaction).edit(
            owner_scope(interaction), user, table, lambda t: turn_piece(t, piece, degrees)
        )
        await _show(interaction, changed)

    @schema_command("table remove", extras=PRIVATE)
    @app_commands.autocomplete(table=server_tables)
    async def remove(self, interaction: discord.Interaction, table: str, piece: str) -> None:
        user = str(interaction.user.id)
        changed = await table_service(interaction).edit(
            owner_scope(interaction), user, table, lambda t: remove_piece(t, piece)
        )
        await _show(interaction, changed)

    @schema_command("table show")
    @app_commands.autocomplete(table=server_tables)
    async def show(self, interaction: discord.Interaction, table: str) -> None:
        """The table with the buttons to build it (:mod:`bot.discord_adapter.table_buttons`)."""
        await show_table_card(
            interaction, await table_service(interaction).table(owner_scope(interaction), table)
        )

    @schema_command("table list", extras=PRIVATE)
    async def list(self, interaction: discord.Interaction) -> None:
        await send_reply(interaction, await table_service(interaction).listing(owner_scope(interaction)))

    @schema_command("table copy", extras=PRIVATE)
    @app_commands.autocomplete(table=server_tables)
    async def copy(self, interaction: discord.Interaction, table: str, name: str) -> None:
        user = str(interaction.user.id)
        await _show(
            interaction, await table_service(interaction).copy(owner_scope(interaction), user, table, name)
        )

    @schema_command("table export", extras=PRIVATE)
    @app_commands.autocomplete(table=server_tables)
    async def export(self, interaction: discord.Interaction, table: str) -> None:
        text = await table_service(interaction).export(owner_scope(interaction), table)
        yaml = io.BytesIO(text.encode("utf-8"))
        file = discord.File(yaml, filename=f"{table[:40]}.yaml", description=f"The table {table} as YAML")
        await answer(
            interaction,
            f"{plain(table)}: edit it and bring it back with /table import",
            file=file,
            ephemeral=True,
        )

    @schema_command("table import", extras=PRIVATE)
    async def import_(
        self, interaction: discord.Interaction, file: discord.Attachment, replace: bool = False
    ) -> None:
        if file.size > TABLE_FILE:
            raise GameError(f"{file.filename} is {file.size:,} bytes; a table file is at most {TABLE_FILE:,}")
        try:
            text = (await file.read()).decode("utf-8")
        except UnicodeDecodeError:
            raise GameError(f"{file.filename} is not a text file (UTF-8)") from None
        user = str(interaction.user.id)
        table = await table_service(interaction).import_text(
            owner_scope(interaction), user, text, replace=replace
        )
        await _show(interaction, table)

    @schema_command("table delete", extras=PRIVATE)
    @app_commands.autocomplete(table=server_tables)
    async def delete(self, interaction: discord.Interaction, table: str) -> None:
        user = str(interaction.user.id)
        await answer(
            interaction,
            plain(await table_service(interaction).delete(owner_scope(interaction), user, table)),
            ephemeral=True,
        )
