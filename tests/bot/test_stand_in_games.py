"""A game against the bot (engine.stand_in, bot.services.stand_in_service): ``/game new
stand_in:SIDE`` at the console and through the Discord tree, the stand-in's turns taken by
themselves through the game service (recorded, posted), a whole battle against a random player
to its end, and a turn left to take when the process stopped taken after the restart."""

import asyncio
import random

from bot import console as console_module
from bot.app import Services
from bot.console import ConsoleTable
from bot.picture_pool import PicturePool
from bot.services import stand_in_service
from bot.services.game_service import GameError, GameService
from bot.storage.store import GameStore
from engine.commands import Deploy, FinishDeployment, JoinSide, StartGame
from engine.deployment.placing import whose_turn
from engine.dice import ScriptedDice, SeededDice, d6
from engine.errors import IllegalCommand
from engine.forces import force_points, force_units
from engine.game import awaiting
from engine.game_state import GameState
from engine.scenarios.quick_battle import quick_battle
from engine.stand_in import STAND_IN, side_stood_in
from engine.state import Phase, Point
from renderer import render
from tests.bot.discord_harness import ANN, channel_posts, close_bot, open_bot, reply
from tests.bot.test_picture_pool import dies
from tests.engine.random_play import random_command
from tests.engine.test_scenario_games import a_force
from tests.storage.databases import seed_sqlite


async def console(tmp_path, seed: int = 3) -> tuple[ConsoleTable, Services]:
    store = await GameStore.open(seed_sqlite(f"sqlite+aiosqlite:///{tmp_path / 'alone.db'}", shipped=True))
    services = Services.around(GameService(store, dice=lambda: SeededDice(seed)))
    table, _ = await ConsoleTable.open(services)
    return table, services


async def close(services: Services) -> None:
    await services.stand_ins.close()
    await services.games.close()
    await services.store.close()


async def test_at_the_console_the_bot_takes_its_side_and_plays_its_turns_after_the_line_typed(tmp_path):
    table, services = await console(tmp_path)
    made = await table.handle("/game new stand_in:axis")
    assert "The bot plays the Axis: take the Allies with /game join side:allies." in made
    assert table.state.sides["axis"].players == [STAND_IN]
    await table.handle("as ann /game join side:allies")
    started = await table.handle("as ann /game start")  # the Axis win the initiative (seeded)
    played = started.split("[the stand-in plays]\n")[1]
    assert played.startswith("The Axis start as the active player\nThe Axis declare: ")
    assert "Next (the Allies): /react" in played  # it waits for ann, not for itself
    await table.handle("as ann /noreact")
    assert side_stood_in(table.state) is None and awaiting(table.state) == "allies"
    await close(services)


async def test_at_the_console_the_table_is_drawn_again_after_the_stand_in_s_turn(tmp_path, monkeypatch):
    """Its picture in the pictures folder is of the game after the bot's order, drawn as the
    player who typed the line sees it, not the one before."""
    table, services = await console(tmp_path)
    table.pictures = tmp_path / "pictures"
    await table.handle("/game new stand_in:axis")
    await table.handle("as ann /game join side:allies")
    drawn: list[tuple[GameState, str | None, bytes]] = []

    def drawing(state, viewer, **shown):
        drawn.append((state, viewer, render(state, viewer, **shown)))
        return drawn[-1][2]

    monkeypatch.setattr(console_module, "render", drawing)
    started = await table.handle("as ann /game start")  # the Axis win the initiative (seeded)
    played = started.split("[the stand-in plays]\n")[1]
    assert f"Picture: {tmp_path / 'pictures' / 'latest.png'}" in played
    (_, ann_saw, _), (state, viewer, last) = drawn  # her line's answer, then the bot's two turns
    assert state == table.state and state.phase is Phase.REACTION and viewer == ann_saw
    assert (tmp_path / "pictures" / "latest.png").read_bytes() == last
    await close(services)


EASY = [  # Ann's 150 points of US infantry and a tank
    "as ann /force new nation:us name:Easy points:150",
    'as ann /force add force:Easy unit:"Infantry Detachment"',
    'as ann /force add force:Easy unit:"Infantry Detachment"',
    'as ann /force add force:Easy unit:"Infantry Detachment"',
    'as ann /force add force:Easy unit:"Sherman 75mm"',
    'as ann /force upgrade force:Easy unit:"Infantry Detachment 1" command',
]


