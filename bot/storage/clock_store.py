"""The referee's clock as stored: since when a game's timers are paused, and the deadlines set
for absent sides. Deadlines are kept as they would fall were the clock running; resuming moves
them (and the open window's) on by the time the clock stood still.

A new game in the channel clears both (see :meth:`GameStore.create`). Each change is one
transaction on the store's writer that holds the rows it reads, so two requests at once (in one
process or two) never both shift a deadline, nor pause a game twice. The ``..._in`` forms write
on the connection of a transaction of the caller's (the referee's command that asks for the
change: see ``ClockService``)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import Connection, bindparam, delete, select, update

from bot.storage.store import GameStore, OpenWindow
from bot.storage.tables import PausedClockRow, PlayerDeadlineRow, TurnPingRow, WindowRow
from bot.storage.writes import INSERTS


@dataclass(frozen=True)
class PlayerDeadline:
    channel_id: str
    side: str
    deadline: datetime
    referee: str  # the game passes or declines in their name


CLOCKS, WINDOWS, DEADLINES, PINGS = (
    row.__table__  # type: ignore[attr-defined]
    for row in (PausedClockRow, WindowRow, PlayerDeadlineRow, TurnPingRow)
)


async def paused_since(store: GameStore, channel_id: str) -> datetime | None:
    async with store.sessions() as session:
        row = await session.get(PausedClockRow, channel_id)
    return datetime.fromisoformat(row.paused_at) if row else None


def paused_since_in(connection: Connection, channel_id: str) -> datetime | None:
    paused_at = connection.execute(
        select(CLOCKS.c.paused_at).where(CLOCKS.c.channel_id == channel_id)
    ).scalar_one_or_none()
    return datetime.fromisoformat(paused_at) if paused_at else None


async def paused_channels(store: GameStore) -> set[str]:
    async with store.sessions() as session:
        return set((await session.execute(select(PausedClockRow.channel_id))).scalars())


async def pause(store: GameStore, channel_id: str, at: datetime) -> bool:
    """Stop the game's clock at ``at``; False if it was stopped already."""
    return await store.transactions.write(lambda connection: pause_in(connection, channel_id, at))


def pause_in(connection: Connection, channel_id: str, at: datetime) -> bool:
    """Stop the clock, unless it is stopped (by another writer at the same moment too)."""
    stop = INSERTS[connection.dialect.name](CLOCKS).on_conflict_do_nothing(index_elements=["channel_id"])
    return connection.execute(stop, {"channel_id": channel_id, "paused_at": at.isoformat()}).rowcount == 1


async def resume(store: GameStore, channel_id: str, now: datetime) -> bool:
    """Start the clock again: the open window, every deadline and the turn ping get back the
    time they had left when it stopped (once, however many resume it at the same moment). The
    turn ping's moment moves with its version. False if the clock was not stopped."""
    return await store.transactions.write(lambda connection: resume_in(connection, channel_id, now))


def resume_in(connection: Connection, channel_id: str, now: datetime) -> bool:
    """The pause is read and locked first, then each row it moves on: a second resume at the same
    moment waits for the first, then finds no pause."""
    here = CLOCKS.c.channel_id == channel_id
    paused_at = connection.execute(select(CLOCKS.c.paused_at).where(here).with_for_update()).scalar()
    if paused_at is None:
        return False
    stood = now - datetime.fromisoformat(paused_at)
    connection.execute(delete(CLOCKS).where(here))
    for table, key in ((WINDOWS, ()), (DEADLINES, ("side",))):
        keys = [table.c[name] for name in ("channel_id", *key)]
        held = select(*keys, table.c.deadline).where(table.c.channel_id == channel_id).with_for_update()
        for *row, deadline in connection.execute(held).all():
            later = (datetime.fromisoformat(deadline) + stood).isoformat()
            which = [column == value for column, value in zip(keys, row, strict=True)]
            connection.execute(update(table).where(*which).values(deadline=later))
    ping = PINGS.c.channel_id == channel_id
    due = connection.execute(select(PINGS.c.due).where(ping).with_for_update()).scalar()
    if due is not None:
        later = (datetime.fromisoformat(due) + stood).isoformat()
        connection.execute(update(PINGS).where(ping).values(due=later, version=PINGS.c.version + 1))
    return True


async def window_of(store: GameStore, channel_id: str) -> OpenWindow | None:
    """The channel's open reaction window as stored."""
    async with store.sessions() as session:
        row = await session.get(WindowRow, channel_id)
    if row is None:
        return None
    return OpenWindow(row.channel_id, row.window, datetime.fromisoformat(row.deadline), row.message_id)


async def extend_window(store: GameStore, channel_id: str, by: timedelta) -> OpenWindow | None:
    """Give the open window more time; its new state, or None if none is open."""
    return await store.transactions.write(lambda connection: extend_window_in(connection, channel_id, by))


def extend_window_in(connection: Connection, channel_id: str, by: timedelta) -> OpenWindow | None:
    here = WINDOWS.c.channel_id == channel_id
    held = select(WINDOWS.c.window, WINDOWS.c.deadline, WINDOWS.c.message_id).where(here).with_for_update()
    row = connection.execute(held).first()
    if row is None:
        return None
    later = datetime.fromisoformat(row.deadline) + by
    connection.execute(update(WINDOWS).where(here).values(deadline=later.isoformat()))
    return OpenWindow(channel_id, row.window, later, row.message_id)


async def player_deadlines(store: GameStore, channel_id: str | None = None) -> list[PlayerDeadline]:
    """The deadlines of one channel, or of every channel."""
    query = select(PlayerDeadlineRow)
    if channel_id is not None:
        query = query.where(PlayerDeadlineRow.channel_id == channel_id)
    async with store.sessions() as session:
        rows = (await session.execute(query)).scalars()
        return [
            PlayerDeadline(r.channel_id, r.side, datetime.fromisoformat(r.deadline), r.referee) for r in rows
        ]


async def set_player_deadline(store: GameStore, deadline: PlayerDeadline) -> None:
    """Set a side's deadline, in place of one it had."""
    await store.transactions.write(lambda connection: set_player_deadline_in(connection, deadline))


def set_player_deadline_in(connection: Connection, deadline: PlayerDeadline) -> None:
    row = {
        "channel_id": deadline.channel_id,
        "side": deadline.side,
        "deadline": deadline.deadline.isoformat(),
        "referee": deadline.referee,
    }
    insert = INSERTS[connection.dialect.name](DEADLINES).values(row)
    changes = {
        "deadline": row["deadline"],
        "referee": row["referee"],
        "claimed_by": None,
        "claimed_until": None,
    }
    connection.execute(insert.on_conflict_do_update(index_elements=["channel_id", "side"], set_=changes))


def drop_held_deadline(connection: Connection, channel_id: str, side: str) -> bool:
    """Drop a side's deadline inside a transaction that writes something else with it: False if
    it was gone already."""
    dropped = delete(DEADLINES).where(DEADLINES.c.channel_id == channel_id, DEADLINES.c.side == side)
    return connection.execute(dropped).rowcount == 1


DEADLINES_DROPPED = delete(DEADLINES).where(  # made once: SQLAlchemy keeps it compiled
    DEADLINES.c.channel_id == bindparam("channel"), DEADLINES.c.side.in_(bindparam("sides", expanding=True))
)


def drop_deadlines(connection: Connection, channel_id: str, sides: Iterable[str]) -> None:
    """Drop the deadlines of ``sides`` inside the transaction of the action that ends them."""
    connection.execute(DEADLINES_DROPPED, {"channel": channel_id, "sides": list(sides)})
