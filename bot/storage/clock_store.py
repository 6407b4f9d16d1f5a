"""The referee's clock as stored: since when a game's timers are paused, and the deadlines set
for absent sides. Deadlines are kept as they would fall were the clock running; resuming moves
them (and the open window's) on by the time the clock stood still.

A new game in the channel clears both (see :meth:`GameStore.create`). Each change is one
transaction that holds the rows it reads, so two requests at once (in one process or two) never
both shift a deadline, nor pause a game twice. The ``..._in`` forms write inside a transaction
of the caller's (the referee's command that asks for the change: see ``ClockService``)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import Connection, bindparam, delete
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlmodel import select

from bot.storage.store import GameStore, OpenWindow
from bot.storage.tables import PausedClockRow, PlayerDeadlineRow, TurnPingRow, WindowRow
from bot.storage.writes import hold, upsert


@dataclass(frozen=True)
class PlayerDeadline:
    channel_id: str
    side: str
    deadline: datetime
    referee: str  # the game passes or declines in their name


async def paused_since(store: GameStore, channel_id: str) -> datetime | None:
    async with store.sessions() as session:
        return await paused_since_in(session, channel_id)


async def paused_since_in(session: AsyncSession, channel_id: str) -> datetime | None:
    row = await session.get(PausedClockRow, channel_id)
    return datetime.fromisoformat(row.paused_at) if row else None


async def paused_channels(store: GameStore) -> set[str]:
    async with store.sessions() as session:
        return set((await session.execute(select(PausedClockRow.channel_id))).scalars())


async def pause(store: GameStore, channel_id: str, at: datetime) -> bool:
    """Stop the game's clock at ``at``; False if it was stopped already."""
    try:
        async with store.sessions() as session, session.begin():
            return await pause_in(session, channel_id, at)
    except IntegrityError:  # stopped at the same moment by another process
        return False


async def pause_in(session: AsyncSession, channel_id: str, at: datetime) -> bool:
    if await session.get(PausedClockRow, channel_id) is not None:
        return False
    session.add(PausedClockRow(channel_id=channel_id, paused_at=at.isoformat()))
    return True


async def resume(store: GameStore, channel_id: str, now: datetime) -> bool:
    """Start the clock again: the open window, every deadline and the turn ping get back the
    time they had left when it stopped (once, however many resume it at the same moment). The
    turn ping's moment moves with its version. False if the clock was not stopped."""
    async with store.sessions() as session, session.begin():
        return await resume_in(session, channel_id, now)


async def resume_in(session: AsyncSession, channel_id: str, now: datetime) -> bool:
    for table in (PausedClockRow, WindowRow, PlayerDeadlineRow, TurnPingRow):
        await hold(session, table, table.channel_id == channel_id)
    row = await session.get(PausedClockRow, channel_id)
    if row is None:
        return False
    stood = now - datetime.fromisoformat(row.paused_at)
    await session.delete(row)
    for table in (WindowRow, PlayerDeadlineRow):
        rows = (await session.execute(select(table).where(table.channel_id == channel_id))).scalars()
        for later in rows:
            later.deadline = (datetime.fromisoformat(later.deadline) + stood).isoformat()
    ping = await session.get(TurnPingRow, channel_id)
    if ping is not None and ping.due is not None:
        ping.due = (datetime.fromisoformat(ping.due) + stood).isoformat()
        ping.version += 1
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
    async with store.sessions() as session, session.begin():
        return await extend_window_in(session, channel_id, by)


async def extend_window_in(session: AsyncSession, channel_id: str, by: timedelta) -> OpenWindow | None:
    await hold(session, WindowRow, WindowRow.channel_id == channel_id)
    row = await session.get(WindowRow, channel_id)
    if row is None:
        return None
    later = datetime.fromisoformat(row.deadline) + by
    row.deadline = later.isoformat()
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
    async with store.sessions() as session, session.begin():
        await set_player_deadline_in(session, deadline)


async def set_player_deadline_in(session: AsyncSession, deadline: PlayerDeadline) -> None:
    row = PlayerDeadlineRow(
        channel_id=deadline.channel_id,
        side=deadline.side,
        deadline=deadline.deadline.isoformat(),
        referee=deadline.referee,
    )
    await upsert(session, row, ("channel_id", "side"))


async def drop_held_deadline(session: AsyncSession, channel_id: str, side: str) -> bool:
    """Drop a side's deadline inside a transaction that writes something else with it: False if
    it was gone already."""
    result = await session.execute(
        delete(PlayerDeadlineRow).where(
            PlayerDeadlineRow.channel_id == channel_id, PlayerDeadlineRow.side == side
        )
    )
    return result.rowcount == 1


DEADLINES = PlayerDeadlineRow.__table__  # type: ignore[attr-defined]
DEADLINES_DROPPED = delete(DEADLINES).where(  # made once: SQLAlchemy keeps it compiled
    DEADLINES.c.channel_id == bindparam("channel"), DEADLINES.c.side.in_(bindparam("sides", expanding=True))
)


def drop_deadlines(connection: Connection, channel_id: str, sides: Iterable[str]) -> None:
    """Drop the deadlines of ``sides`` inside the transaction of the action that ends them."""
    connection.execute(DEADLINES_DROPPED, {"channel": channel_id, "sides": list(sides)})
