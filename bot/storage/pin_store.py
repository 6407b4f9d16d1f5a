"""Each channel's pinned game card, by channel: the message id, kept when a card is made and
let go when its game ends."""

from __future__ import annotations

from sqlmodel import delete, select

from bot.storage.store import GameStore
from bot.storage.tables import PinnedCardRow


async def pinned_card(store: GameStore, channel_id: str) -> str | None:
    """The message id of the channel's game card, if it has one."""
    async with store.sessions() as session:
        return await session.scalar(
            select(PinnedCardRow.message_id).where(PinnedCardRow.channel_id == channel_id)
        )


async def keep_pinned_card(store: GameStore, channel_id: str, message_id: str | None) -> None:
    """Remember the channel's game card (None: it has none any more)."""
    async with store.sessions() as session, session.begin():
        await session.execute(delete(PinnedCardRow).where(PinnedCardRow.channel_id == channel_id))
        if message_id is not None:
            session.add(PinnedCardRow(channel_id=channel_id, message_id=message_id))
