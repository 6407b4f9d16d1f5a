"""A unit set up by mistake is set up again from Discord's set-up menu as by ``/deploy`` (issue
32): the side's menu offers the units it has set up after those still waiting."""

from tests.bot.discord_harness import ANN, OTTO, buttons, close_bot, menus, open_bot, reply
from tests.engine.test_set_up_share import meeting


async def test_the_set_up_menu_offers_a_unit_set_up_to_set_it_up_again(tmp_path, monkeypatch):
    bot, discord = await open_bot(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", monkeypatch)
    state = meeting(allied=2, german=2)  # one of two on the table each (3/4, rounded down)
    state.sides["allies"].players, state.sides["axis"].players = [ANN], [OTTO]
    await bot.games.new_game("1", state)
    await discord.slash("deploy", user=ANN, channel="1", unit="a0", at="6,5")
    card = buttons(await discord.slash("deploy", user=OTTO, channel="1", unit="x0", at="6,67", facing=270))
    assert set(card) == {"Done setting up (Allies)"}  # at their share: no unit to set up but by again
    text, _ = reply(await discord.slash("deploy", user=ANN, channel="1", unit="a0", at="12,5"))
    assert "The Allies set up Infantry Detachment at 12.0,5.0 instead" in text
    await close_bot(bot)


async def test_the_menu_lists_waiting_units_then_those_set_up(tmp_path, monkeypatch):
    bot, discord = await open_bot(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", monkeypatch)
    state = meeting(allied=4, german=4)
    state.sides["allies"].players, state.sides["axis"].players = [ANN], [OTTO]
    await bot.games.new_game("1", state)
    await discord.slash("deploy", user=ANN, channel="1", unit="a0", at="6,5")
    card = buttons(await discord.slash("deploy", user=OTTO, channel="1", unit="x0", at="6,67", facing=270))
    (units,) = menus(await discord.click(card["Set up a unit (Allies)"], user=ANN, channel="1"))
    assert [o["label"] for o in units["options"]] == [
        *["Infantry Detachment"] * 3,
        "Infantry Detachment (set up again)",
    ]
    await close_bot(bot)
