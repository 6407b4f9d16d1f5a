"""Turn pings in virtual time: the players a game waits for are told after the game's delay,
unless they act first; pings survive a restart, one due during the downtime is sent once, and
each player is told the way they chose; the game's players and referees change the delay
mid-game, the wait going on keeping its start. Also whom a game waits for (game_wait)."""

from dataclasses import replace
from datetime import timedelta

import pytest

from bot.services.game_service import GameError, GameService
from bot.services.owed_service import Wait, game_wait
from bot.services.ping_service import Ping, TurnPings
from bot.storage.ping_store import ping_choices, ping_of, write_ping
from engine.commands import ChooseInitiative, Concede, Declare, JoinSide, Move, StartGame, UnitOrder
from engine.deployment.plan import DeploymentPlan, SidePlan, Zone
from engine.dice import ScriptedDice, d6
from engine.runtime import VirtualClock
from engine.scenarios.quick_battle import quick_battle
from engine.state import Phase, Point, Team

MINUTE = 60
ADVANCE = Declare(side="axis", order=UnitOrder(unit="gruppe-3", actions=(Move(path=(Point(x=50, y=39),)),)))
AXIS_TO_ACT = "the Axis to act: declare an order or pass (/act, /pass)"


class Bot:
    """A game service and its pings on the store and clock, as one run of the bot."""

    def __init__(self, store, clock):
        self.games = GameService(store, clock=clock)
        self.sent: list[Ping] = []
        self.pings = TurnPings(self.games, on_ping=self._told)

    async def _told(self, ping):
        self.sent.append(ping)

    async def start(self):
        await self.games.resume()
        await self.pings.resume()
        return self

    async def stop(self):
        await self.pings.close()
        await self.games.close()


async def joined(games, reaction_seconds=120):
    await games.new_game("c1", reaction_seconds=reaction_seconds)
    await games.act("c1", "ann", JoinSide(side="allies", player="ann"))
    await games.act("c1", "otto", JoinSide(side="axis", player="otto"))


async def axis_to_act(games, reaction_seconds=120):
    """Ann plays allies, Otto axis; the Axis win the initiative 5-2 and starts."""
    await joined(games, reaction_seconds)
    games.dice = lambda: ScriptedDice([d6(2), d6(5)])
    await games.act("c1", "otto", StartGame())
    games.dice = lambda: ScriptedDice([])
    await games.act("c1", "otto", ChooseInitiative(side="axis", go_first=True))


async def test_the_player_waited_for_is_pinged_once_after_the_games_delay(store):
    clock = VirtualClock()
    bot = await Bot(store, clock).start()
    await axis_to_act(bot.games)
    await clock.advance(10 * MINUTE - 1)
    assert bot.sent == []
    await clock.advance(1)
    assert bot.sent == [Ping("c1", mention=("otto",), dm=(), what=AXIS_TO_ACT)]
    await clock.advance(timedelta(days=3))
    assert len(bot.sent) == 1  # one ping per wait; the game still waits, unchanged
    assert (await bot.games.game("c1")).phase is Phase.ACTIVE
    await bot.stop()


async def test_acting_first_cancels_the_ping_and_the_next_player_is_pinged_with_the_window(store):
    clock = VirtualClock()
    bot = await Bot(store, clock).start()
    await axis_to_act(bot.games, reaction_seconds=3600)
    await clock.advance(5 * MINUTE)
    outcome = await bot.games.act("c1", "otto", ADVANCE)
    await clock.advance(10 * MINUTE - 1)
    assert bot.sent == []  # Otto acted before his ping; Ann's delay started when he did
    await clock.advance(1)
    react = "the Allies may react (/react) or let it pass (/noreact)"
    assert bot.sent == [Ping("c1", mention=("ann",), dm=(), what=react, closes=outcome.window_deadline)]
    await bot.stop()


async def test_a_ping_is_armed_again_after_a_restart(store):
    clock = VirtualClock()
    first = await Bot(store, clock).start()
    await axis_to_act(first.games)
    await first.stop()
    await clock.advance(4 * MINUTE)
    second = await Bot(store, clock).start()
    await clock.advance(6 * MINUTE - 1)
    assert second.sent == []
    await clock.advance(1)
    assert second.sent == [Ping("c1", mention=("otto",), dm=(), what=AXIS_TO_ACT)]
    await second.stop()


async def test_a_ping_due_while_the_bot_was_down_is_sent_once_at_start(store):
    clock = VirtualClock()
    first = await Bot(store, clock).start()
    await axis_to_act(first.games)
    await first.stop()
    await clock.advance(timedelta(hours=5))
    second = await Bot(store, clock).start()
    await clock.advance(0)
    assert second.sent == [Ping("c1", mention=("otto",), dm=(), what=AXIS_TO_ACT)]
    await second.stop()
    third = await Bot(store, clock).start()
    await clock.advance(timedelta(hours=1))
    assert third.sent == []
    await third.stop()


