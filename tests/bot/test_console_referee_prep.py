"""The referee at the console (2015 rulebook p. 25): side-only special rules, objectives,
briefings, force guidelines and deployment zones that the other side never reads, and the clock
in virtual time."""

import pytest

from bot.app import Services
from bot.console import ConsoleTable
from bot.console_help import command_list
from bot.services.game_service import GameService
from bot.storage.store import GameStore
from engine.dice import SeededDice
from engine.runtime import VirtualClock
from engine.state import Phase
from tests.storage.databases import seed_sqlite

HOUR = 3600


async def ok(table: ConsoleTable, text: str) -> str:
    reply = await table.handle(text)
    assert not reply.startswith(("Not allowed", "Something went wrong")), (text, reply)
    return reply


async def refused(table: ConsoleTable, text: str, why: str) -> None:
    before = await table.service.store.load(ConsoleTable.CHANNEL)
    reply = await table.handle(text)
    assert reply.startswith("Not allowed") and why in reply, (text, reply)
    after = await table.service.store.load(ConsoleTable.CHANNEL)
    assert (after.version, after.state) == (before.version, before.state)


@pytest.fixture
async def refereed(tmp_path):
    """Ann (allies) against Otto (axis), refereed by Ref, on a virtual clock; the Axis start."""
    store = await GameStore.open(seed_sqlite(f"sqlite+aiosqlite:///{tmp_path / 'console.db'}", shipped=True))
    clock = VirtualClock()
    service = GameService(store, dice=lambda: SeededDice(1), clock=clock)
    table, _ = await ConsoleTable.open(Services.around(service))
    await ok(table, "/game new referee:ref reaction_seconds:600")
    await ok(table, "as ann /game join side:allies")
    await ok(table, "as otto /game join side:axis")
    await ok(table, "as otto /start")
    await ok(table, "as otto /initiative start")
    yield table, clock
    await service.close()
    await store.close()


async def test_side_only_rules_objectives_and_briefings_reach_only_their_side(refereed):
    table, _ = refereed
    assert "Referee: a special rule for the Axis only: Night: sight 12 inches" in await ok(
        table, 'as ref /ref special to:axis "Night: sight 12 inches"'
    )
    await ok(table, "as ref /ref special to:both Rain all day")
    await ok(table, "as ref /ref special to:referee The bridge is mined")
    await ok(table, "as ref /ref objective side:allies id:ford at:12,10")
    await ok(table, "as ref /ref brief side:allies Tanks on the road at dawn")
    otto_sees, ann_sees = await ok(table, "as otto /ref list"), await ok(table, "as ann /ref list")
    assert "Night" in otto_sees and "ford" not in otto_sees and "mined" not in otto_sees
    assert "Night" not in ann_sees and "ford at 12.0,10.0" in ann_sees and "Rain all day" in ann_sees
    referee_sees = await ok(table, "as ref /ref list")
    assert "(for the referee only) The bridge is mined" in referee_sees
    assert "(for the Allies only) ford at 12.0,10.0" in referee_sees
    otto_log, ann_log = await ok(table, "as otto /log"), await ok(table, "as ann /log")
    assert "Tanks" not in otto_log and "ford" not in otto_log and "mined" not in otto_log
    assert "Intelligence for the Allies: Tanks on the road at dawn" in ann_log and "Night" not in ann_log


async def test_prep_refusals_say_why_and_change_nothing(refereed):
    table, _ = refereed
    await refused(table, "as ann /ref brief side:axis hello", "Only the game's referees may do that")
    await refused(table, "as ref /ref objective id:ford", "/ref prep objective needs at: (see /help")
    await refused(
        table, "as ref /ref special to:everyone Rain", "to: choose allies or axis or both or referee"
    )
    await refused(table, "as ref /ref brief side:axis", "/ref prep brief needs text: (see /help")
    await refused(
        table, "as ref /ref frobnicate", "/ref pause, /ref resume, /ref extend, /ref close, /ref deadline"
    )


