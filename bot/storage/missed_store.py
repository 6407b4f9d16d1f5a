"""The deadlines each side of a channel's game has missed in a row, as stored.

Each write is made on the connection of the transaction of a game's action (the ``..._in``
forms), after that action has taken the game's row over its version: two processes never both
count one miss, nor lose one, and a count goes with the action that made it or with neither. A
new game in the channel drops its counts (see :meth:`GameStore.create`)."""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import Connection, bindparam, delete, insert, select, update

from bot.storage.store import GameStore
from bot.storage.tables import MissedDeadlinesRow

MISSED = MissedDeadlinesRow.__table__  # type: ignore[attr-defined]
ONE_MORE = (
    update(MISSED)
    .where(MISSED.c.channel_id == bindparam("channel"), MISSED.c.side == bindparam("for_side"))
    .values(missed=MISSED.c.missed + 1)
    .returning(MISSED.c.missed)
)
FORGIVEN = delete(MISSED).where(
    MISSED.c.channel_id == bindparam("channel"), MISSED.c.side.in_(bindparam("sides", expanding=True))
)


def missed_in(connection: Connection, channel_id: str, side: str) -> int:
    """Count one more missed deadline of ``side``: how many it has missed in a row now."""
    counted = connection.execute(ONE_MORE, {"channel": channel_id, "for_side": side}).scalar()
    if counted is not None:
        return counted
    connection.execute(insert(MISSED), {"channel_id": channel_id, "side": side, "missed": 1})
    return 1


def count_in(connection: Connection, channel_id: str, side: str) -> int:
    """How many deadlines in a row ``side`` has missed."""
    query = select(MISSED.c.missed).where(MISSED.c.channel_id == channel_id, MISSED.c.side == side)
    return connection.execute(query).scalar() or 0


def forgive_in(connection: Connection, channel_id: str, sides: Iterable[str]) -> None:
    """The sides' players acted (or the bot took the sides over): their count starts afresh."""
    connection.execute(FORGIVEN, {"channel": channel_id, "sides": list(sides)})


async def missed_counts(store: GameStore) -> list[tuple[str, str, int]]:
    """Every side that has missed a deadline: its channel, its name, how many in a row (to take
    it over after a restart, if the process stopped between the miss that reached the game's
    number and the take-over)."""
    async with store.sessions() as session:
        found = await session.execute(select(MISSED.c.channel_id, MISSED.c.side, MISSED.c.missed))
    return [(channel, side, missed) for channel, side, missed in found]