async def test_each_player_is_told_the_way_they_chose(store):
    clock = VirtualClock()
    bot = await Bot(store, clock).start()
    await bot.games.new_game("c1")
    await bot.pings.set_delay("c1", 30)
    assert await bot.pings.choose("otto", "dm", "c1") == (
        "When a game waits for you, you get a direct message (a mention in its channel if that fails)."
    )
    await bot.games.act("c1", "ann", JoinSide(side="allies", player="ann"))
    await bot.games.act("c1", "otto", JoinSide(side="axis", player="otto"))
    await clock.advance(30 * MINUTE)
    start = "everyone has joined: start the game (/game start)"
    assert bot.sent == [Ping("c1", mention=("ann",), dm=("otto",), what=start)]
    await bot.stop()


async def test_asked_with_no_choice_a_player_reads_their_choice_and_the_games_delay(store):
    bot = await Bot(store, VirtualClock()).start()
    mention = "When a game waits for you, you are mentioned in its channel. (/games ping how: to change it)"
    assert await bot.pings.choose("ann", None, "c1") == mention  # no game in the channel
    await bot.games.new_game("c1")
    await bot.pings.set_delay("c1", 30)
    assert (
        await bot.pings.choose("ann", None, "c1") == f"{mention}\nThis channel's game pings after 30 minutes."
    )
    await bot.pings.choose("ann", "off", "c1")
    await bot.pings.set_delay("c1", 0)
    assert await bot.pings.choose("ann", None, "c1") == (
        "You are no longer told when a game waits for you. (/games ping how: to change it)\n"
        "This channel's game pings never: turn pings are off."
    )
    assert await ping_choices(store, ["ann"]) == {"ann": "off"}
    await bot.stop()


async def test_a_player_who_turned_pings_off_is_not_told(store):
    clock = VirtualClock()
    bot = await Bot(store, clock).start()
    await bot.pings.choose("otto", "off", "c1")
    await axis_to_act(bot.games)
    await clock.advance(timedelta(hours=1))
    assert bot.sent == []
    await bot.stop()


async def test_a_game_with_no_delay_pings_nobody(store):
    clock = VirtualClock()
    bot = await Bot(store, clock).start()
    await joined(bot.games)
    await bot.pings.set_delay("c1", 0)
    bot.games.dice = lambda: ScriptedDice([d6(2), d6(5)])
    await bot.games.act("c1", "otto", StartGame())
    await clock.advance(timedelta(days=1))
    assert bot.sent == [] and (await ping_of(store, "c1")).due is None
    await bot.stop()


async def test_an_unknown_way_to_be_told_is_refused_and_nothing_is_stored(store):
    bot = await Bot(store, VirtualClock()).start()
    with pytest.raises(GameError, match="Choose how you are told: mention, dm, off"):
        await bot.pings.choose("ann", "carrier pigeon", "c1")
    assert await ping_choices(store, ["ann"]) == {}
    await bot.stop()


def test_in_a_team_game_only_players_holding_tokens_are_waited_for():
    state = quick_battle()
    state.sides["allies"].players = ["ann", "bob", "cy"]
    state.sides["allies"].team = Team(co="ann", tokens={"ann": 0, "bob": 2, "cy": 0})
    state.phase, state.active_side = Phase.ACTIVE, "allies"
    assert game_wait(state) == Wait(("bob",), "the Allies to act: declare an order or pass (/act, /pass)")
    state.sides["allies"].team.bonus = 4  # the CO still has bonus tokens to hand out
    assert game_wait(state).players == ("ann", "bob")
    state.sides["allies"].team = Team(co="ann", tokens={"ann": 0, "bob": 0, "cy": 0})
    assert game_wait(state).players == ("ann", "bob", "cy")  # nobody holds any: the whole side


def test_in_set_up_the_side_placing_next_is_waited_for_both_when_plotted():
    state = quick_battle()
    state.sides["allies"].players, state.sides["axis"].players = ["ann"], ["otto"]
    plan = SidePlan(zone=Zone(edge="near"), waiting=[], on_table_limit=4)
    state.deployment = DeploymentPlan(
        sides={"allies": plan, "axis": plan.model_copy(update={"zone": Zone(edge="far")})},
        order="alternating",
        first="axis",
    )
    assert game_wait(state) == Wait(("otto",), "the Axis to set up (/deploy)")
    state.deployment.last = "axis"
    assert game_wait(state) == Wait(("ann",), "the Allies to set up (/deploy)")
    state.deployment.order = "plotted"
    assert game_wait(state) == Wait(("ann", "otto"), "the Allies and the Axis to set up (/deploy)")


