"""/campaign linked through the real command tree: a campaign between two saved forces, a battle
set up in the channel, its end (a concession) posted and carried into the standings, and a
purchase refused privately when the points are short; a unit retired, the campaign ended, and
/stats campaign over its battles."""

import pytest

from engine.dice import ScriptedDice, d6, d10
from tests.bot.discord_harness import ANN, EVE, OTTO, attachments, close_bot, open_bot, reply
from tests.bot.test_discord_campaign import posted
from tests.renderer.pixels import png


@pytest.fixture
async def bot_and_discord(tmp_path, monkeypatch):
    bot, discord = await open_bot(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", monkeypatch)
    yield bot, discord
    await bot.campaigns.close()
    await close_bot(bot)


async def saved_force(discord, user, nation, name, *profiles):
    await discord.slash("force new", user=user, channel="1", nation=nation, name=name, points=150)
    for profile in profiles:
        await discord.slash("force add", user=user, channel="1", force=name, unit=profile)
    await discord.slash(
        "force upgrade", user=user, channel="1", force=name, unit="Infantry Detachment 1", command=True
    )


async def test_a_linked_campaign_in_discord(bot_and_discord):
    bot, discord = bot_and_discord
    await saved_force(
        discord, ANN, "us", "Able", "Infantry Detachment", "Infantry Detachment", "Sherman 75mm"
    )
    await saved_force(discord, OTTO, "german", "KG", "Infantry Detachment", "Infantry Detachment", "Panther")
    text, ephemeral = reply(
        await discord.slash(
            "campaign linked new",
            user=ANN,
            channel="1",
            name="Normandy",
            allies=f"<@{ANN}>",
            allies_force="Able",
            axis=f"<@{OTTO}>",
            axis_force="KG",
            winner=60,
        )
    )
    assert not ephemeral and text.startswith("Linked campaign **Normandy** set up.")
    assert f"Allies (<@{ANN}>), Able (US): 0 battles" in text

    text, ephemeral = reply(
        await discord.slash("campaign linked battle", user=EVE, channel="1", scenario="meeting")
    )
    assert ephemeral and text == "Only the players of Normandy may do that"
    text, ephemeral = reply(
        await discord.slash("campaign linked battle", user=OTTO, channel="1", scenario="meeting")
    )
    assert not ephemeral and text.startswith("**Normandy**, battle 1: **Meeting Engagement** (p. 28)")
    state = await bot.games.game("1")
    assert state.sides["allies"].players == [ANN] and state.sides["axis"].players == [OTTO]
    assert sorted(u.name for u in state.units_of("axis")) == [  # both sides have the detachments
        "Infantry Detachment 1 (Axis)",
        "Infantry Detachment 2 (Axis)",
        "Panther 1",
    ]

    sent = await discord.slash("game concede", user=ANN, channel="1")
    carried, _story = posted(sent)  # the battle's story (a card) follows the campaign's news
    assert carried.startswith(
        "**Normandy**, battle 1. Meeting Engagement: the Axis won (the Allies conceded); "
        "the Allies lost nothing, +0 points (conceded before spending a token); "
        "the Axis lost nothing, +60 points"
    )

    text, ephemeral = reply(
        await discord.slash("campaign linked buy", user=ANN, channel="1", side="allies", unit="Sherman 75mm")
    )
    assert ephemeral and text == "The Allies have 0 reinforcement points but Sherman 75mm costs 45: 45 short"
    text, _ = reply(
        await discord.slash("campaign linked buy", user=OTTO, channel="1", side="axis", unit="MG Team")
    )
    assert text.startswith("The Axis buy MG Team 1 (MG Team): 40 reinforcement points left")
    text, _ = reply(await discord.slash("campaign linked standings", user=EVE, channel="1"))
    assert (
        f"Axis (<@{OTTO}>), KG (German): 1 battle, 1 win, 0 draws, 0 losses; 40 reinforcement points" in text
    )
    assert "Infantry Detachment 1 (command), Infantry Detachment 2, Panther 1, MG Team 1" in text
    assert text.endswith("History:\n" + carried.splitlines()[0].removeprefix("**Normandy**, battle "))


async def test_retire_end_and_the_campaigns_stats_in_discord(bot_and_discord):
    bot, discord = bot_and_discord
    await saved_force(discord, ANN, "us", "Able", "Infantry Detachment", "Infantry Detachment", "MG Team")
    await saved_force(discord, OTTO, "german", "KG", "Infantry Detachment", "Infantry Detachment", "Panther")
    await discord.slash(
        "campaign linked new",
        user=ANN,
        channel="1",
        name="Normandy",
        allies=f"<@{ANN}>",
        allies_force="Able",
        axis=f"<@{OTTO}>",
        axis_force="KG",
    )
    await discord.slash("campaign linked battle", user=OTTO, channel="1", scenario="meeting")
    bot.dice.dice = lambda: ScriptedDice([d10(9), d10(4)])
    await discord.slash("roll", user=ANN, channel="1", dice="2d10 5+ mortar")
    await discord.slash("game concede", user=OTTO, channel="1")
    # a game in another channel is no part of the campaign
    bot.dice.dice = lambda: ScriptedDice([d6(6)])
    await discord.slash("roll", user=ANN, channel="2", dice="1d6")

    sent = await discord.slash("stats", user=EVE, channel="1", campaign=True)
    text, ephemeral = reply(sent)
    assert not ephemeral
    assert text.startswith(
        f"Campaign **Normandy**: 1 battle fought\nDice statistics: 2 dice\n\n<@{ANN}> (Allies)"
    )
    assert "d10 faces 1:0 2:0 3:0 4:1 5:0 6:0 7:0 8:0 9:1 10:0 (fair 0.2 each)" in text
    (picture,) = attachments(sent)
    assert png(picture).width == 760
    assert reply(await discord.slash("stats", user=EVE, channel="2", campaign=True)) == (
        "There is no campaign in this channel: /stats without campaign counts the channel's game",
        True,
    )

    text, ephemeral = reply(
        await discord.slash("campaign linked retire", user=ANN, channel="1", side="allies", unit="MG Team 1")
    )
    assert not ephemeral and text.startswith("The Allies retire MG Team 1\n")
    assert "   retired: MG Team 1" in text.splitlines()
    text, ephemeral = reply(await discord.slash("campaign linked end", user=EVE, channel="1"))
    assert ephemeral and text == "Only the players of Normandy may do that"
    text, ephemeral = reply(await discord.slash("campaign linked end", user=ANN, channel="1"))
    assert not ephemeral
    assert (
        text.splitlines()[0]
        == f"**Normandy** is over after 1 battle: the Allies (<@{ANN}>) win the campaign, 1 win to 0"
    )
    text, ephemeral = reply(
        await discord.slash("campaign linked buy", user=OTTO, channel="1", side="axis", unit="MG Team")
    )
    assert ephemeral and text == "Normandy is over: nothing more is fought or bought in it"
