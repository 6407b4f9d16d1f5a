"""Done setting up while units could still be set up sends them all into reserve at once, so it
is confirmed first (issue 32): at the console as a second command, ``/deploy done
confirm:true``; in Discord with Confirm and Cancel buttons, from /deploy and from the card."""

from bot.app import Services
from bot.console import ConsoleTable
from bot.services.game_service import GameService
from bot.storage.store import GameStore
from engine.dice import ScriptedDice
from tests.engine.test_set_up_share import meeting
from tests.storage.databases import seed_sqlite


async def console(tmp_path, state) -> ConsoleTable:
    """The console's game: ann plays the Allies, otto the Axis."""
    state.sides["allies"].players, state.sides["axis"].players = ["ann"], ["otto"]
    store = await GameStore.open(seed_sqlite(f"sqlite+aiosqlite:///{tmp_path / 'console.db'}", shipped=True))
    service = GameService(store, dice=lambda: ScriptedDice([]))
    await service.new_game(ConsoleTable.CHANNEL, state)
    table, _ = await ConsoleTable.open(Services.around(service))
    return table


async def test_the_console_asks_for_a_second_step_before_units_go_into_reserve(tmp_path):
    table = await console(tmp_path, meeting(allied=4, german=4))
    await table.handle("as ann /deploy unit:a0 at:6,5")
    await table.handle("as otto /deploy unit:x0 at:6,67 facing:270")
    asked = await table.handle("as ann /deploy done")  # the Allies' turn
    assert asked == (
        "The Allies may still set up 2 units. Done now, all 3 units still waiting go into reserve at "
        "once: to do so, /deploy done confirm:true"
    )
    assert not table.state.deployment.sides["allies"].done
    done = await table.handle("as ann /deploy done confirm:true")
    assert "The Allies have finished setting up; 3 units held in reserve" in done
    assert table.state.deployment.sides["allies"].done


async def test_a_side_at_its_share_is_done_at_once(tmp_path):
    table = await console(tmp_path, meeting(allied=4, german=4))
    for n in range(3):
        await table.handle(f"as ann /deploy unit:a{n} at:{6 + 6 * n},5")
        await table.handle(f"as otto /deploy unit:x{n} at:{6 + 6 * n},67 facing:270")
    done = await table.handle("as ann /deploy done")
    assert "The Allies have finished setting up; 1 unit held in reserve" in done


async def test_discord_asks_with_confirm_and_cancel_from_the_command_and_the_card(tmp_path, monkeypatch):
    from tests.bot.discord_harness import ANN, OTTO, buttons, close_bot, open_bot, reply

    bot, discord = await open_bot(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", monkeypatch)
    state = meeting(allied=4, german=4)
    state.sides["allies"].players, state.sides["axis"].players = [ANN], [OTTO]
    await bot.games.new_game("1", state)
    await discord.slash("deploy", user=ANN, channel="1", unit="a0", at="6,5")
    card = buttons(await discord.slash("deploy", user=OTTO, channel="1", unit="x0", at="6,67", facing=270))
    asked = await discord.slash("deploy", user=ANN, channel="1", done=True)
    text, private = reply(asked)
    assert private and text.startswith("The Allies may still set up 2 units. Done now, all 3 units")
    assert set(buttons(asked)) == {"Confirm: done", "Cancel: keep setting up"}
    kept, _ = reply(await discord.click(buttons(asked)["Cancel: keep setting up"], user=ANN, channel="1"))
    assert kept == "Nothing went into reserve: the Allies go on setting up."  # the private card, edited
    tapped = await discord.click(card["Done setting up (Allies)"], user=ANN, channel="1")  # the card asks too
    assert set(buttons(tapped)) == {"Confirm: done", "Cancel: keep setting up"}
    assert not (await bot.games.game("1")).deployment.sides["allies"].done
    done, private = reply(await discord.click(buttons(tapped)["Confirm: done"], user=ANN, channel="1"))
    assert not private and "The Allies have finished setting up; 3 units held in reserve" in done
    await close_bot(bot)
