"""A channel's turn ping as stored (``turn_pings``): read by :mod:`bot.storage.ping_store`, and
with each game the store loads (:attr:`bot.storage.store.StoredGame.ping`), so that an action
decides its ping without reading it again."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

DEFAULT_MINUTES = 10  # a game's delay before a ping, unless it set its own


@dataclass(frozen=True)
class TurnPing:
    channel_id: str
    minutes: int = DEFAULT_MINUTES  # 0: the game pings nobody
    players: tuple[str, ...] = ()  # whom the game waits for
    due: datetime | None = None  # when they are told; None: told already, or nobody to tell
    version: int = 0  # as stored; 0 also when nothing is stored yet


def stored_ping(channel_id: str, minutes: int, players: str, due: str | None, version: int) -> TurnPing:
    """The ping of a row's columns (its players comma-separated, its moment in ISO 8601)."""
    waited_for = tuple(p for p in players.split(",") if p)
    return TurnPing(channel_id, minutes, waited_for, datetime.fromisoformat(due) if due else None, version)
