"""A linked campaign's battle through the real command tree, both saved forces holding an
"Infantry Detachment 1": each player sets up and orders units by the names they typed (their own
unit acting, the enemy's aimed at), and the autocomplete offers each unit under its own name."""

import pytest

from engine.dice import ScriptedDice, SeededDice, d6
from tests.bot.discord_harness import ANN, OTTO, close_bot, open_bot, reply
from tests.bot.test_discord_linked_campaign import saved_force


@pytest.fixture
async def bot_and_discord(tmp_path, monkeypatch):
    bot, discord = await open_bot(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", monkeypatch)
    yield bot, discord
    await bot.campaigns.close()
    await close_bot(bot)


async def test_a_linked_battle_between_two_infantry_detachment_1s_is_played_by_typed_names(bot_and_discord):
    bot, discord = bot_and_discord
    both = ("Infantry Detachment", "Infantry Detachment")
    await saved_force(discord, ANN, "us", "Able", *both, "Sherman 75mm")
    await saved_force(discord, OTTO, "german", "KG", *both, "Panther")
    created = await discord.slash(
        "campaign linked new",
        user=ANN,
        channel="1",
        name="Normandy",
        allies=f"<@{ANN}>",
        allies_force="Able",
        axis=f"<@{OTTO}>",
        axis_force="KG",
    )
    assert reply(created)[0].startswith("Linked campaign **Normandy** set up."), reply(created)
    battle = await discord.slash("campaign linked battle", user=ANN, channel="1", scenario="meeting")
    assert reply(battle)[0].startswith("**Normandy**, battle 1"), reply(battle)
    set_ups = [
        (ANN, "Infantry Detachment 1", "30,6"),
        (OTTO, "Infantry Detachment 1", "30,38"),
        (ANN, "Sherman 75mm 1", "34,10"),
        (OTTO, "Infantry Detachment 2", "40,40"),
    ]
    for user, unit, at in set_ups:
        text, _ = reply(await discord.slash("deploy", user=user, channel="1", unit=unit, at=at))
        assert text.startswith("The "), text
    state = await bot.games.game("1")
    placed = {u.id: u.name for u in state.units.values() if u.on_table}
    assert placed == {
        "allies-infantry-detachment-1": "Infantry Detachment 1 (Allies)",
        "axis-infantry-detachment-1": "Infantry Detachment 1 (Axis)",
        "allies-sherman-75mm-1": "Sherman 75mm 1",
        "axis-infantry-detachment-2": "Infantry Detachment 2 (Axis)",
    }
    for user in (ANN, OTTO):
        await discord.slash("deploy", user=user, channel="1", done=True)
    bot.games.dice = lambda: ScriptedDice([d6(2), d6(5)])
    await discord.slash("game start", user=OTTO, channel="1")
    bot.games.dice = lambda: ScriptedDice([])
    await discord.slash("initiative", user=OTTO, channel="1", choice="pass")
    offered = await discord.autocomplete("act", "fire", "Infantry Detachment 1", user=ANN, channel="1")
    assert offered[0] == "axis-infantry-detachment-1"
    text, ephemeral = reply(
        await discord.slash("act", user=ANN, channel="1", unit="Sherman 75mm 1", fire="Infantry Detachment 1")
    )
    assert not ephemeral and "Sherman 75mm 1: fire at Infantry Detachment 1 (Axis)" in text
    bot.games.dice = lambda: SeededDice(1)
    text, _ = reply(
        await discord.slash(
            "react", user=OTTO, channel="1", unit="Infantry Detachment 1", fire="Infantry Detachment 1"
        )
    )
    assert "Infantry Detachment 1 (Axis)" in text and "at Infantry Detachment 1 (Allies)" in text
