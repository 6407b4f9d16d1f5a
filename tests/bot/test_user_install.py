"""A user's install of the bot, through the real discord.py command tree: the lookups (/roll,
/chart, /odds, /rule, /library) answer in the bot's direct messages, in private channels and in
servers that never installed the bot, /rule and /library from the bot's own library where no
server library is; a game, or a server's upkeep, is refused there, politely, and nothing is
written."""

from pathlib import Path

import pytest

from bot.services.game_service import GameError
from tests.bot.discord_harness import ANN, EVE, MANAGE_GUILD, Upload, close_bot, messages, open_bot, reply

NUMBERED = (Path(__file__).parent / "data" / "numbered-rules.txt").read_bytes()
SERVER, BOT_DM, GROUP_CHAT, NOT_INSTALLED = "5", "901", "902", "903"  # channels
IMPORTED = "O11.6133"  # a section of the document the server imported
SHIPPED = "IC13.1"  # a section of the bot's own library
CITED = f"IC12.6 for the smoke, {IMPORTED} for the sewer"  # a message citing both
REFUSED_HERE = (
    "/game works only in a server the bot is installed in. "
    "Here you may use /roll, /chart, /odds, /rule, /library."
)


@pytest.fixture
async def bot_and_discord(tmp_path, monkeypatch):
    """The server (channel 5) has imported a document; Eve has the bot in her direct messages,
    in a group chat, and in a channel of a server that never installed it."""
    bot, discord = await open_bot(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", monkeypatch)
    discord.permissions[ANN] = MANAGE_GUILD
    await discord.slash("rules import", user=ANN, channel=SERVER, document=Upload("asl.txt", NUMBERED))
    discord.dm_channels[BOT_DM] = EVE
    discord.private_channels.add(GROUP_CHAT)
    discord.user_installed.add(NOT_INSTALLED)
    yield bot, discord
    await close_bot(bot)


@pytest.mark.parametrize("channel", [BOT_DM, GROUP_CHAT])
async def test_rule_and_library_answer_from_the_bots_own_library_without_a_server(bot_and_discord, channel):
    _, discord = bot_and_discord
    text, _ = reply(await discord.slash("rule", user=EVE, channel=channel, query=SHIPPED))
    assert text.startswith(f"**{SHIPPED} Company Morale Test (p. 13)**")
    text, _ = reply(await discord.slash("rule", user=EVE, channel=channel, query=IMPORTED))
    assert text == f"No section {IMPORTED} in the bot's own rules library: try words, or /library"
    listed, private = reply(await discord.slash("library", user=EVE, channel=channel))
    assert private and "ships with the bot" in listed and "asl" not in listed
    assert discord.violations == []


async def test_a_server_that_never_installed_the_bot_reads_its_library_if_it_has_one(bot_and_discord):
    _, discord = bot_and_discord
    text, _ = reply(await discord.slash("rule", user=EVE, channel=NOT_INSTALLED, query=IMPORTED))
    assert text.startswith(f"**{IMPORTED} Sewer Exit** · asl")


@pytest.mark.parametrize("channel", [BOT_DM, GROUP_CHAT])
async def test_the_message_menu_looks_rules_up_in_the_bots_own_library(bot_and_discord, channel):
    _, discord = bot_and_discord
    text, private = reply(await discord.message_menu("Look up rules", CITED, user=EVE, channel=channel))
    assert private and text.startswith("**IC12.6 Smoke (p. 12)**")
    assert text.endswith(f"No section {IMPORTED} in the bot's own rules library: try words, or /library")
    text, _ = reply(await discord.message_menu("Roll dice", "Roll 2d6 for the MG", user=EVE, channel=channel))
    assert text.startswith(f"<@{EVE}> rolls")


@pytest.mark.parametrize("channel", [BOT_DM, GROUP_CHAT, NOT_INSTALLED])
async def test_the_dice_charts_and_odds_answer_everywhere(bot_and_discord, channel):
    _, discord = bot_and_discord
    text, private = reply(await discord.slash("roll", user=EVE, channel=channel, dice="2d6"))
    assert not private and text.startswith(f"<@{EVE}> rolls `2d6`")
    assert reply(await discord.slash("chart list", user=EVE, channel=channel))[0]
    text, _ = reply(await discord.slash("odds test", user=EVE, channel=channel, needs=4))
    assert "%" in text
    assert discord.violations == []


@pytest.mark.parametrize("channel", [GROUP_CHAT, NOT_INSTALLED])
async def test_a_game_where_no_server_installed_the_bot_is_refused_and_nothing_is_written(
    bot_and_discord, channel
):
    bot, discord = bot_and_discord
    text, private = reply(await discord.slash("game new", user=EVE, channel=channel))
    assert private and text == REFUSED_HERE
    with pytest.raises(GameError):
        await bot.games.game(channel)
    refused, _ = reply(await discord.slash("rules remove", user=EVE, channel=channel, name="asl"))
    assert refused.startswith("/rules works only in a server the bot is installed in.")
    listed, _ = reply(await discord.slash("library", user=EVE, channel=SERVER))
    assert "**asl**" in listed


async def test_a_users_own_things_are_kept_in_the_bots_direct_messages_but_not_in_a_group_chat(
    bot_and_discord,
):
    _, discord = bot_and_discord
    made, _ = reply(
        await discord.slash("table new", user=EVE, channel=BOT_DM, name="Farm", width=72.0, depth=48.0)
    )
    assert made.startswith('**Farm**: 72" x 48"')
    (refused,) = messages(
        await discord.slash("table new", user=EVE, channel=GROUP_CHAT, name="Ridge", width=48.0, depth=48.0)
    )
    assert refused == (
        "/table works only in a server the bot is installed in, or in your direct messages with the bot. "
        "Here you may use /roll, /chart, /odds, /rule, /library."
    )
    listed, _ = reply(await discord.slash("table list", user=EVE, channel=BOT_DM))
    assert "Farm" in listed and "Ridge" not in listed