async def test_in_a_scenario_the_bot_brings_a_force_it_bought_and_sets_up_its_turns(tmp_path):
    table, services = await console(tmp_path)
    for line in EASY:
        await table.handle(line)
    made = await table.handle("/game new scenario:meeting stand_in:axis points:150")
    assert "The bot plays the Axis (second) with a force of its own: " in made
    assert "Take the Allies with /game join side:allies force:<yours>, a force of 150 points." in made
    axis = table.state.sides["axis"]
    assert axis.players == [STAND_IN] and axis.points_limit == 150
    bought = table.state.units_of("axis")
    assert bought and all(u.profile.nation == "german" for u in bought)
    assert 100 < sum(u.profile.points for u in bought) <= 150
    joined = await table.handle("as ann /game join side:allies force:Easy")
    assert "Both forces are here: Meeting Engagement (p. 28)" in joined
    assert whose_turn(table.state.deployment) == "allies"  # the first role sets up first
    deployed = await table.handle('as ann /deploy unit:"Infantry Detachment 1" at:30,6')
    assert whose_turn(table.state.deployment) == "allies"  # the bot has set up its turn
    placed = [u for u in table.state.units_of("axis") if not u.in_reserve]
    assert len(placed) == 1 and "[the stand-in plays]\nThe Axis set up " in deployed
    await close(services)


async def test_a_force_of_other_points_than_the_bots_is_refused_and_a_team_game_too(tmp_path):
    table, services = await console(tmp_path)
    for line in EASY:
        await table.handle(line)
    assert (await table.handle("/game new scenario:meeting stand_in:axis teams:2")).startswith(
        "Not allowed: The bot plays a side alone: not in a team game"
    )
    await table.handle("/game new scenario:meeting stand_in:axis points:200")
    before = table.state
    refused = await table.handle("as ann /game join side:allies force:Easy")
    assert "both forces have the same points; this one is 150 and the other 200" in refused
    assert table.state == before
    await close(services)


async def test_a_whole_scenario_against_the_bot_is_set_up_and_played_to_its_end(tmp_path):
    """Capture on a random table, the bot defending with the force it bought; Ann attacks with
    twice its cost, sets up and orders at random; the game ends."""
    table, services = await console(tmp_path, seed=4)
    games, rng = services.games, random.Random(2)
    made = await table.handle(
        "/game new scenario:capture attacker:allies stand_in:axis points:100 table:random seed:7"
    )
    assert "The bot plays the Axis (defender) with a force of its own" in made
    cost = sum(u.profile.points for u in table.state.units_of("axis"))
    force = a_force("us", 2 * 100, *["Infantry Detachment"] * 8)
    assert force_points(force) >= 2 * cost
    joining = JoinSide(side="allies", player="ann", nation="us", units=tuple(force_units(force, "allies")))
    await games.act(table.CHANNEL, "ann", joining.model_copy(update={"points_limit": force.points_limit}))
    for _ in range(3000):
        await services.stand_ins.settled()
        state = await games.game(table.CHANNEL)
        if state.phase is Phase.OVER:
            break
        assert side_stood_in(state) is None
        for _attempt in range(40):
            try:
                await games.act(table.CHANNEL, "ann", ann_command(state, rng))
                break
            except (GameError, IllegalCommand):
                continue
    final = await games.game(table.CHANNEL)
    assert final.phase is Phase.OVER and final.result is not None and final.scenario == "capture"
    history = (await games.history(table.CHANNEL))[1]
    assert sum(getattr(command, "side", None) == "axis" for command, _ in history) > 10
    await close(services)


def ann_command(state, rng):
    """Ann sets up at random points of the table, finishes, starts; then orders at random."""
    if state.deployment is not None and whose_turn(state.deployment) == "allies":
        waiting = state.deployment.sides["allies"].waiting
        if not waiting or rng.random() < 0.05:
            return FinishDeployment(side="allies")
        at = Point(x=round(rng.uniform(1, 71), 1), y=round(rng.uniform(1, 47), 1))
        return Deploy(side="allies", unit=waiting[0], at=at)
    return random_command(state, rng)


