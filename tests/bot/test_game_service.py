"""The game service over real SQLite storage (SQLModel + aiosqlite, Alembic migrations)."""

import asyncio

import pytest
from sqlalchemy import inspect
from sqlalchemy.ext.asyncio import create_async_engine

from bot.services.game_service import GameError, GameService
from bot.storage.store import GameStore, StaleGame
from engine.commands import (
    ChooseInitiative,
    Concede,
    Declare,
    DeclineReaction,
    JoinSide,
    Move,
    PassInitiative,
    StartGame,
    UnitOrder,
)
from engine.dice import ScriptedDice, d6
from engine.game import replay
from engine.scenarios.quick_battle import quick_battle
from engine.state import Phase, Point
from tests.engine.random_play import play_random_game


async def started(service, channel="c1"):
    await service.new_game(channel)
    await service.act(channel, "ann", JoinSide(side="allies", player="ann"))
    await service.act(channel, "otto", JoinSide(side="axis", player="otto"))
    service.dice = lambda: ScriptedDice([d6(2), d6(5)])
    await service.act(channel, "otto", StartGame())
    service.dice = lambda: ScriptedDice([])
    await service.act(channel, "otto", ChooseInitiative(side="axis", go_first=True))


ADVANCE = Declare(side="axis", order=UnitOrder(unit="gruppe-3", actions=(Move(path=(Point(x=50, y=39),)),)))


@pytest.mark.both_databases
async def test_migrations_create_the_tables(store):
    engine = create_async_engine(store.database_url)
    async with engine.connect() as connection:
        names = await connection.run_sync(lambda c: inspect(c).get_table_names())
    await engine.dispose()
    assert {"games", "game_commands", "alembic_version"} <= set(names)


@pytest.mark.both_databases
async def test_a_game_survives_a_restart_and_its_log_replays_exactly(store, tmp_path):
    service = GameService(store)
    await started(service)
    outcome = await service.act("c1", "otto", ADVANCE)
    assert outcome.state.phase is Phase.REACTION and outcome.version == 5
    await store.close()

    reopened = await GameStore.open(store.database_url)
    restarted = GameService(reopened)
    assert await restarted.game("c1") == outcome.state
    initial, log = await reopened.history("c1")
    replayed, _ = replay(initial, log)
    assert replayed == outcome.state
    await reopened.close()


async def test_illegal_command_is_refused_with_its_reason_and_stores_nothing(store):
    service = GameService(store)
    await started(service)
    before = await store.load("c1")
    bad = Declare(side="axis", order=UnitOrder(unit="gruppe-3", actions=(Move(path=(Point(x=50, y=20),)),)))
    with pytest.raises(GameError, match='may move 6"'):
        await service.act("c1", "otto", bad)
    assert await store.load("c1") == before


async def test_only_a_sides_players_act_for_it(store):
    service = GameService(store)
    await started(service)
    with pytest.raises(GameError, match="Only the Axis' players may act for the Axis"):
        await service.act("c1", "ann", ADVANCE)
    with pytest.raises(GameError, match="already playing allies"):
        await service.act("c1", "ann", JoinSide(side="axis", player="ann"))
    with pytest.raises(GameError, match="join a side yourself"):
        await service.act("c1", "ann", JoinSide(side="axis", player="mallory"))


async def test_start_needs_a_player_on_each_side(store):
    service = GameService(store)
    await service.new_game("c1")
    await service.act("c1", "ann", JoinSide(side="allies", player="ann"))
    with pytest.raises(GameError, match="Nobody is playing axis yet"):
        await service.act("c1", "ann", StartGame())


async def test_one_game_per_channel_until_it_is_over(store):
    service = GameService(store)
    await started(service)
    with pytest.raises(GameError, match="already running"):
        await service.new_game("c1", user_id="ann")
    assert (await service.new_game("c2")).version == 0
    await service.act("c1", "ann", Concede(side="allies"))
    assert (await service.new_game("c1", quick_battle("crossroads"), user_id="eve")).state.table.width == 48


async def test_a_game_not_yet_started_may_be_set_up_again_by_its_own_players_only(store):
    service = GameService(store)
    await service.new_game("c1")
    await service.new_game("c1", quick_battle("village", "british"), user_id="eve")  # nobody joined
    await service.act("c1", "ann", JoinSide(side="allies", player="ann"))
    replaced = await service.new_game("c1", quick_battle("crossroads", "soviet"), 300, user_id="ann")
    assert replaced.state.sides["allies"].nation == "soviet"
    await service.act("c1", "ann", JoinSide(side="allies", player="ann"))
    with pytest.raises(GameError, match="only they may replace it"):
        await service.new_game("c1", user_id="eve")
    assert (await store.load("c1")).state.table.width == 48


