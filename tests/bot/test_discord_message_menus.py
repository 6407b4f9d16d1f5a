"""A message's menu through the real command tree: "Look up rules" answers every rule number the
message cites with its section, privately, from the server's library (the bot's own and the
documents the server imported), at most five, saying how many; "Roll dice" rolls the message's
dice expressions as /roll does, for the channel, and logs them."""

from pathlib import Path

import pytest

from bot.command_schema import MENUS
from bot.services.rules_service import MOST_CITED
from engine.dice import ScriptedDice
from tests.bot.discord_harness import (
    ANN,
    EVE,
    MANAGE_GUILD,
    OTTO,
    Upload,
    _message,
    close_bot,
    messages,
    open_bot,
    reply,
)

NUMBERED = (Path(__file__).parent / "data" / "numbered-rules.txt").read_bytes()
CITING = "Per 63.22 the smoke goes, O11.6133 lets the squad out, RB9 leaves rubble; IC12.6 for ours."


@pytest.fixture
async def bot_and_discord(tmp_path, monkeypatch):
    bot, discord = await open_bot(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", monkeypatch)
    discord.permissions[ANN] = MANAGE_GUILD
    yield bot, discord
    await close_bot(bot)


async def imported(discord) -> None:
    await discord.slash("rules import", user=ANN, channel="5", document=Upload("asl.txt", NUMBERED))


def acknowledged_privately(sent) -> bool:
    (callback,) = [e for e in sent if e["route"].endswith("/callback")]
    return callback["payload"] == {"type": 5, "data": {"flags": 64}}


async def test_look_up_rules_answers_each_number_the_message_cites_with_its_section_privately(
    bot_and_discord,
):
    _, discord = bot_and_discord
    await imported(discord)
    sent = await discord.message_menu("Look up rules", CITING, user=EVE, channel="5")
    text, private = reply(sent)
    assert private and acknowledged_privately(sent)
    headings = [line.split(" · ")[0] for line in text.split("\n") if line.startswith("**")]
    assert headings == [
        "**63.22 Dispersal**",
        "**O11.6133 Sewer Exit**",
        "**RB9 Rubble**",
        "**IC12.6 Smoke (p. 12)**",
    ]
    assert "the wind carrying them off" in text and "The message cites" not in text


async def test_the_sections_are_the_servers_library(bot_and_discord):
    _, discord = bot_and_discord
    text, private = reply(await discord.message_menu("Look up rules", CITING, user=EVE, channel="5"))
    parts = text.split("\n\n")
    assert (
        private and parts[0] == "No section O11.6133 in this server's rules library: try words, or /library"
    )
    assert parts[1].startswith("**IC12.6 Smoke (p. 12)**")  # of the bot's own summaries
    assert parts[-1] == "No section in this server's rules library for 63.22, RB9"  # perhaps not rules


async def test_a_message_citing_no_rule_is_answered_so_privately(bot_and_discord):
    _, discord = bot_and_discord
    sent = await discord.message_menu("Look up rules", "Nice shot, Otto!", user=EVE, channel="5")
    assert reply(sent) == ("This message cites no rule number (such as 63.22, O11.6133, RB9 or IC12.6)", True)
    assert acknowledged_privately(sent)


async def test_many_citations_are_bounded_and_the_rest_named(bot_and_discord):
    _, discord = bot_and_discord
    numbers = [f"IC26.{n}" for n in range(1, 8)] + ["IC12.6"]
    sent = await discord.message_menu("Look up rules", "See " + ", ".join(numbers), user=EVE, channel="5")
    text = "\n".join(messages(sent))  # long: in several messages, each private
    followed = [e["payload"] for e in sent if e["route"] == "POST /webhooks/{webhook_id}/{webhook_token}"]
    assert acknowledged_privately(sent) and followed and all(f["flags"] & 64 for f in followed)
    assert MOST_CITED == 5
    assert [line.split(" ")[0] for line in text.split("\n") if line.startswith("**")] == [
        f"**{number}" for number in numbers[:MOST_CITED]
    ]
    assert text.endswith(
        "The message cites 8 rule numbers: the first 5 were looked up; ask /rule for the others: "
        "IC26.6, IC26.7, IC12.6"
    )


async def test_the_bots_own_card_is_read_from_its_components(bot_and_discord):
    _, discord = bot_and_discord
    card = {
        **_message(5, ""),
        "flags": 1 << 15,  # Components V2: the text is in the components
        "components": [
            {"type": 17, "components": [{"type": 10, "id": 2, "content": "A failed IC12.6 test"}]}
        ],
    }
    text, private = reply(await discord.message_menu("Look up rules", card, user=EVE, channel="5"))
    assert private and text.startswith("**IC12.6 Smoke (p. 12)**")


async def test_roll_dice_rolls_the_messages_expressions_for_the_channel_and_logs_them(bot_and_discord):
    bot, discord = bot_and_discord
    bot.dice.dice = lambda: ScriptedDice([(10, 7), (10, 3), (6, 6), (6, 2)])
    sent = await discord.message_menu(
        "Roll dice", "We roll 2d10 5+ for the MG, then 2d6+1 for morale.", user=ANN, channel="5"
    )
    text, private = reply(sent)
    assert not private and not acknowledged_privately(sent)
    assert (
        text == f"<@{ANN}> rolls `2d10 5+; 2d6+1`\n2d10 5+: 7, 3 -> **1 success**\n2d6 (**6**, 2) + 1 = `9`"
    )
    (logged,) = await bot.dice.log("5", OTTO)
    assert (logged.user_id, logged.asked) == (ANN, "2d10 5+; 2d6+1")


async def test_a_message_without_dice_is_refused_privately_and_nothing_logged(bot_and_discord):
    bot, discord = bot_and_discord
    text, private = reply(
        await discord.message_menu("Roll dice", "Dr. Otto moves 12.5 inches", user=ANN, channel="5")
    )
    assert (text, private) == (
        "This message holds no dice expression to roll (such as 2d6+1, 2d10 5+, DR or dr)",
        True,
    )
    assert await bot.dice.log("5", ANN) == []


async def test_more_dice_than_one_roll_takes_are_rolled_up_to_its_limit_and_the_rest_counted(bot_and_discord):
    bot, discord = bot_and_discord
    bot.dice.dice = lambda: ScriptedDice([(6, 4)] * 10)
    text, private = reply(
        await discord.message_menu("Roll dice", " ".join(["1d6"] * 12), user=ANN, channel="5")
    )
    assert not private and text.count("1d6 (4) = `4`") == 10
    assert text.endswith("(2 more in the message not rolled: one roll takes at most 10)")


async def test_the_help_names_every_command_of_the_message_menu(bot_and_discord):
    _, discord = bot_and_discord
    text, _ = reply(await discord.slash("help", user=EVE, channel="5", topic="library"))
    assert all(f'"{name}"' in text for name in MENUS)


async def test_roll_dice_on_a_roll_the_bot_posted_rolls_what_was_asked_again(bot_and_discord):
    bot, discord = bot_and_discord
    bot.dice.dice = lambda: ScriptedDice([(10, 7), (10, 3), (6, 6), (6, 2)])
    posted, _ = reply(await discord.slash("roll", user=ANN, channel="5", dice="2d10 5+; 2d6+1"))
    bot.dice.dice = lambda: ScriptedDice([(10, 1), (10, 9), (6, 3), (6, 3)])
    text, _ = reply(await discord.message_menu("Roll dice", _message(5, posted), user=EVE, channel="5"))
    assert text == f"<@{EVE}> rolls `2d10 5+; 2d6+1`\n2d10 5+: 1, 9 -> **1 success**\n2d6 (3, 3) + 1 = `7`"