async def test_a_whole_quick_battle_against_the_bot_ends_with_a_result(tmp_path):
    """Ann orders at random; the bot answers every turn of its own, so the game never waits for
    it when Ann is to speak, and the battle ends."""
    store = await GameStore.open(seed_sqlite(f"sqlite+aiosqlite:///{tmp_path / 'battle.db'}", shipped=True))
    services = Services.around(GameService(store, dice=lambda: SeededDice(11)))
    games, rng = services.games, random.Random(5)
    await games.new_game("c", quick_battle())
    await games.act("c", STAND_IN, JoinSide(side="axis", player=STAND_IN))
    await games.act("c", "ann", JoinSide(side="allies", player="ann"))
    await games.act("c", "ann", StartGame())
    for _ in range(3000):
        await services.stand_ins.settled()
        state = await games.game("c")
        if state.phase is Phase.OVER:
            break
        assert side_stood_in(state) is None and awaiting(state) == "allies"
        for _attempt in range(40):
            try:
                await games.act("c", "ann", random_command(state, rng))
                break
            except (GameError, IllegalCommand):
                continue
    state, history = await games.history("c")
    final = await games.game("c")
    assert final.phase is Phase.OVER and final.result is not None
    by_the_bot = [command for command, _ in history if getattr(command, "side", None) == "axis"]
    assert len(by_the_bot) > 10  # its orders are in the log like anyone's
    await close(services)


async def test_a_turn_the_bot_had_not_taken_when_the_process_stopped_is_taken_after_the_restart(tmp_path):
    url = f"sqlite+aiosqlite:///{tmp_path / 'restart.db'}"
    store = await GameStore.open(url)
    games = GameService(store, dice=lambda: ScriptedDice([d6(2), d6(5)]))  # the Axis win the roll
    await games.new_game("c", quick_battle())
    await games.act("c", "stand-in", JoinSide(side="axis", player=STAND_IN))
    await games.act("c", "ann", JoinSide(side="allies", player="ann"))
    await games.act("c", "ann", StartGame())  # no stand-in in this process: the turn waits
    assert side_stood_in(await games.game("c")) == "axis"
    await games.close()
    await store.close()

    store = await GameStore.open(url)
    services = Services.around(GameService(store, dice=lambda: SeededDice(1)))
    await services.stand_ins.resume()
    await services.stand_ins.settled()
    state = await services.games.game("c")
    assert side_stood_in(state) is None and state.phase is not Phase.INITIATIVE
    await close(services)