def test_a_hot_seat_game_nobody_joined_waits_for_nobody():
    state = quick_battle()
    state.phase, state.active_side = Phase.ACTIVE, "axis"
    assert game_wait(state) is None


async def test_a_paused_clock_holds_the_ping_and_the_resume_gives_back_its_time_left(store):
    clock = VirtualClock()
    bot = await Bot(store, clock).start()
    await bot.games.new_game("c1", quick_battle().model_copy(update={"referees": ["rita"]}))
    await bot.games.act("c1", "ann", JoinSide(side="allies", player="ann"))
    await bot.games.act("c1", "otto", JoinSide(side="axis", player="otto"))
    bot.games.dice = lambda: ScriptedDice([d6(2), d6(5)])
    await bot.games.act("c1", "otto", StartGame())
    bot.games.dice = lambda: ScriptedDice([])
    await bot.games.act("c1", "otto", ChooseInitiative(side="axis", go_first=True))
    await clock.advance(4 * MINUTE)
    await bot.games.clocks.pause("c1", "rita")
    await clock.advance(timedelta(hours=2))
    assert bot.sent == []  # nothing rings while the referee holds the clock
    await bot.games.clocks.resume("c1", "rita")
    await clock.advance(6 * MINUTE - 1)
    assert bot.sent == []
    await clock.advance(1)
    assert bot.sent == [Ping("c1", mention=("otto",), dm=(), what=AXIS_TO_ACT)]
    await bot.stop()


async def test_a_new_delay_counts_from_when_the_wait_began(store):
    clock = VirtualClock()
    bot = await Bot(store, clock).start()
    await axis_to_act(bot.games)  # Otto's wait begins: the default ping would come in 10 minutes
    await clock.advance(4 * MINUTE)
    assert await bot.pings.change_delay("c1", "otto", 30) == (
        "Turn pings for this game now come after 30 minutes."
    )
    await clock.advance(26 * MINUTE - 1)
    assert bot.sent == []  # not at the old 10 minutes, nor 30 minutes after the change
    await clock.advance(1)
    assert bot.sent == [Ping("c1", mention=("otto",), dm=(), what=AXIS_TO_ACT)]
    await bot.stop()


async def test_a_new_delay_already_over_pings_at_once_and_once(store):
    clock = VirtualClock()
    bot = await Bot(store, clock).start()
    await axis_to_act(bot.games)
    await clock.advance(4 * MINUTE)
    assert await bot.pings.change_delay("c1", "ann", 1) == "Turn pings for this game now come after 1 minute."
    await clock.advance(0)
    assert bot.sent == [Ping("c1", mention=("otto",), dm=(), what=AXIS_TO_ACT)]
    await bot.pings.change_delay("c1", "ann", 2)  # the wait was told: it is not told again
    await clock.advance(timedelta(days=2))
    await bot.pings.change_delay("c1", "ann", 0)  # nor after pings go off and on again
    await bot.pings.change_delay("c1", "ann", 5)
    await clock.advance(timedelta(days=2))
    assert len(bot.sent) == 1
    await bot.stop()


async def test_no_delay_cancels_the_ping_and_turning_pings_on_again_counts_from_then(store):
    clock = VirtualClock()
    bot = await Bot(store, clock).start()
    await axis_to_act(bot.games)
    await clock.advance(4 * MINUTE)
    assert await bot.pings.change_delay("c1", "otto", 0) == (
        "Turn pings for this game are now off: nobody is told when it waits for them."
    )
    await clock.advance(timedelta(days=1))
    assert bot.sent == [] and (await ping_of(store, "c1")).due is None
    await bot.pings.change_delay("c1", "otto", 15)
    await clock.advance(15 * MINUTE - 1)
    assert bot.sent == []
    await clock.advance(1)
    assert bot.sent == [Ping("c1", mention=("otto",), dm=(), what=AXIS_TO_ACT)]
    await bot.stop()


async def test_a_changed_delay_survives_a_restart_and_times_the_next_waits(store):
    clock = VirtualClock()
    first = await Bot(store, clock).start()
    await axis_to_act(first.games, reaction_seconds=3600)
    await clock.advance(4 * MINUTE)
    await first.pings.change_delay("c1", "otto", 30)
    await first.stop()
    await clock.advance(MINUTE)
    second = await Bot(store, clock).start()
    await clock.advance(25 * MINUTE - 1)
    assert second.sent == []
    await clock.advance(1)
    assert second.sent == [Ping("c1", mention=("otto",), dm=(), what=AXIS_TO_ACT)]
    outcome = await second.games.act("c1", "otto", ADVANCE)  # Ann's wait: 30 minutes too
    await clock.advance(30 * MINUTE - 1)
    assert len(second.sent) == 1
    await clock.advance(1)
    react = "the Allies may react (/react) or let it pass (/noreact)"
    told_ann = Ping("c1", mention=("ann",), dm=(), what=react, closes=outcome.window_deadline)
    assert second.sent[1:] == [told_ann]
    await second.stop()


