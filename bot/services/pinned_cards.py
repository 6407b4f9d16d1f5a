"""Which message is each channel's pinned game card: read from the store once a process, then
remembered, so an action's edit of its card costs no read; written only when the card changes."""

from __future__ import annotations

from bot.storage.pin_store import keep_pinned_card, pinned_card
from bot.storage.store import GameStore

UNREAD = object()  # a channel whose card this process has not read yet


class PinnedCards:
    def __init__(self, store: GameStore) -> None:
        self.store = store
        self.known: dict[str, str | None] = {}  # channel -> its card's message id (None: no card)

    async def card(self, channel_id: str) -> str | None:
        """The message id of the channel's game card, if it has one."""
        known = self.known.get(channel_id, UNREAD)
        if known is UNREAD:
            known = self.known[channel_id] = await pinned_card(self.store, channel_id)
        return known  # type: ignore[return-value]

    async def keep(self, channel_id: str, message_id: str | None) -> None:
        """The channel's card is now ``message_id`` (None: it has none)."""
        if self.known.get(channel_id, UNREAD) == message_id:
            return
        await keep_pinned_card(self.store, channel_id, message_id)
        self.known[channel_id] = message_id
