"""The referee's clock in virtual time (2015 rulebook p. 25): pause and resume, extend and close
a reaction window, a deadline for an absent side, and all of it across restarts."""

from datetime import timedelta

import pytest

from bot.services.game_service import GameError, GameService
from bot.storage.clock_store import player_deadlines
from bot.storage.store import GameStore
from engine.commands import (
    ChooseInitiative,
    Concede,
    Declare,
    DeclineReaction,
    JoinSide,
    Move,
    RefereeRuling,
    StartGame,
    UnitOrder,
)
from engine.dice import ScriptedDice, d6
from engine.runtime import VirtualClock
from engine.scenarios.quick_battle import quick_battle
from engine.state import Phase, Point

ADVANCE = Declare(side="axis", order=UnitOrder(unit="gruppe-3", actions=(Move(path=(Point(x=50, y=39),)),)))
HOUR = 3600


async def refereed(service, reaction_seconds=120, channel="c1"):
    """Ann (allies) against Otto (axis), refereed by Ref; the Axis have the initiative."""
    state = quick_battle()
    state.referees = ["ref"]
    await service.new_game(channel, state, reaction_seconds=reaction_seconds)
    await service.act(channel, "ann", JoinSide(side="allies", player="ann"))
    await service.act(channel, "otto", JoinSide(side="axis", player="otto"))
    service.dice = lambda: ScriptedDice([d6(2), d6(5)])
    await service.act(channel, "otto", StartGame())
    service.dice = lambda: ScriptedDice([])
    await service.act(channel, "otto", ChooseInitiative(side="axis", go_first=True))


def listening(service):
    heard = []

    async def hear(channel, text, outcome):
        heard.append((channel, text, [e.text for e in outcome.events] if outcome else None))

    service.clocks.on_deadline_passed = hear
    return heard


async def phase(service):
    return (await service.game("c1")).phase


async def test_a_paused_window_keeps_its_time_left_and_gets_it_back_from_the_resume(store):
    clock = VirtualClock()
    service = GameService(store, clock=clock)
    await refereed(service)
    await service.act("c1", "otto", ADVANCE)
    await clock.advance(50)
    paused = await service.clocks.pause("c1", "ref")
    assert [e.text for e in paused.events] == [
        "Referee: the clock stops; no reaction window or deadline runs out until it runs again"
    ]
    await clock.advance(10 * HOUR)
    assert await phase(service) is Phase.REACTION
    resumed = await service.clocks.resume("c1", "ref")
    assert resumed.window_deadline == clock.now() + timedelta(seconds=70)
    await clock.advance(69)
    assert await phase(service) is Phase.REACTION
    await clock.advance(1)
    assert await phase(service) is Phase.ACTIVE
    await service.close()


async def test_a_window_opened_while_paused_waits_for_the_clock(store):
    clock = VirtualClock()
    service = GameService(store, clock=clock)
    await refereed(service)
    await service.clocks.pause("c1", "ref")
    opened = await service.act("c1", "otto", ADVANCE)
    assert opened.window_deadline is None and service.timers.armed == frozenset()
    await clock.advance(HOUR)
    await service.clocks.resume("c1", "ref")
    await clock.advance(119)
    assert await phase(service) is Phase.REACTION
    await clock.advance(1)
    assert await phase(service) is Phase.ACTIVE
    await service.close()


async def test_a_referee_ruling_does_not_restart_the_window(store):
    clock = VirtualClock()
    service = GameService(store, clock=clock)
    await refereed(service)
    await service.act("c1", "otto", ADVANCE)
    await clock.advance(100)
    await service.act("c1", "ref", RefereeRuling(referee="ref", ruling="The hedge is low"))
    await clock.advance(19)
    assert await phase(service) is Phase.REACTION
    await clock.advance(1)
    assert await phase(service) is Phase.ACTIVE
    await service.close()


