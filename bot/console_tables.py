"""The console's ``/table`` commands, as in Discord: build a table piece by piece, generate
one from a seed, list, show, copy, export (the YAML text), import (a file) and delete. The
console's server is "console"; after each change the picture is drawn again to
``pictures/table.png`` when pictures are on.

    /table new name:Farm width:72 depth:48
    /table add table:Farm piece:wood kind:woods at:C3 size:12x9 [turn:30]
    /table add table:Farm piece:road kind:road points:0,24;72,24 [width:3]
    /table add table:Farm piece:church kind:building at:G5 size:7x6 storeys:2
    /table move table:Farm piece:wood to:D4      /table turn table:Farm piece:wood degrees:45
    /table remove table:Farm piece:wood          /table show table:Farm
    /table random name:R1 seed:42 [width:96 depth:72]
    /table list | /table copy table:Farm name:Farm2 | /table delete table:Farm
    /table export table:Farm | /table import FILE [replace]
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING

from bot.plain_text import plain_reply
from bot.reply import Reply
from bot.services.game_service import GameError
from bot.services.limits import MOST_SEED, measure, whole_number
from bot.services.table_service import TableService, read_piece, read_position
from engine.tables.layout import (
    LARGEST,
    SMALLEST,
    BattleTable,
    describe_table,
    move_piece,
    remove_piece,
    table_game,
    turn_piece,
)
from engine.tables.layout import add_piece as add_to
from engine.tables.pieces import Piece
from renderer import render

if TYPE_CHECKING:
    from bot.console_grammar import Line

USAGE = "Try /table new, add, move, turn, remove, show, random, list, copy, export, import or delete"
GUILD = "console"


class TableDesk:
    """The ``/table`` commands of the console, on the tables of the server "console"."""

    def __init__(self, tables: TableService, pictures: Callable[[], Path | None]) -> None:
        self.tables = tables
        self.pictures = pictures

    async def handle(self, line: Line, read_file: Callable[[str], str]) -> str:
        kind = line.words[0].casefold() if line.words else "list"
        o, player = line.options, line.player
        name = o.get("table", "")
        if kind == "list":
            return plain_reply(await self.tables.listing(GUILD))
        if kind == "export":
            return await self.tables.export(GUILD, name)
        if kind == "delete":
            return await self.tables.delete(GUILD, player, name)
        if kind == "show":
            return await self._shown(await self.tables.table(GUILD, name))
        made: dict[str, Callable[[], Awaitable[BattleTable]]] = {
            "new": lambda: self.tables.create(
                GUILD,
                player,
                o.get("name", ""),
                measure("width", o.get("width", "72"), SMALLEST, LARGEST),
                measure("depth", o.get("depth", "48"), SMALLEST, LARGEST),
            ),
            "random": lambda: self.tables.generate(
                GUILD,
                player,
                o.get("name", f"random-{o.get('seed', '0')}"),
                measure("width", o.get("width", "72"), SMALLEST, LARGEST),
                measure("depth", o.get("depth", "48"), SMALLEST, LARGEST),
                whole_number("seed", o.get("seed", "0"), 0, MOST_SEED),
            ),
            "copy": lambda: self.tables.copy(GUILD, player, name, o.get("name", "")),
            "import": lambda: self.tables.import_text(
                GUILD,
                player,
                read_file(o.get("file", "")),
                replace=line.flag("replace"),
            ),
            "add": lambda: self.tables.edit(GUILD, player, name, lambda t: add_to(t, self._piece(line))),
            "move": lambda: self.tables.edit(
                GUILD,
                player,
                name,
                lambda t: move_piece(t, o.get("piece", ""), read_position("to", o.get("to", ""))),
            ),
            "turn": lambda: self.tables.edit(
                GUILD,
                player,
                name,
                lambda t: turn_piece(t, o.get("piece", ""), measure("degrees", o.get("degrees", ""))),
            ),
            "remove": lambda: self.tables.edit(
                GUILD, player, name, lambda t: remove_piece(t, o.get("piece", ""))
            ),
        }
        if kind not in made:
            raise GameError(USAGE)
        return await self._shown(await made[kind]())

    @staticmethod
    def _piece(line: Line) -> Piece:
        o = line.options
        return read_piece(
            o.get("piece", ""),
            o.get("kind", ""),
            at=o.get("at"),
            size=o.get("size"),
            points=o.get("points"),
            turn=measure("turn", o.get("turn", "0")),
            width=measure("width", o["width"]) if "width" in o else None,
            storeys=whole_number("storeys", o.get("storeys", "1"), 1, 6),
            height=o.get("height"),
        )

    async def _shown(self, table: BattleTable) -> str:
        """The table in words, and its picture drawn again when pictures are on."""
        text = plain_reply(Reply(describe_table(table)))
        folder = self.pictures()
        if folder is None:
            return text
        png = await asyncio.to_thread(render, table_game(table), None)
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / "table.png"
        target.write_bytes(png)
        return f"{text}\nPicture: {target}"
