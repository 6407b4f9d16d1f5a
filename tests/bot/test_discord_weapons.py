"""Naming a unit's second weapon in Discord's /act: a flame tank's flamethrower and a British
infantry command unit's 2" mortar (Iron Cross 2015, p. 22)."""

from engine.dice import ScriptedDice, d6, d10
from tests.bot.discord_harness import ANN, OTTO, close_bot, open_bot, reply


async def test_act_names_the_flamethrower_or_the_2_inch_mortar_p22(tmp_path, monkeypatch):
    bot, discord = await open_bot(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", monkeypatch)
    await discord.slash("game new", user=ANN, channel="1", table="crossroads", forces="british")
    await discord.slash("game join", user=ANN, channel="1", side="allies")
    await discord.slash("game join", user=OTTO, channel="1", side="axis")
    bot.games.dice = lambda: ScriptedDice([d6(2), d6(5)])
    await discord.slash("game start", user=OTTO, channel="1")
    bot.games.dice = lambda: ScriptedDice([])
    await discord.slash("initiative", user=OTTO, channel="1", choice="pass")
    text, private = reply(
        await discord.slash(
            "act", user=ANN, channel="1", unit="1 Section", fire="Gruppe 2", weapon="flamethrower"
        )
    )
    assert private and "1 Section has no flamethrower" in text
    await discord.slash(
        "act", user=ANN, channel="1", unit="1 Section", fire="Gruppe 2", weapon="light_mortar"
    )
    bot.games.dice = lambda: ScriptedDice([d10(8), d6(5)])
    text, _ = reply(await discord.slash("noreact", user=OTTO, channel="1"))
    assert '1 Section fires its 2" mortar at Gruppe 2 (35.1"): needs 8+; rolled 8: 1 hit' in text
    await close_bot(bot)