async def test_the_referee_extends_the_window_by_minutes(store):
    clock = VirtualClock()
    service = GameService(store, clock=clock)
    await refereed(service)
    await service.act("c1", "otto", ADVANCE)
    extended = await service.clocks.extend("c1", "ref", 10)
    assert extended.window_deadline == clock.now() + timedelta(seconds=720)
    assert [e.text for e in extended.events] == ["Referee: the reaction window stays open 10 minutes longer"]
    await clock.advance(719)
    assert await phase(service) is Phase.REACTION
    await clock.advance(1)
    assert await phase(service) is Phase.ACTIVE
    await service.close()


async def test_closing_the_window_is_a_no_reaction_and_takes_its_buttons_away(store):
    clock = VirtualClock()
    service = GameService(store, clock=clock)
    await refereed(service)
    opened = await service.act("c1", "otto", ADVANCE)
    await service.remember_window_message("c1", opened.state.pending.window, "555")
    await service.clocks.extend("c1", "ref", 1)  # a logged request keeps the window's message
    closed = await service.clocks.close_window("c1", "ref")
    assert closed.state.phase is Phase.ACTIVE and closed.closed_window_message == "555"
    assert [e.text for e in closed.events][0] == "The Allies do not react"
    _, log = await store.history("c1")
    assert isinstance(log[-1][0], DeclineReaction)
    assert service.timers.armed == frozenset()
    await service.close()


async def test_refusals_say_why_and_change_nothing(store):
    service = GameService(store, clock=VirtualClock())
    await refereed(service)
    before = await store.load("c1")
    refusals = [
        (service.clocks.pause("c1", "ann"), "Only the game's referees"),
        (service.clocks.close_window("c1", "otto"), "Only the game's referees"),
        (service.clocks.set_deadline("c1", "ann", "axis", 2), "Only the game's referees"),
        (service.clocks.resume("c1", "ref"), "not paused: there is nothing to resume"),
        (service.clocks.extend("c1", "ref", 5), "No reaction window is open"),
        (service.clocks.close_window("c1", "ref"), "No reaction window is open"),
        (service.clocks.set_deadline("c1", "ref", "allies", 2), "not waiting for the Allies"),
    ]
    for refused, why in refusals:
        with pytest.raises(GameError, match=why):
            await refused
    await service.clocks.pause("c1", "ref")
    paused = await store.load("c1")
    with pytest.raises(GameError, match="already paused"):
        await service.clocks.pause("c1", "ref")
    after = await store.load("c1")
    assert before.version + 1 == paused.version == after.version
    assert after.state.model_dump_json() == paused.state.model_dump_json() == before.state.model_dump_json()
    await service.close()


async def test_an_absent_side_passes_at_the_deadline_and_the_game_says_so(store):
    clock = VirtualClock()
    service = GameService(store, clock=clock)
    heard = listening(service)
    await refereed(service)
    opened = await service.act("c1", "otto", ADVANCE)
    await service.act("c1", "ann", DeclineReaction(side="allies", window=opened.state.pending.window))
    _, due = await service.clocks.set_deadline("c1", "ref", "axis", 2)
    assert due == clock.now() + timedelta(hours=2)
    await clock.advance(2 * HOUR - 1)
    assert heard == []
    await clock.advance(1)
    state = await service.game("c1")
    assert state.active_side == "allies"
    assert heard == [
        (
            "c1",
            "The Axis did not act by the referee's deadline: the game passes the initiative for them",
            ["The Allies take the initiative"],
        ),
    ]
    assert await player_deadlines(store) == []
    await service.close()


async def test_a_deadline_that_cannot_pass_says_why(store):
    clock = VirtualClock()
    service = GameService(store, clock=clock)
    heard = listening(service)
    await refereed(service)
    await service.clocks.set_deadline("c1", "ref", "axis", 1)
    await clock.advance(HOUR)
    assert heard == [
        (
            "c1",
            "The Axis did not act by the referee's deadline, but the game cannot pass the initiative: "
            "You must spend at least one command token before passing the initiative back. "
            "A referee may give the initiative to the other side: /ref initiative",
            None,
        )
    ]
    assert (await service.game("c1")).active_side == "axis"
    await service.close()


