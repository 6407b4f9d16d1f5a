"""The console makes the posts of deadlines as the Discord client does (issue 33): a reaction
window that closed while the console was down, by a process that died before telling anyone, is
told at the console's next start, once."""

import io
from datetime import UTC, datetime, timedelta

from sqlalchemy import select, update

from bot.console import play_console
from bot.services.game_service import GameService
from bot.storage.deadline_claims import Claims, stamp
from bot.storage.store import GameStore
from bot.storage.tables import WINDOW_CLOSED, DeadlinePostRow, WindowRow
from engine.dice import SeededDice
from engine.runtime import VirtualClock


async def run(lines: str, url: str) -> str:
    out = io.StringIO()
    assert await play_console(io.StringIO(lines), out, url, dice=lambda: SeededDice(1)) == 0
    return out.getvalue()


async def posts_left(store: GameStore) -> list[str]:
    async with store.sessions() as session:
        return [row.kind for row in (await session.execute(select(DeadlinePostRow))).scalars()]


async def closed_by_a_process_that_died_before_telling(url: str) -> None:
    """While the console is down the window's time runs out, and another process on its database
    closes it and dies between storing the close and posting it, long enough ago that its claim
    on the post has run out."""
    store = await GameStore.open(url)
    try:
        async with store.sessions() as session, session.begin():
            await session.execute(
                update(WindowRow).values(deadline=stamp(datetime.now(UTC) - timedelta(minutes=5)))
            )
        clock = VirtualClock(datetime.now(UTC))
        gone = GameService(store, clock=clock, claims=Claims(store, "gone", lease=timedelta(0)))

        async def dies(post, send=None) -> None:
            """Killed before the post."""

        gone.posts.deliver = dies  # type: ignore[method-assign]
        await gone.resume()
        await clock.advance(0)
        await gone.close()
        assert await posts_left(store) == [WINDOW_CLOSED]
    finally:
        await store.close()


async def test_a_window_closed_while_the_console_was_down_is_told_at_its_next_start(tmp_path):
    url = f"sqlite+aiosqlite:///{tmp_path / 'console.db'}"
    first = await run("/start\n/initiative start\n/act gruppe-3 move:50,39\n", url)
    assert "The Allies may react (window 1)" in first
    await closed_by_a_process_that_died_before_telling(url)

    second = await run("/status\n", url)
    told = second.index("[the reaction window closed]")
    assert told < second.index("Resuming the game in progress.")  # before the first command
    assert 'The Allies do not react\nGruppe 3 moves 3.0" to 50.0,39.0' in second[told:]
    store = await GameStore.open(url)
    try:
        assert await posts_left(store) == []
    finally:
        await store.close()
    third = await run("/status\n", url)
    assert "[the reaction window closed]" not in third  # told once
