"""/games at the console: what waits for each player across channels (games and a campaign),
turn pings written as notes, by mention or as a direct message, and the game's delay changed
mid-game."""

import io

import pytest

from bot.app import Services
from bot.console import ConsoleTable
from bot.services.game_service import GameService
from bot.storage.store import GameStore
from engine.commands import JoinSide, StartGame
from engine.dice import ScriptedDice, d6
from engine.runtime import VirtualClock
from engine.scenarios.quick_battle import quick_battle
from tests.storage.databases import seed_sqlite

MINUTE = 60


@pytest.fixture
async def console(tmp_path):
    store = await GameStore.open(seed_sqlite(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}"))
    games = GameService(store, clock=VirtualClock())
    table = ConsoleTable(Services.around(games), quick_battle())
    yield table
    await table.owed.close()
    await table.campaigns.close()
    await games.close()
    await store.close()


async def start(table, dice):
    """Ann plays allies and Otto axis at the console's table; the initiative dice are ``dice``."""
    await table.handle("as ann /game join side:allies")
    await table.handle("as otto /game join side:axis")
    table.service.dice = lambda: ScriptedDice(dice)
    await table.handle("as otto /game start")


async def test_games_mine_lists_games_and_campaigns_across_channels(console):
    games = console.service
    await console.handle("/game new")
    await start(console, [d6(2), d6(5)])  # axis wins the initiative at the console's table
    await games.new_game("555")  # a Discord channel's game in the same database
    await games.act("555", "ann", JoinSide(side="allies", player="ann"))
    await games.act("555", "otto", JoinSide(side="axis", player="otto"))
    games.dice = lambda: ScriptedDice([d6(6), d6(1)])  # allies win there
    await games.act("555", "otto", StartGame())
    await console.handle(
        "/campaign new name:Barrikady german:ann russian:cat german_cpp:10 russian_cpp:12 days:1 every:24h"
    )

    assert await console.handle("as ann /games mine") == (
        "Waiting for you:\n"
        "- #console: campaign Barrikady, phase 1 (17 Oct purchases): the German side owes its RG "
        "purchases for the CG Day (or none) (/campaign submit), deadline 2026-01-02 00:00 UTC (in 24 hours)\n"
        "- #555: game: the Allies won the initiative: choose who starts (/initiative)"
    )
    assert await console.handle("as otto /games mine") == (
        "Waiting for you:\n- #console: game: the Axis won the initiative: choose who starts (/initiative)"
    )
    await console.handle("as ann /campaign submit buy:none")
    assert await console.handle("as ann /games mine") == (
        "Waiting for you:\n- #555: game: the Allies won the initiative: choose who starts (/initiative)"
    )
    assert await console.handle("as eve /games mine") == (
        "Nothing waits for you: no game or campaign needs your move."
    )


async def test_pings_at_the_console_follow_the_games_delay_and_each_players_choice(console):
    out = io.StringIO()
    await console.owed.open(out)
    assert await console.handle("as otto /games ping how:dm") == (
        "When a game waits for you, you get a direct message (a mention in its channel if that fails)."
    )
    await console.handle("/game new ping_minutes:5")
    await console.handle("as ann /game join side:allies")
    await console.handle("as otto /game join side:axis")
    await console.service.clock.advance(5 * MINUTE)
    start = "everyone has joined: start the game (/game start)"
    assert out.getvalue() == (
        f"\n[ping in #console] ann: {start}\n[message to otto] #console waits for you: {start}\n"
    )


async def test_bad_ping_settings_are_refused_and_change_nothing(console):
    await console.handle("/game new forces:british")
    before = await console.service.game("console")
    assert await console.handle("/game new ping_minutes:soon") == (
        "Not allowed: ping_minutes is a whole number from 0 to 10,080, not 'soon'"
    )
    assert await console.handle("/game new ping_minutes:20000") == (
        "Not allowed: ping_minutes is a whole number from 0 to 10,080, not 20,000"
    )
    assert await console.service.game("console") == before
    assert await console.handle("as ann /games ping how:loudly") == (
        "Not allowed: how: choose mention or dm or off, not 'loudly'"
    )
    assert (await console.handle("as ann /games ping")).startswith(
        "When a game waits for you, you are mentioned in its channel."
    )
    assert await console.handle("as ann /games sometimes") == (
        "Not allowed: Try /games mine, /games ping or /games delay"
    )


async def test_a_player_changes_the_delay_mid_game_and_a_spectator_may_not(console):
    out = io.StringIO()
    await console.owed.open(out)
    await console.handle("/game new")
    await start(console, [d6(2), d6(5)])  # axis (Otto) won the initiative: his wait begins
    await console.service.clock.advance(4 * MINUTE)
    assert await console.handle("as eve /games delay minutes:0") == (
        "Not allowed: Only the game's players and referees may change when its turn pings come"
    )
    assert await console.handle("as ann /games delay minutes:soon") == (
        "Not allowed: minutes is a whole number from 0 to 10,080, not 'soon'"
    )
    assert await console.handle("as ann /games delay minutes:20") == (
        "Turn pings for this game now come after 20 minutes."
    )
    await console.service.clock.advance(16 * MINUTE - 1)
    assert out.getvalue() == ""
    await console.service.clock.advance(1)
    initiative = "the Axis won the initiative: choose who starts (/initiative)"
    assert out.getvalue() == f"\n[ping in #console] otto: {initiative}\n"


async def test_a_referees_deadline_and_paused_clock_show_in_games_mine_and_the_ping(console):
    out = io.StringIO()
    await console.owed.open(out)
    await console.handle("/game new referee:rita")
    await start(console, [d6(2), d6(5)])  # axis (Otto) won the initiative at 00:00
    await console.handle("as otto /initiative start")
    await console.handle("as rita /ref deadline side:axis hours:12")
    act = "the Axis to act: declare an order or pass (/act, /pass)"
    assert await console.handle("as otto /games mine") == (
        f"Waiting for you:\n- #console: game: {act}, the referee's deadline 2026-01-01 12:00 UTC "
        "(in 12 hours) (then the game acts for your side)"
    )
    assert await console.handle("as ann /games mine") == (
        "Nothing waits for you: no game or campaign needs your move."
    )
    await console.service.clock.advance(10 * MINUTE)
    assert out.getvalue() == f"\n[ping in #console] otto: {act}, until 2026-01-01 12:00 UTC\n"
    await console.handle("as rita /ref pause")
    assert await console.handle("as otto /games mine") == (
        f"Waiting for you:\n- #console: game: {act}, the referee has stopped the clock"
    )
