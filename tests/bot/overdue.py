"""Many reaction windows already past their deadline, as a restart finds them: one game is played
into a window, then its stored rows are copied to ``count`` channels with direct inserts (so
building 10,000 of them takes seconds, not 10,000 games). The game is the quick battle, or a
skirmish of two units, whose small state makes each close cheap enough for a test of 1,000."""

from __future__ import annotations

from sqlalchemy import delete, insert, select

from bot.services.game_service import GameService
from bot.storage.store import GameStore
from bot.storage.tables import CommandRow, GameRow, SnapshotRow, WindowRow
from engine.commands import Declare, Move, UnitOrder
from engine.runtime import VirtualClock
from engine.scenarios.new_game import make_unit
from engine.state import Point
from tests.bot.test_reaction_windows import ADVANCE, ready
from tests.engine.helpers import game, started

REACTION_SECONDS = 120


def channel(n: int) -> str:
    return f"c{n:05d}"


async def skirmish(service: GameService) -> None:
    """In channel "c1": a German detachment advances on an American one, which may react."""
    state = started(
        game(
            make_unit("us", "Infantry Detachment", "allies", (10, 10), unit_id="gis"),
            make_unit("german", "Infantry Detachment", "axis", (80, 60), unit_id="gren"),
        ),
        "axis",
    )
    await service.new_game("c1", state, reaction_seconds=REACTION_SECONDS)
    advance = UnitOrder(unit="gren", actions=(Move(path=(Point(x=80, y=56),)),))
    await service.act("c1", "otto", Declare(side="axis", order=advance))


async def quick_battle_window(service: GameService) -> None:
    """In channel "c1": the quick battle, Gruppe 3 advancing and the allies to react."""
    await ready(service, reaction_seconds=REACTION_SECONDS)
    await service.act("c1", "otto", ADVANCE)


async def store_overdue_windows(
    database_url: str, count: int, clock: VirtualClock, small: bool = False, name=channel
) -> None:
    """Migrate a fresh database and leave ``count`` channels each with a reaction window open
    (in a skirmish if ``small``, else in the quick battle), due ``REACTION_SECONDS`` after the
    clock's time now (the caller then moves the clock on). Channel ``n`` is ``name(n)``."""
    store = await GameStore.open(database_url)
    try:
        service = GameService(store, clock=clock)
        await (skirmish if small else quick_battle_window)(service)
        await service.close()
        async with store.sessions() as session, session.begin():
            game = (await session.execute(select(GameRow).where(GameRow.channel_id == "c1"))).scalar_one()
            window = (await session.execute(select(WindowRow))).scalar_one()
            start = (await session.execute(select(SnapshotRow.state))).scalar_one()  # its start, seq 0
            games = [
                {
                    "channel_id": name(n),
                    "version": game.version,
                    "state": game.state,
                    "reaction_seconds": game.reaction_seconds,
                }
                for n in range(count)
            ]
            windows = [
                {"channel_id": name(n), "window": window.window, "deadline": window.deadline}
                for n in range(count)
            ]
            starts = [{"channel_id": name(n), "seq": 0, "state": start} for n in range(count)]
            for table in (WindowRow, CommandRow, SnapshotRow, GameRow):  # the played game is not kept
                await session.execute(delete(table).where(table.channel_id == "c1"))
            await session.execute(insert(GameRow), games)
            await session.execute(insert(SnapshotRow), starts)  # each game's start, as it was set up
            await session.execute(insert(WindowRow), windows)
    finally:
        await store.close()