async def test_a_spectator_may_not_change_the_delay_nor_anyone_once_the_game_is_over(store):
    clock = VirtualClock()
    bot = await Bot(store, clock).start()
    await axis_to_act(bot.games)
    before = await ping_of(store, "c1")
    with pytest.raises(GameError, match="^Only the game's players and referees may change when its turn"):
        await bot.pings.change_delay("c1", "eve", 0)
    assert await ping_of(store, "c1") == before
    await clock.advance(10 * MINUTE)
    assert len(bot.sent) == 1  # the ping came as before
    await bot.games.act("c1", "otto", Concede(side="axis"))
    with pytest.raises(GameError, match="^The game in this channel is over: it waits for nobody$"):
        await bot.pings.change_delay("c1", "ann", 5)
    assert (await ping_of(store, "c1")).minutes == 10
    await bot.stop()


async def test_a_referee_may_change_the_delay_and_anyone_at_a_table_nobody_joined(store):
    """Anyone at a hot-seat table (no player, no referee); a refereed game nobody has joined
    is its referees' (issue 19's matrix, phase "new")."""
    clock = VirtualClock()
    bot = await Bot(store, clock).start()
    await bot.games.new_game("c1", quick_battle())
    await bot.pings.change_delay("c1", "anyone", 20)  # the hot-seat table
    await bot.games.new_game("c1", quick_battle().model_copy(update={"referees": ["rita"]}))
    with pytest.raises(GameError, match="Only the game's players and referees"):
        await bot.pings.change_delay("c1", "anyone", 30)
    await bot.games.act("c1", "ann", JoinSide(side="allies", player="ann"))
    await bot.pings.change_delay("c1", "rita", 45)
    assert (await ping_of(store, "c1")).minutes == 45
    await bot.stop()


async def test_a_wait_beginning_while_the_clock_is_paused_gets_its_whole_delay_after_the_resume(store):
    clock = VirtualClock()
    bot = await Bot(store, clock).start()
    await bot.games.new_game("c1", quick_battle().model_copy(update={"referees": ["rita"]}))
    await bot.games.act("c1", "ann", JoinSide(side="allies", player="ann"))
    await bot.games.act("c1", "otto", JoinSide(side="axis", player="otto"))
    bot.games.dice = lambda: ScriptedDice([d6(2), d6(5)])
    await bot.games.act("c1", "otto", StartGame())
    bot.games.dice = lambda: ScriptedDice([])
    await bot.games.clocks.pause("c1", "rita")
    await clock.advance(5 * MINUTE)
    await bot.games.act("c1", "otto", ChooseInitiative(side="axis", go_first=True))  # a new wait, paused
    await clock.advance(timedelta(hours=1))
    await bot.games.clocks.resume("c1", "rita")
    await clock.advance(10 * MINUTE - 1)
    assert bot.sent == []
    await clock.advance(1)
    assert bot.sent == [Ping("c1", mention=("otto",), dm=(), what=AXIS_TO_ACT)]
    await bot.stop()


@pytest.mark.both_databases
async def test_a_ping_stored_by_another_writer_after_the_load_is_not_lost(store):
    """An action decides its ping on the one loaded with its game; another writer stored the
    channel's ping since (a new delay of 30 minutes, played here inside the action's
    transaction, after its load): the action's ping is written over the version it was loaded
    at, so it writes nothing, and is decided again on the ping as stored, which keeps the new
    delay. Ann's wait starts then, and she is told after 30 minutes, not 10."""
    clock = VirtualClock()
    bot = await Bot(store, clock).start()
    await axis_to_act(bot.games, reaction_seconds=3600)  # the Allies' window outlasts the delays
    meanwhile = []

    def another_writer(connection, game, _user, _after):
        if not meanwhile:
            meanwhile.append(replace(game.ping, minutes=30))
            assert write_ping(connection, meanwhile[0])
        return None

    bot.games.in_commit.insert(0, another_writer)  # before the pings' own
    before = await ping_of(store, "c1")
    await bot.games.act("c1", "otto", ADVANCE)
    stored = await ping_of(store, "c1")
    assert (stored.minutes, stored.players, stored.version) == (30, ("ann",), before.version + 2)
    assert stored.due == clock.now() + timedelta(minutes=30)
    await clock.advance(10 * MINUTE)
    assert bot.sent == []
    await clock.advance(20 * MINUTE)
    assert [ping.mention for ping in bot.sent] == [("ann",)]
    await bot.stop()
