"""TableService: the tables a server's players build, import or generate, saved per server;
listed, shown, copied, exported and deleted; edited piece by piece (add, move, turn, remove).

Anyone in the server may look at, copy, export or fight on a table; only its maker changes or
deletes it. Every edit is written over the version it read (:mod:`bot.storage.writes`).
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import Callable

from pydantic import ValidationError
from sqlalchemy import delete, func, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import select

from bot.reply import Line, Mention, Reply, Strong
from bot.services.game_service import GameError
from bot.services.limits import (
    MOST_SEED,
    TABLE_FILE,
    bounded_name,
    bounded_text,
    cleaned,
    measure,
    whole_number,
)
from bot.storage.store import GameStore
from bot.storage.tables import SavedTableRow, utcnow
from bot.storage.writes import TRIES, back_off, take_name
from engine.errors import IllegalCommand
from engine.scenarios.quick_battle import quick_tables
from engine.state import Point
from engine.tables.file import import_table
from engine.tables.generate import random_table
from engine.tables.layout import LARGEST, SMALLEST, BattleTable, check_table
from engine.tables.pieces import Piece, square_centre
from engine.wording import counted

MAX_TABLES = 100  # per server


def read_position(what: str, typed: str) -> Point:
    """A grid square (``D3``) or inches (``30,18``)."""
    text = bounded_text(what, typed.strip(), 40)
    if "," not in text:
        return square_centre(text)
    x, _, y = text.partition(",")
    return Point(x=measure(f"{what}'s x", x), y=measure(f"{what}'s y", y))


def read_piece(
    name: str,
    kind: str,
    *,
    at: str | None = None,
    size: str | None = None,
    points: str | None = None,
    turn: float = 0.0,
    width: float | None = None,
    storeys: int = 1,
    height: str | None = None,
) -> Piece:
    """A piece as typed: ``at:D3 size:12x9`` or ``points:0,24;72,24`` (``;`` between points)."""
    fields: dict[str, object] = {
        "id": bounded_name("A piece's name", name),
        "kind": kind.strip().casefold().replace(" ", "_"),
        "turn": measure("turn", turn),
        "storeys": storeys,
    }
    if at:
        fields["centre"] = read_position("at", at)
    if size:
        parts = bounded_text("size", size, 40).casefold().replace("x", ",").split(",")
        if len(parts) != 2:
            raise IllegalCommand(f"Give the size as width x depth in inches, e.g. 12x9, not {size!r}")
        fields["size"] = tuple(measure("size", part) for part in parts)
    if points:
        typed = bounded_text("points", points, 2000).split(";")
        fields["points"] = tuple(read_position("a point", part) for part in typed if part.strip())
    if width is not None:
        fields["width"] = measure("width", width)
    if height:
        fields["height"] = height.strip().casefold()
    try:
        return Piece.model_validate(fields)
    except ValidationError as problem:
        error = problem.errors()[0]
        field = ".".join(str(p) for p in error["loc"])
        message = error["msg"].removeprefix("Value error, ")
        raise IllegalCommand(f"{field}: {message}" if field else message) from None


def _cleaned(table: BattleTable) -> BattleTable:
    """A table read from a file, its name and pieces' ids cleaned as typed names are: a file's
    escapes (``\\u200b``) bring back what cleaning the file's text took out."""
    data = table.model_dump()
    data["name"] = cleaned(table.name)
    data["pieces"] = [{**piece, "id": cleaned(piece["id"])} for piece in data["pieces"]]
    return BattleTable.model_validate(data)


def _refusing(action: Callable[[], BattleTable]) -> BattleTable:
    try:
        return action()
    except IllegalCommand as refusal:
        raise GameError(str(refusal)) from refusal
    except ValidationError as problem:
        error = problem.errors()[0]
        field = ".".join(str(p) for p in error["loc"])
        raise GameError(f"{field}: {error['msg']}") from None