@pytest.mark.both_databases
async def test_two_processes_answering_one_window_never_both_win(store):
    """Two services on one database (two bot processes): both load the open window; the
    version check lets exactly one answer land, and the other is refused on the fresh state."""
    first, second = GameService(store), GameService(GameStore(store.database_url))
    await started(first)
    outcome = await first.act("c1", "otto", ADVANCE)
    answer = DeclineReaction(side="allies", window=outcome.state.pending.window)
    results = await asyncio.gather(
        first.act("c1", "ann", answer), second.act("c1", "ann", answer), return_exceptions=True
    )
    refused = [r for r in results if isinstance(r, GameError)]
    assert len(refused) == 1 and "No reaction window is open" in str(refused[0])
    assert (await store.load("c1")).version == outcome.version + 1
    await second.store.close()


@pytest.mark.both_databases
async def test_a_stale_write_is_rejected_by_the_store(store):
    service = GameService(store)
    await started(service)
    game = await store.load("c1")
    await service.act("c1", "otto", ADVANCE)
    with pytest.raises(StaleGame):
        await store.append(game, "otto", ADVANCE, [], game.state)


async def test_killing_the_service_between_every_two_commands_loses_nothing(tmp_path):
    """A scripted game (commands with their recorded dice) in which the service and its store
    are shut down and reopened between every two commands, open reaction windows included:
    the final state is the uninterrupted one and every window was re-armed on each start."""
    _, history = play_random_game(quick_battle(), seed=3, max_commands=60)
    uninterrupted, _ = replay(quick_battle(), history)
    url = f"sqlite+aiosqlite:///{tmp_path / 'games.db'}"
    store = await GameStore.open(url)
    await GameService(store).new_game("c1", quick_battle())
    await store.close()
    windows_rearmed = 0
    for command, events in history:
        store = await GameStore.open(url)
        rolls = [roll for event in events for roll in event.rolls]
        service = GameService(store, dice=lambda rolls=rolls: ScriptedDice(rolls))
        await service.resume()
        windows_rearmed += len(service.timers.armed)
        await service.act("c1", "hot-seat", command)
        await service.close()
        await store.close()
    store = await GameStore.open(url)
    assert (await store.load("c1")).state == uninterrupted
    assert windows_rearmed > 5
    await store.close()


@pytest.mark.both_databases
async def test_overlapping_commands_on_one_channel_are_each_applied_once_or_refused(store):
    """Eight commands arrive together on one channel, from two services sharing the database
    (two bot processes): the same declaration twice, both answers to its window, a pass and
    a second unit's move. Each lands exactly once in the log or is refused with its reason."""
    first, second = GameService(store), GameService(GameStore(store.database_url))
    await started(first)
    start = (await store.load("c1")).version
    window = start + 1  # the window the declaration will open
    other = Declare(side="axis", order=UnitOrder(unit="gruppe-2", actions=(Move(path=(Point(x=36, y=39),)),)))
    burst = [
        (first, "otto", ADVANCE),
        (second, "otto", ADVANCE),
        (first, "ann", DeclineReaction(side="allies", window=window)),
        (second, "ann", DeclineReaction(side="allies", window=window)),
        (first, "otto", PassInitiative(side="axis")),
        (second, "otto", other),
        (first, "ann", PassInitiative(side="allies")),
        (second, "otto", other),
    ]
    results = await asyncio.gather(*(s.act("c1", u, c) for s, u, c in burst), return_exceptions=True)

    applied = [
        command for (_, _, command), r in zip(burst, results, strict=True) if not isinstance(r, Exception)
    ]
    refusals = [r for r in results if isinstance(r, Exception)]
    assert all(isinstance(r, GameError) and str(r) for r in refusals), refusals
    _, log = await store.history("c1")
    stored = [command for command, _ in log[start:]]
    assert sorted(map(repr, stored)) == sorted(map(repr, applied))
    assert (await store.load("c1")).version == start + len(applied)
    assert len(applied) >= 1 and len(refusals) >= 1
    await second.store.close()


async def test_a_step_after_a_stored_action_that_fails_keeps_neither_the_action_nor_the_next_step(store):
    """The first news of the game's end fails after a concession is stored: the concession
    stands, the next news still goes out, and nothing is passed to the player."""
    service = GameService(store)
    await service.new_game("c1")
    await service.act("c1", "ann", JoinSide(side="allies", player="ann"))
    await service.act("c1", "otto", JoinSide(side="axis", player="otto"))
    heard = []

    async def broken_news(*_):
        raise OSError("disk full")

    async def game_over(channel, state):
        heard.append(("over", channel))

    service.on_game_over += [broken_news, game_over]
    outcome = await service.act("c1", "ann", Concede(side="allies"))
    assert outcome.state.phase is Phase.OVER
    assert (await store.load("c1")).state.phase is Phase.OVER
    assert heard == [("over", "c1")]
    await service.close()