async def test_a_deadline_is_off_once_the_side_acts(store):
    clock = VirtualClock()
    service = GameService(store, clock=clock)
    heard = listening(service)
    await refereed(service, reaction_seconds=48 * HOUR)
    opened = await service.act("c1", "otto", ADVANCE)
    await service.clocks.set_deadline("c1", "ref", "allies", 1)
    version = (await store.load("c1")).version
    await service.act("c1", "ann", DeclineReaction(side="allies", window=opened.state.pending.window))
    assert await player_deadlines(store) == [] and service.clocks.deadlines.armed == frozenset()
    await clock.advance(2 * HOUR)
    assert heard == [] and (await store.load("c1")).version == version + 1
    await service.close()


async def test_a_restart_while_paused_with_a_deadline_pending(store):
    clock = VirtualClock()
    before = GameService(store, clock=clock)
    await refereed(before, reaction_seconds=2 * HOUR)
    await before.act("c1", "otto", ADVANCE)
    await before.clocks.set_deadline("c1", "ref", "allies", 1)
    await clock.advance(600)
    await before.clocks.pause("c1", "ref")
    await before.close()  # the bot stops, paused

    await clock.advance(5 * HOUR)
    after = GameService(GameStore(store.database_url), clock=clock)
    heard = listening(after)
    await after.resume()
    assert after.timers.armed == frozenset() and after.clocks.deadlines.armed == frozenset()
    await clock.advance(10 * HOUR)
    assert await phase(after) is Phase.REACTION and heard == []
    resumed = await after.clocks.resume("c1", "ref")
    assert resumed.window_deadline == clock.now() + timedelta(seconds=2 * HOUR - 600)
    (deadline,) = await player_deadlines(store)
    assert deadline.deadline == clock.now() + timedelta(seconds=HOUR - 600)
    await clock.advance(HOUR - 601)
    assert await phase(after) is Phase.REACTION
    await clock.advance(1)
    assert heard == [
        (
            "c1",
            "The Allies did not act by the referee's deadline: the game declines the reaction for them",
            ["The Allies do not react", 'Gruppe 3 moves 3.0" to 50.0,39.0'],
        )
    ]
    assert await phase(after) is Phase.ACTIVE
    await after.close()
    await after.store.close()


async def test_a_running_deadline_survives_a_restart(store):
    clock = VirtualClock()
    before = GameService(store, clock=clock)
    await refereed(before, reaction_seconds=48 * HOUR)
    await before.act("c1", "otto", ADVANCE)
    await before.clocks.set_deadline("c1", "ref", "allies", 1)
    await before.close()
    await clock.advance(HOUR / 2)
    after = GameService(GameStore(store.database_url), clock=clock)
    heard = listening(after)
    await after.resume()
    await clock.advance(HOUR / 2 - 1)
    assert heard == []
    await clock.advance(1)
    assert (
        heard[0][1]
        == "The Allies did not act by the referee's deadline: the game declines the reaction for them"
    )
    await after.close()
    await after.store.close()


async def test_a_new_game_starts_with_a_running_clock_and_no_deadlines(store):
    clock = VirtualClock()
    service = GameService(store, clock=clock)
    await refereed(service)
    await service.act("c1", "otto", ADVANCE)
    await service.clocks.set_deadline("c1", "ref", "allies", 1)
    await service.clocks.pause("c1", "ref")
    await service.act("c1", "otto", Concede(side="axis"))
    assert await player_deadlines(store) == []
    await service.new_game("c1", quick_battle())
    assert not await service.clocks.is_paused("c1")
    await service.close()


async def test_an_undo_past_an_extended_window_rebuilds_the_game_without_it(store):
    clock = VirtualClock()
    service = GameService(store, clock=clock)
    await refereed(service)
    before = await service.game("c1")
    await service.act("c1", "otto", ADVANCE)
    await service.clocks.extend("c1", "ref", 5)
    undone = await service.undo("c1", "ref", 1, "moved the wrong squad")
    assert undone.state.phase is Phase.ACTIVE and undone.state.units == before.units
    assert service.timers.armed == frozenset() and await store.open_windows() == []
    await service.close()