class TableService:
    """Saved tables, one of a name per server."""

    def __init__(self, store: GameStore) -> None:
        self.store = store
        self._locks: defaultdict[tuple[str, str], asyncio.Lock] = defaultdict(asyncio.Lock)

    async def create(
        self, guild_id: str, owner_id: str, name: str, width: float, depth: float
    ) -> BattleTable:
        width = measure("width", width, SMALLEST, LARGEST)
        depth = measure("depth", depth, SMALLEST, LARGEST)
        table = _refusing(
            lambda: BattleTable(name=bounded_name("A table's name", name), width=width, depth=depth)
        )
        await self._add(guild_id, owner_id, table)
        return table

    async def generate(
        self, guild_id: str, owner_id: str, name: str, width: float, depth: float, seed: int
    ) -> BattleTable:
        """A random table (:mod:`engine.tables.generate`), saved under ``name``."""
        width = measure("width", width, SMALLEST, LARGEST)
        depth = measure("depth", depth, SMALLEST, LARGEST)
        seed = whole_number("seed", seed, 0, MOST_SEED)
        name = bounded_name("A table's name", name)
        table = await asyncio.to_thread(random_table, seed, width, depth, name)
        await self._add(guild_id, owner_id, table)
        return table

    async def edit(
        self, guild_id: str, owner_id: str, name: str, change: Callable[[BattleTable], BattleTable]
    ) -> BattleTable:
        """Apply a change from :mod:`engine.tables.layout` to a saved table and save it; a
        refused change leaves it as it was. Made again on the table as it then stands when
        another edit was saved since it was read."""
        async with self._locks[(guild_id, name.casefold())]:
            for lost in range(TRIES):
                await back_off(lost)
                row = await self._made_by(guild_id, owner_id, name)
                before = BattleTable.model_validate_json(row.layout)
                table = await asyncio.to_thread(_refusing, lambda t=before: change(t))
                if await self._save_over(row, table):
                    return table
        raise GameError(f"{row.name} changed under you: try again")

    async def check_maker(self, guild_id: str, user_id: str, name: str) -> None:
        """Refuse anyone but the table's maker, before they are asked how to change it."""
        await self._made_by(guild_id, user_id, name)

    async def _made_by(self, guild_id: str, owner_id: str, name: str) -> SavedTableRow:
        """The saved table, if ``owner_id`` made it: only its maker changes it."""
        async with self.store.sessions() as session:
            row = await self._row(session, guild_id, name)
        if row.owner_id != owner_id:
            raise GameError(
                row.name, " is ", Mention(row.owner_id), "'s table: copy it to change it (/table copy)"
            )
        return row

    async def _save_over(self, row: SavedTableRow, table: BattleTable) -> bool:
        async with self.store.sessions() as session, session.begin():
            result = await session.execute(
                update(SavedTableRow)
                .where(SavedTableRow.id == row.id, SavedTableRow.version == row.version)
                .values(layout=table.model_dump_json(), version=row.version + 1, updated_at=utcnow())
            )
        return result.rowcount == 1

    async def table(self, guild_id: str, name: str) -> BattleTable:
        async with self.store.sessions() as session:
            row = await self._row(session, guild_id, name)
        return BattleTable.model_validate_json(row.layout)

    async def battlefield(
        self, guild_id: str, typed: str, seed: str | int | None = None
    ) -> str | BattleTable:
        """The table a game is fought on: a built-in one by name, ``random`` (a 6' x 4' table
        from ``seed``), or one saved in the server."""
        if typed in quick_tables():
            return typed
        if typed.strip().casefold() == "random":
            seed = whole_number("seed", seed if seed is not None else 0, 0, MOST_SEED)
            return await asyncio.to_thread(random_table, seed, 72.0, 48.0)
        try:
            return await self.table(guild_id, typed)
        except GameError:
            built_in = ", ".join(quick_tables())
            raise GameError(
                f"There is no table {typed!r}: choose {built_in}, random (with a seed) or one of /table list"
            ) from None

    async def names(self, guild_id: str) -> list[str]:
        async with self.store.sessions() as session:
            query = (
                select(SavedTableRow.name)
                .where(SavedTableRow.guild_id == guild_id)
                .order_by(SavedTableRow.name)
            )
            return list((await session.execute(query)).scalars())

    async def listing(self, guild_id: str) -> Reply:
        async with self.store.sessions() as session:
            query = (
                select(SavedTableRow).where(SavedTableRow.guild_id == guild_id).order_by(SavedTableRow.name)
            )
            rows = list((await session.execute(query)).scalars())
        lines: list[Line] = []
        for row in rows:
            table = BattleTable.model_validate_json(row.layout)
            size = f'{table.width:g}" x {table.depth:g}", {counted(len(table.pieces), "piece")}'
            lines.append((Strong(table.name), f": {size}, by ", Mention(row.owner_id)))
        return Reply.of(*(lines or ["No tables here yet: /table new or /table random"]), private=True)

    async def copy(self, guild_id: str, owner_id: str, name: str, new_name: str) -> BattleTable:
        source = await self.table(guild_id, name)
        copied = _refusing(
            lambda: source.model_copy(update={"name": bounded_name("A table's name", new_name)})
        )
        copied = _refusing(lambda: BattleTable.model_validate(copied.model_dump()))
        await self._add(guild_id, owner_id, copied)
        return copied

    async def import_text(
        self, guild_id: str, owner_id: str, text: str, *, replace: bool = False
    ) -> BattleTable:
        """A table from its file; a bad file is refused with its line and nothing is stored."""
        text = bounded_text("A table's file", text, TABLE_FILE)
        table = await asyncio.to_thread(_refusing, lambda: _cleaned(import_table(text)))
        await self._add(guild_id, owner_id, table, replace=replace)
        return table

    async def delete(self, guild_id: str, owner_id: str, name: str) -> str:
        async with self.store.sessions() as session, session.begin():
            row = await self._row(session, guild_id, name)
            if row.owner_id != owner_id:
                raise GameError(row.name, " is ", Mention(row.owner_id), "'s table: only they may delete it")
            await session.execute(delete(SavedTableRow).where(SavedTableRow.id == row.id))
        return f"Deleted {row.name}"

    async def _add(self, guild_id: str, owner_id: str, table: BattleTable, *, replace: bool = False) -> None:
        """Save a new table (``replace``: in place of the maker's own table of that name). The
        name is the schema's to keep unique per server."""
        check_table(table)
        try:
            async with self.store.sessions() as session, session.begin():
                if replace:
                    await take_name(session, SavedTableRow, guild_id, table.name.casefold())
                    old = await self._row(session, guild_id, table.name, missing_ok=True)
                    if old is not None and old.owner_id != owner_id:
                        raise GameError(
                            old.name, " is ", Mention(old.owner_id), "'s table: import it under another name"
                        )
                    if old is not None:
                        await session.execute(delete(SavedTableRow).where(SavedTableRow.id == old.id))
                session.add(
                    SavedTableRow(
                        guild_id=guild_id, owner_id=owner_id, name=table.name, layout=table.model_dump_json()
                    )
                )
                await session.flush()
                count = await session.scalar(select(func.count()).where(SavedTableRow.guild_id == guild_id))
                if (count or 0) > MAX_TABLES:
                    raise GameError(
                        f"This server has {MAX_TABLES} tables, the most it may keep: delete one first"
                    )
        except IntegrityError:
            raise GameError(f"There is already a table called {table.name} here: pick another name") from None

    @staticmethod
    async def _row(session, guild_id: str, name: str, *, missing_ok: bool = False) -> SavedTableRow:
        query = select(SavedTableRow).where(
            SavedTableRow.guild_id == guild_id, func.lower(SavedTableRow.name) == name.strip().casefold()
        )
        row = (await session.execute(query)).scalars().first()
        if row is None and not missing_ok:
            raise GameError(f"There is no table called {name!r} here: see /table list")
        return row