async def test_a_command_stored_while_the_bot_shuts_down_leaves_its_turn_to_the_next_start(tmp_path):
    """Shutting down, the stand-in stops before the game service (the console's order): a
    command the service still stores then, which leaves the bot to act, is stored and answered
    as ever, and the bot's turn is taken after the restart (it once raised "reaction timers
    are closed" from the stored hook)."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'closing.db'}"
    store = await GameStore.open(url)
    services = Services.around(GameService(store, dice=lambda: ScriptedDice([d6(2), d6(5)])))
    games = services.games
    await games.new_game("c", quick_battle())
    await games.act("c", "stand-in", JoinSide(side="axis", player=STAND_IN))
    await games.act("c", "ann", JoinSide(side="allies", player="ann"))
    await services.stand_ins.close()
    await games.act("c", "ann", StartGame())  # the Axis win the roll: the bot is to act
    assert side_stood_in(await games.game("c")) == "axis"
    await games.close()
    await store.close()

    store = await GameStore.open(url)
    services = Services.around(GameService(store, dice=lambda: SeededDice(1)))
    await services.stand_ins.resume()
    await services.stand_ins.settled()
    assert side_stood_in(await services.games.game("c")) is None
    await close(services)


async def test_through_discord_the_bots_turn_is_posted_to_the_channel_as_a_card(tmp_path, monkeypatch):
    bot, discord = await open_bot(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", monkeypatch)
    try:
        await discord.slash("game new", user=ANN, channel="1", stand_in="axis")
        await discord.slash("game join", user=ANN, channel="1", side="allies")
        bot.games.dice = lambda: ScriptedDice([d6(2), d6(5)])  # the Axis (the bot) win the roll
        before = len(discord.sent)
        await discord.slash("game start", user=ANN, channel="1")
        bot.games.dice = lambda: SeededDice(2)
        await bot.stand_ins.settled()
        posts = [text for where, text, _ in channel_posts(discord.sent[before:]) if where == "1"]
        assert posts and posts[0].startswith("The stand-in plays.\nThe Axis start as the active player")
        assert side_stood_in(await bot.games.game("1")) is None
    finally:
        await bot.stand_ins.close()
        await close_bot(bot)


async def test_through_discord_a_breakthrough_against_the_bot_is_set_up_with_its_force(tmp_path, monkeypatch):
    bot, discord = await open_bot(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", monkeypatch)
    try:
        options = {"scenario": "breakthrough", "attacker": "axis", "attacker_choice": "aggressive_command"}
        sent = await discord.slash(
            "game new", user=ANN, channel="1", stand_in="allies", forces="british", points=200, **options
        )
        text, private = reply(sent)
        assert not private and "The bot plays the Allies (defender) with a force of its own: " in text
        state = await bot.games.game("1")
        bought = state.units_of("allies")
        assert state.sides["allies"].players == [STAND_IN] and {u.profile.nation for u in bought} == {
            "british"
        }
        on_foot = sum(u.profile.points for u in bought if not u.profile.unit_class.is_vehicle)
        assert 2 * on_foot >= 200  # the defender's half on infantry (p. 31)
    finally:
        await bot.stand_ins.close()
        await close_bot(bot)


async def test_a_referee_hands_an_absent_players_side_to_the_bot_and_back(tmp_path):
    table, services = await console(tmp_path, seed=2)
    await table.handle("/game new referee:ref")
    await table.handle("as ann /game join side:allies")
    await table.handle("as otto /game join side:axis")
    await table.handle("as ann /game start")
    refused = await table.handle("as ann /ref stand_in side:axis play:on reason:away")
    assert refused.startswith("Not allowed") and table.state.sides["axis"].players == ["otto"]
    assert (await table.handle("as ref /ref stand_in side:axis play:off reason:x")).startswith(
        "Not allowed: The bot does not play the Axis for anyone"
    )
    handed = await table.handle('as ref /ref stand_in side:axis play:on reason:"otto is away"')
    assert "Referee: the bot plays the Axis for otto (otto is away)" in handed
    assert table.state.sides["axis"].players == [STAND_IN]
    assert all(u.player in (None, STAND_IN) for u in table.state.units_of("axis"))
    assert side_stood_in(table.state) is None  # whatever the game waited for of the Axis, it did
    again = await table.handle("as ref /ref stand_in side:axis play:on reason:again")
    assert again.startswith("Not allowed: The bot already plays the Axis")
    back = await table.handle("as ref /ref stand_in side:axis play:off reason:back")
    assert "Referee: otto plays the Axis again (back)" in back
    assert table.state.sides["axis"].players == ["otto"] and table.state.sides["axis"].stood_in_for is None
    await close(services)


async def test_a_stand_in_turn_that_kills_the_workers_deciding_it_is_not_tried_again(
    tmp_path, monkeypatch, caplog
):
    """Its decision, made again from the same game and seed, would kill them again: it is
    logged and left (to a referee, or to the next start), the game as it was, the pool whole."""
    store = await GameStore.open(seed_sqlite(f"sqlite+aiosqlite:///{tmp_path / 'a.db'}", shipped=True))
    pool = PicturePool(workers=1)
    await pool.start()
    services = Services.around(GameService(store, dice=lambda: SeededDice(3)), pool)
    monkeypatch.setattr(stand_in_service, "order_in_json", dies)
    table, _ = await ConsoleTable.open(services)
    try:
        await table.handle("/game new stand_in:axis")
        await table.handle("as ann /game join side:allies")
        started = await asyncio.wait_for(table.handle("as ann /game start"), 120)  # the Axis to act
        assert "[the stand-in plays]" not in started and awaiting(table.state) == "axis"
        assert caplog.text.count("a picture worker stopped") == 2  # once, not again and again
        assert "the stand-in's turn for axis in channel console" in caplog.text
        assert services.stand_ins.timers.retries == 0 and not services.stand_ins.timers.armed
        version = (await store.load(ConsoleTable.CHANNEL)).version
        await asyncio.wait_for(asyncio.gather(*pool._replacing), 120)
        assert len(pool.pids) == 1 and (await store.load(ConsoleTable.CHANNEL)).version == version
    finally:
        await close(services)
        await pool.close()
