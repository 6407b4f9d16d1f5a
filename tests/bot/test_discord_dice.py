"""/roll and /chart through the real command tree, and the roll log over a restart."""

import re

import pytest

from bot.services.dice_service import DiceService
from bot.services.game_service import GameError
from bot.storage.store import GameStore
from engine.dice import ScriptedDice
from tests.bot.discord_harness import (
    ANN,
    EVE,
    MANAGE_MESSAGES,
    OTTO,
    close_bot,
    messages,
    open_bot,
    reply,
    started_game,
)


@pytest.fixture
async def bot_and_discord(tmp_path, monkeypatch):
    bot, discord = await open_bot(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", monkeypatch)
    yield bot, discord
    await close_bot(bot)


def script(bot, *faces):
    bot.dice.dice = lambda: ScriptedDice(list(faces))


async def test_a_roll_is_posted_for_the_channel_with_every_die(bot_and_discord):
    bot, discord = bot_and_discord
    script(bot, (10, 7), (10, 3))
    text, private = reply(
        await discord.slash("roll", user=ANN, channel="5", dice="2d10 5+ Panther at Sherman")
    )
    assert not private
    assert (
        text
        == f"<@{ANN}> rolls `2d10 5+ Panther at Sherman`\nPanther at Sherman: 2d10 5+: 7, 3 -> **1 success**"
    )


async def test_a_bad_expression_is_refused_privately_and_not_logged(bot_and_discord):
    bot, discord = bot_and_discord
    text, private = reply(await discord.slash("roll", user=ANN, channel="5", dice="1d100000"))
    assert private and "at most 1000 sides" in text
    assert await bot.dice.log("5", ANN) == []


async def test_the_word_secret_in_the_dice_is_refused_as_at_the_console(bot_and_discord):
    bot, discord = bot_and_discord
    text, private = reply(await discord.slash("roll", user=ANN, channel="5", dice="2d6 secret"))
    assert private and text.endswith("to roll in secret, give the option secret:true")
    assert await bot.dice.log("5", ANN) == []


async def test_secret_rolls_never_reach_anyone_else(bot_and_discord):
    bot, discord = bot_and_discord
    script(bot, (6, 2), (6, 5))
    text, private = reply(await discord.slash("roll", user=ANN, channel="5", dice="DR sniper", secret=True))
    assert private and "coloured 2, white 5" in text
    script(bot, (6, 4))
    await discord.slash("roll", user=OTTO, channel="5", dice="dr")
    others, private = reply(await discord.slash("roll", user=EVE, channel="5", dice="log"))
    assert private and "dr" in others and "sniper" not in others and "coloured 2" not in others
    own, _ = reply(await discord.slash("roll", user=ANN, channel="5", dice="log"))
    assert "DR sniper (secret)" in own and "coloured 2, white 5" in own
    discord.permissions[EVE] = MANAGE_MESSAGES  # the channel's moderator referees its dice
    refereed, private = reply(await discord.slash("roll", user=EVE, channel="5", dice="log"))
    assert private and f"<@{ANN}> DR sniper (secret)" in refereed and "coloured 2, white 5" in refereed


async def test_chart_roll_list_and_show(bot_and_discord):
    bot, discord = bot_and_discord
    script(bot, (6, 3), (6, 3))
    text, private = reply(
        await discord.slash(
            "chart roll", user=ANN, channel="5", chart="rb-rg-strength", choices="side=german, date=2 Nov"
        )
    )
    assert not private and "DR 3 + 3, +2 historical DRM = **8**: Full Strength" in text
    text, private = reply(await discord.slash("chart roll", user=ANN, channel="5", chart="leaders"))
    assert private and "Did you mean rb-german-leaders or rb-russian-leaders?" in text
    sent = await discord.slash("chart list", user=ANN, channel="5")
    listed, private = reply(sent)
    pages = messages(sent)
    assert private and pages[0] == listed and all(len(page) <= 2000 for page in pages)
    listing = "\n".join(pages)
    assert listing.index("__**Iron Cross**__") < listing.index("**ic-reaction**: Reaction test")
    assert listing.index("__**Red Barricades**__") < listing.index("**rb-sewer-emergence**")
    assert listing.index("__**Cross of Iron**__") < listing.index("**coi-wind-change**: Wind change check")
    shown, _ = reply(await discord.slash("chart show", user=ANN, channel="5", chart="ic-terrain"))
    assert "unit=... (wheeled, halftrack" in shown
    assert await discord.autocomplete("chart roll", "chart", "sewer", user=ANN, channel="5") == [
        "rb-sewer-emergence"
    ]


async def test_the_roll_log_survives_a_restart(tmp_path):
    url = f"sqlite+aiosqlite:///{tmp_path / 'games.db'}"
    store = await GameStore.open(url)
    await DiceService(store, dice=lambda: ScriptedDice([(6, 4)])).roll("5", ANN, "1d6 morale")
    await store.close()
    reopened = await GameStore.open(url)
    (row,) = await DiceService(reopened).log("5", EVE)
    assert (row.user_id, row.asked, row.result) == (ANN, "1d6 morale", "morale: 1d6 (4) = `4`")
    await reopened.close()


async def test_odds_for_a_shot_from_the_orders_of_battle(bot_and_discord):
    _, discord = bot_and_discord
    text, private = reply(
        await discord.slash(
            "odds shot",
            user=ANN,
            channel="5",
            firer="Panther (german)",
            target="Sherman 75mm (us)",
            range=18.0,
        )
    )
    assert not private
    assert text.startswith('Panther at Sherman 75mm (front, 18"): 1d10, each hits on 5+')
    assert "Kaboom!              7.0% █" in text
    refused, private = reply(
        await discord.slash(
            "odds shot", user=ANN, channel="5", firer="Infantry Detachment (us)", target="Panther", range=5.0
        )
    )
    assert (
        private
        and refused == "Infantry Detachment has no anti-tank weapon: it must be in contact with Panther"
    )
    assert await discord.autocomplete("odds shot", "firer", "panzer iv", user=ANN, channel="5") == [
        "Panzer IV G (late) to J (german)",  # the Panzer IV first, then the nearest names
        "Jagdpanzer IV/Hetzer (german)",
        "Panzer III J (late)/K (german)",
        "Panzer III L-N (german)",
        "Panzer III M (F1) (german)",
    ]


async def test_odds_for_a_shot_in_the_channels_game_and_without_one(bot_and_discord):
    bot, discord = bot_and_discord
    text, private = reply(
        await discord.slash("odds fire", user=EVE, channel="1", unit="3rd Squad", target="Gruppe 1")
    )
    assert private and "There is no game" in text
    await started_game(bot, discord)
    text, private = reply(
        await discord.slash("odds fire", user=ANN, channel="1", unit="3rd Squad", target="Gruppe 1")
    )
    assert private and text.startswith("3rd Squad at Gruppe 1 (")  # a player's plans stay private
    text, private = reply(
        await discord.slash("odds fire", user=ANN, channel="1", unit="3rd Squad", target="2nd Squad")
    )
    assert private and text == "2nd Squad is on 3rd Squad's own side"
    # only your own units: a spectator, or a player naming the enemy's, learns nothing of them
    text, _ = reply(
        await discord.slash("odds fire", user=EVE, channel="1", unit="3rd Squad", target="Gruppe 1")
    )
    assert text == "You are not playing in this game, and no side can be joined now: watch with /game status"
    text, _ = reply(
        await discord.slash("odds fire", user=ANN, channel="1", unit="Gruppe 1", target="3rd Squad")
    )
    assert text.startswith("No unit called 'Gruppe 1'")


async def test_odds_for_a_test_with_a_reroll(bot_and_discord):
    _, discord = bot_and_discord
    text, _ = reply(await discord.slash("odds test", user=ANN, channel="5", needs=4, reroll="failed"))
    assert text == "4+ on a d6, failed dice rolled again once: 75.0%"


async def test_dividing_by_zero_is_refused_privately_and_not_logged(bot_and_discord):
    bot, discord = bot_and_discord
    sent = await discord.slash("roll", user=ANN, channel="7", dice="1d6/0")
    assert reply(sent) == ("'1d6/0' cannot be rolled: Cannot divide by zero.", True)
    assert await bot.dice.log("7", ANN) == []


@pytest.mark.parametrize(
    ("asked", "reason"),
    [
        ("2q7", "'q7' is not a die"),
        ("0d6", "0d6 rolls zero dice"),
        ("3d0", "3d0 asks for dice with no sides"),
        ("2 q7", "it has no dice in it"),
    ],
)
async def test_the_service_refuses_what_rolls_nothing_and_logs_nothing(store, asked, reason):
    dice = ScriptedDice([])
    service = DiceService(store, dice=lambda: dice)
    with pytest.raises(GameError, match=f"^'{asked}' cannot be rolled: {re.escape(reason)}"):
        await service.roll("5", ANN, asked)
    assert await service.log("5", ANN) == [] and dice.remaining == 0


async def test_a_die_the_bot_does_not_know_is_refused_through_the_command(bot_and_discord):
    bot, discord = bot_and_discord
    sent = await discord.slash("roll", user=ANN, channel="7", dice="2q7")
    assert reply(sent) == ("'2q7' cannot be rolled: 'q7' is not a die; write dice as NdS (2d6, 1d10)", True)
    assert await bot.dice.log("7", ANN) == []
