"""The handlers of /table: build, generate, share and keep the tables of a server (the terrain of a
battle, 2015 rulebook pp. 3, 8, 27). Anyone there sees, copies, exports and fights on a table; only
its maker changes or deletes it. A table made or changed is shown again, in words and its picture,
to its maker alone; /table show shows it to everyone."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from bot.handlers.ask import Ask, Picture, TextFile, Upload
from bot.picture_pool import drawn
from bot.reply import Reply
from bot.services.game_service import GameError
from bot.services.limits import TABLE_FILE
from bot.services.table_service import read_piece, read_position
from engine.tables.file import export_table
from engine.tables.layout import (
    BattleTable,
    add_piece,
    describe_table,
    move_piece,
    remove_piece,
    table_game,
    turn_piece,
)

TABLE_PICTURE = "table.png"
Shown = tuple[Reply, Picture]


async def table_shown(table: BattleTable, *, private: bool = True) -> Shown:
    """The table in words, then its picture as spectators would see it (drawn off the event
    loop), with the same in words as its alt text."""
    game = table_game(table)
    png, words = await asyncio.to_thread(drawn, game, None)
    return Reply(describe_table(table), private=private), Picture(TABLE_PICTURE, png, words)


async def _edited(ask: Ask, table: str, change: Callable[[BattleTable], BattleTable]) -> Shown:
    """A change made by the table's maker, over the table as it is saved (a refused one changes
    nothing)."""
    return await table_shown(await ask.services.tables.edit(ask.owner, ask.user, table, change))


async def table_new(ask: Ask, name: str, width: float, depth: float) -> Shown:
    return await table_shown(await ask.services.tables.create(ask.owner, ask.user, name, width, depth))


async def table_random(ask: Ask, name: str, seed: int, width: float, depth: float) -> Shown:
    made = await ask.services.tables.generate(ask.owner, ask.user, name, width, depth, seed)
    return await table_shown(made)


async def table_add(
    ask: Ask,
    table: str,
    piece: str,
    kind: str,
    at: str | None,
    size: str | None,
    points: str | None,
    turn: float,
    width: float | None,
    storeys: int,
    height: str | None,
) -> Shown:
    """A piece placed by its centre and size, or by the points of its outline or path."""
    new = read_piece(
        piece, kind, at=at, size=size, points=points, turn=turn, width=width, storeys=storeys, height=height
    )
    return await _edited(ask, table, lambda t: add_piece(t, new))


async def table_move(ask: Ask, table: str, piece: str, to: str) -> Shown:
    where = read_position("to", to)
    return await _edited(ask, table, lambda t: move_piece(t, piece, where))


async def table_turn(ask: Ask, table: str, piece: str, degrees: float) -> Shown:
    return await _edited(ask, table, lambda t: turn_piece(t, piece, degrees))


async def table_remove(ask: Ask, table: str, piece: str) -> Shown:
    return await _edited(ask, table, lambda t: remove_piece(t, piece))


async def table_show(ask: Ask, table: str) -> Shown:
    return await table_shown(await ask.services.tables.table(ask.owner, table), private=False)


async def table_list(ask: Ask) -> Reply:
    return await ask.services.tables.listing(ask.owner)


async def table_copy(ask: Ask, table: str, name: str) -> Shown:
    return await table_shown(await ask.services.tables.copy(ask.owner, ask.user, table, name))


async def table_export(ask: Ask, table: str) -> tuple[Reply, TextFile]:
    """The table's YAML file, to edit and bring back with /table import."""
    found = await ask.services.tables.table(ask.owner, table)
    told = Reply.of((found.name, ": edit it and bring it back with /table import"), private=True)
    return told, TextFile(f"{found.name[:40]}.yaml", export_table(found), f"The table {found.name} as YAML")


def _file_text(file: Upload) -> str:
    """An uploaded table file's text, refused unread past the size a table file may have."""
    if len(file.data) > TABLE_FILE:
        raise GameError(f"{file.name} is {len(file.data):,} bytes; a table file is at most {TABLE_FILE:,}")
    try:
        return file.data.decode("utf-8")
    except UnicodeDecodeError:
        raise GameError(f"{file.name} is not a text file (UTF-8)") from None


async def table_import(ask: Ask, file: Upload, replace: bool) -> Shown:
    """A table from its file (/table export); ``replace``: in place of the asker's own table of
    its name."""
    text = _file_text(file)
    return await table_shown(
        await ask.services.tables.import_text(ask.owner, ask.user, text, replace=replace)
    )


async def table_delete(ask: Ask, table: str) -> Reply:
    return Reply.of(await ask.services.tables.delete(ask.owner, ask.user, table), private=True)


TABLE_HANDLERS = {
    "table new": table_new,
    "table random": table_random,
    "table add": table_add,
    "table move": table_move,
    "table turn": table_turn,
    "table remove": table_remove,
    "table show": table_show,
    "table list": table_list,
    "table copy": table_copy,
    "table export": table_export,
    "table import": table_import,
    "table delete": table_delete,
}
