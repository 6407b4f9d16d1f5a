"""Each game's private Discord threads, by channel and audience (a side, or "referee").

A new game in the channel clears them (see :meth:`GameStore.create`)."""

from __future__ import annotations

from sqlalchemy.exc import IntegrityError
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


async def keep_side_threads(store: GameStore, channel_id: str, threads: dict[str, str]) -> bool:
    """Remember the threads opened for the channel's game, all or none: False, keeping nothing,
    if threads for it were kept already (opened at the same moment by another request)."""
    try:
        async with store.sessions() as session, session.begin():
            if await session.scalar(
                select(SideThreadRow.channel_id).where(SideThreadRow.channel_id == channel_id).limit(1)
            ):
                return False
            session.add_all(
                SideThreadRow(channel_id=channel_id, side=side, thread_id=thread)
                for side, thread in threads.items()
            )
    except IntegrityError:
        return False
    return True
