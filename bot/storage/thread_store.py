"""Each game's private Discord threads, by channel and audience (a side, or "referee").

A new game in the channel clears them (see :meth:`GameStore.create`)."""

from __future__ import annotations

from sqlalchemy import delete
from sqlmodel import select

from bot.storage.store import GameStore
from bot.storage.tables import SideThreadRow


async def side_threads(store: GameStore, channel_id: str) -> dict[str, str]:
    """The channel's game's threads: audience -> thread id (empty when it has none)."""
    async with store.sessions() as session:
        rows = (
            await session.execute(select(SideThreadRow).where(SideThreadRow.channel_id == channel_id))
        ).scalars()
        return {row.side: row.thread_id for row in rows}


async def keep_side_threads(store: GameStore, channel_id: str, threads: dict[str, str]) -> None:
    """Remember the threads opened for the channel's game, in place of any before."""
    async with store.sessions() as session, session.begin():
        await session.execute(delete(SideThreadRow).where(SideThreadRow.channel_id == channel_id))
        session.add_all(
            SideThreadRow(channel_id=channel_id, side=side, thread_id=thread)
            for side, thread in threads.items()
        )
