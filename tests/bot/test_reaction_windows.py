"""Reaction windows in the service: stored deadlines, expiry as "no reaction", re-arming after a restart."""

from datetime import timedelta

import pytest

from bot.services.game_service import GameError, GameService
from bot.storage.store import GameStore
from engine.commands import ChooseInitiative, Declare, DeclineReaction, JoinSide, Move, StartGame, UnitOrder
from engine.dice import ScriptedDice, d6
from engine.runtime import VirtualClock
from engine.state import Phase, Point
from tests.storage.databases import seed_sqlite

ADVANCE = Declare(side="axis", order=UnitOrder(unit="gruppe-3", actions=(Move(path=(Point(x=50, y=39),)),)))


@pytest.fixture
async def store(tmp_path):
    store = await GameStore.open(seed_sqlite(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}"))
    yield store
    await store.close()


async def ready(service, reaction_seconds=120):
    await service.new_game("c1", reaction_seconds=reaction_seconds)
    await service.act("c1", "ann", JoinSide(side="allies", player="ann"))
    await service.act("c1", "otto", JoinSide(side="axis", player="otto"))
    service.dice = lambda: ScriptedDice([d6(2), d6(5)])
    await service.act("c1", "otto", StartGame())
    service.dice = lambda: ScriptedDice([])
    await service.act("c1", "otto", ChooseInitiative(side="axis", go_first=True))


async def test_an_unanswered_window_closes_as_no_reaction_at_its_deadline(store):
    clock = VirtualClock()
    closed = []

    async def announce(channel, outcome):
        closed.append((channel, [e.text for e in outcome.events]))

    service = GameService(store, clock=clock, on_window_closed=announce)
    await ready(service)
    outcome = await service.act("c1", "otto", ADVANCE)
    assert [(w.window, w.deadline) for w in await store.open_windows()] == [
        (outcome.state.pending.window, clock.now() + timedelta(seconds=120))
    ]
    await clock.advance(119)
    assert (await service.game("c1")).phase is Phase.REACTION
    await clock.advance(1)
    state = await service.game("c1")
    assert state.phase is Phase.ACTIVE and state.units["gruppe-3"].position == Point(x=50, y=39)
    assert closed == [("c1", ["The Allies do not react", 'Gruppe 3 moves 3.0" to 50.0,39.0'])]
    assert await store.open_windows() == []
    _, log = await store.history("c1")
    assert isinstance(log[-1][0], DeclineReaction)
    await service.close()


async def test_an_answered_window_does_not_fire(store):
    clock = VirtualClock()
    service = GameService(store, clock=clock)
    await ready(service)
    outcome = await service.act("c1", "otto", ADVANCE)
    await service.act("c1", "ann", DeclineReaction(side="allies", window=outcome.state.pending.window))
    version = (await store.load("c1")).version
    await clock.advance(600)
    assert (await store.load("c1")).version == version
    assert service.timers.armed == frozenset()
    await service.close()


async def test_a_window_that_expired_while_the_bot_was_down_resolves_on_start(store):
    clock = VirtualClock()
    before = GameService(store, clock=clock)
    await ready(before, reaction_seconds=3600)
    await before.act("c1", "otto", ADVANCE)
    await before.close()  # the bot stops

    await clock.advance(7200)  # two hours later it starts again
    after = GameService(GameStore(store.database_url), clock=clock)
    await after.resume()
    await clock.advance(0)
    assert (await after.game("c1")).phase is Phase.ACTIVE
    initial, log = await store.history("c1")
    assert log[-1][0].kind == "decline_reaction"
    await after.close()
    await after.store.close()


async def test_a_restarted_window_keeps_the_time_it_had_left(store):
    clock = VirtualClock()
    before = GameService(store, clock=clock)
    await ready(before, reaction_seconds=3600)
    await before.act("c1", "otto", ADVANCE)
    await before.close()
    await clock.advance(1000)
    after = GameService(store, clock=clock)
    await after.resume()
    await clock.advance(2599)
    assert (await after.game("c1")).phase is Phase.REACTION
    await clock.advance(1)
    assert (await after.game("c1")).phase is Phase.ACTIVE
    await after.close()


async def test_window_length_is_15_seconds_to_48_hours(store):
    service = GameService(store, clock=VirtualClock())
    for seconds in (14, 48 * 3600 + 1):
        with pytest.raises(GameError, match="15 seconds to 48 hours"):
            await service.new_game("c1", reaction_seconds=seconds)
    assert (await service.new_game("c1", reaction_seconds=48 * 3600)).version == 0