async def test_the_referee_runs_the_clock_at_the_console(refereed):
    table, clock = refereed
    await ok(table, "as otto /act gruppe-3 move:50,39")
    await refused(table, "as ann /ref pause", "Only the game's referees may do that")
    assert "Referee: the clock stops" in await ok(table, "as ref /ref pause")
    await refused(table, "as ref /ref pause", "already paused")
    await clock.advance(HOUR)
    assert (await table.service.game(ConsoleTable.CHANNEL)).phase is Phase.REACTION
    assert "Referee: the clock runs again" in await ok(table, "as ref /ref resume")
    await refused(table, "as ref /ref resume", "not paused")
    await refused(table, "as ref /ref extend", "/ref clock extend needs minutes: (see /help")
    assert "stays open 5 minutes longer" in await ok(table, "as ref /ref extend minutes:5")
    assert "The Allies do not react" in await ok(table, "as ref /ref close")
    await refused(table, "as ref /ref close", "No reaction window is open")
    await refused(table, "as ref /ref deadline side:allies hours:2", "not waiting for the Allies")
    assert "the Axis have 2 hours to act, or the game passes the initiative for them" in await ok(
        table, "as ref /ref deadline side:axis hours:2"
    )
    await clock.advance(2 * HOUR)
    assert (await table.service.game(ConsoleTable.CHANNEL)).active_side == "allies"


async def test_the_help_names_the_referees_clock_and_preparation():
    listed = command_list()
    assert "/ref clock pause\n" in listed and "/ref clock deadline side:allies|axis hours:N\n" in listed
    assert "/ref prep special to:allies|axis|both|referee text:TEXT\n" in listed
    assert "/ref prep force side:allies|axis points:N [guideline:TEXT]\n" in listed
    assert "[area:TEXT]" in listed


async def test_the_referee_limits_a_sides_force_and_draws_its_zone_at_the_console(tmp_path):
    store = await GameStore.open(seed_sqlite(f"sqlite+aiosqlite:///{tmp_path / 'prep.db'}", shipped=True))
    service = GameService(store, dice=lambda: SeededDice(1))
    table, _ = await ConsoleTable.open(Services.around(service))
    for player, nation in (("ann", "us"), ("otto", "german")):
        await ok(table, f"as {player} /force new nation:{nation} name:F points:1000")
        for _ in range(2):
            await ok(table, f'as {player} /force add force:F unit:"Infantry Detachment"')
        await ok(table, f'as {player} /force upgrade force:F unit:"Infantry Detachment 1" command')
    await ok(table, "/game new scenario:meeting table:village referee:ref")
    told = await ok(table, 'as ref /ref force side:allies points:40 "one platoon, no tanks"')
    assert "Referee: the Allies bring a force of at most 40 points: one platoon, no tanks" in told
    await refused(
        table,
        "as ref /ref force side:allies points:lots",
        "points is a whole number from 1 to 100,000, not 'lots'",
    )
    await refused(
        table,
        "as ann /game join side:allies force:F",
        "The referee allows the Allies at most 40 points; this force comes to 50",
    )
    await ok(table, "as ref /ref force side:allies points:50")
    assert "joins the Allies" in await ok(table, "as ann /game join side:allies force:F")
    await refused(
        table, "as ref /ref force side:allies points:60", "The Allies have already brought their force"
    )
    assert "Both forces are here" in await ok(table, "as otto /game join side:axis force:F")
    await refused(table, "as ref /ref zone side:allies area:0,20,30", "Give the zone as area:X1,Y1,X2,Y2")
    await refused(table, "as ref /ref zone side:allies area:0,40,30,50", 'runs off the 72" by 48" table')
    assert "Referee: the Allies set up within 0.0,20.0 to 30.0,30.0" in await ok(
        table, "as ref /ref zone side:allies area:0,20,30,30"
    )
    await refused(
        table,
        "as ann /deploy unit:allies-infantry-detachment-1 at:10,5",
        "must set up in the referee's zone for the Allies, 0.0,20.0 to 30.0,30.0",
    )
    await ok(table, "as ann /deploy unit:allies-infantry-detachment-1 at:10,25")
    await refused(table, "as ref /ref zone side:axis area:0,0,72,12", "Set-up has begun")
    ann_sees, otto_sees = await ok(table, "as ann /ref list"), await ok(table, "as otto /ref list")
    assert "at most 50 points" in ann_sees and "0.0,20.0 to 30.0,30.0" in ann_sees
    assert "at most 50 points" not in otto_sees and "0.0,20.0" not in otto_sees
    otto_log = await ok(table, "as otto /log")
    assert "platoon" not in otto_log and "0.0,20.0" not in otto_log
    await service.close()
    await store.close()
