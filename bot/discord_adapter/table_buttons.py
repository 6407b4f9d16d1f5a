"""Building a table by taps under its ``/table show`` card: a menu of common pieces (each then
placed at a grid square typed in a small form) and *Undo last piece*.

The menu and the button are persistent ``DynamicItem``s: the custom id carries the table's name
(``ictable:add:Le Mesnil``), so they keep working after a restart. Each change goes through
:meth:`TableService.edit` as /table add and /table remove do (:mod:`bot.handlers.tables`),
written over the version it read, and only the table's maker may make it; a refusal is told to
the one who tapped and changes nothing. The table is then shown again as /table show shows it.
"""

from __future__ import annotations

import discord

from bot.discord_adapter.answers import answer, show_form
from bot.discord_adapter.common import owner_scope
from bot.discord_adapter.handled_commands import present
from bot.discord_adapter.markdown import refused
from bot.handlers.tables import table_shown
from bot.services.game_service import GameError
from bot.services.table_service import read_piece
from engine.errors import IllegalCommand
from engine.tables.layout import BattleTable, add_piece, remove_piece

# the pieces most tables need, with a size to start from (width x depth in inches)
COMMON_PIECES = {
    "woods": "10x8",
    "building": "6x5",
    "hill": "12x8",
    "rough": "8x6",
    "hedge": "12x1",
    "wall": "10x1",
}


def table_view(name: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(AddPieceSelect(name))
    view.add_item(UndoPieceButton(name))
    return view


async def show_table_card(interaction: discord.Interaction, table: BattleTable) -> None:
    """The table shown again as /table show shows it, with the buttons to build it."""
    await present(interaction, await table_shown(table, private=False), view=table_view(table.name))


def next_name(table: BattleTable, kind: str) -> str:
    """The first of ``woods-1``, ``woods-2``... the table does not have yet."""
    taken = {piece.id.casefold() for piece in table.pieces}
    return next(f"{kind}-{n}" for n in range(1, len(taken) + 2) if f"{kind}-{n}" not in taken)


async def change_table(interaction: discord.Interaction, name: str, change) -> None:
    """Make the change as the one who tapped; show the table again, or tell them why not."""
    tables = interaction.client.services.tables
    guild, user = owner_scope(interaction), str(interaction.user.id)
    try:
        changed = await tables.edit(guild, user, name, change)
    except (GameError, IllegalCommand) as problem:
        await answer(interaction, f"Nothing changed: {refused(problem)}", ephemeral=True)
        return
    await show_table_card(interaction, changed)


class SquareForm(discord.ui.Modal, title="Place the piece"):
    square = discord.ui.TextInput(label="Grid square (like D3) or x,y", max_length=20)

    def __init__(self, table: str, kind: str) -> None:
        super().__init__(timeout=None)
        self.table, self.kind = table, kind

    async def on_submit(self, interaction: discord.Interaction) -> None:
        kind, square = self.kind, self.square.value

        def place(table: BattleTable) -> BattleTable:
            piece = read_piece(next_name(table, kind), kind, at=square, size=COMMON_PIECES[kind])
            return add_piece(table, piece)

        await change_table(interaction, self.table, place)


class AddPieceSelect(discord.ui.DynamicItem[discord.ui.Select], template=r"ictable:add:(?P<table>[\s\S]+)"):
    """A common piece to add; a form then asks for its grid square."""

    def __init__(self, table: str) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"ictable:add:{table}",
                placeholder="Add a piece",
                options=[
                    discord.SelectOption(label=f"{kind} ({size})", value=kind)
                    for kind, size in COMMON_PIECES.items()
                ],
            )
        )
        self.table = table

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(match["table"])

    async def callback(self, interaction: discord.Interaction) -> None:
        if len(self.item.values) != 1 or self.item.values[0] not in COMMON_PIECES:
            await answer(interaction, f"Pick one of: {', '.join(COMMON_PIECES)}", ephemeral=True)
            return
        (kind,) = self.item.values
        tables = interaction.client.services.tables
        try:  # only its maker is asked where the piece goes
            await tables.check_maker(owner_scope(interaction), str(interaction.user.id), self.table)
        except GameError as problem:
            await answer(interaction, f"Nothing changed: {refused(problem)}", ephemeral=True)
            return
        await show_form(interaction, SquareForm(self.table, kind))


class UndoPieceButton(discord.ui.DynamicItem[discord.ui.Button], template=r"ictable:undo:(?P<table>[\s\S]+)"):
    """Take off the piece added last."""

    def __init__(self, table: str) -> None:
        super().__init__(
            discord.ui.Button(
                label="Undo last piece",
                style=discord.ButtonStyle.secondary,
                custom_id=f"ictable:undo:{table}",
            )
        )
        self.table = table

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(match["table"])

    async def callback(self, interaction: discord.Interaction) -> None:
        def undo(table: BattleTable) -> BattleTable:
            if not table.pieces:
                raise IllegalCommand(f"{table.name} has no pieces to take off")
            return remove_piece(table, table.pieces[-1].id)

        await change_table(interaction, self.table, undo)
