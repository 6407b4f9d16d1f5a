"""/games through the real command tree: what waits for each user across channels, only for
their eyes, turn pings by mention or direct message, captured at the HTTP boundary, and the
game's delay changed mid-game by a player, not by a spectator."""

from datetime import timedelta

import pytest

from bot.storage.ping_store import ping_of
from engine.dice import ScriptedDice, d6
from tests.bot.discord_harness import (
    ANN,
    EVE,
    OTTO,
    channel_posts,
    close_bot,
    open_bot,
    reply,
    started_game,
)

MINUTE = timedelta(minutes=1)
INITIATIVE = "the Axis won the initiative: choose who starts (/initiative)"


@pytest.fixture
async def bot_and_discord(tmp_path, monkeypatch):
    bot, discord = await open_bot(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", monkeypatch)
    yield bot, discord
    await bot.campaigns.close()
    await close_bot(bot)


async def test_games_mine_lists_what_waits_for_the_user_in_every_channel(bot_and_discord):
    bot, discord = bot_and_discord
    await started_game(bot, discord, channel="1")  # axis (Otto) won the initiative
    await discord.slash("initiative", user=OTTO, channel="1", choice="start")
    await discord.slash("act", user=OTTO, channel="1", unit="Gruppe 3", move="50,39")
    closes = int((bot.games.clock.now() + timedelta(seconds=120)).timestamp())
    await started_game(bot, discord, channel="2")
    await discord.slash(
        "campaign new",
        user=ANN,
        channel="3",
        name="Barrikady",
        german=f"<@{ANN}>",
        russian=f"<@{OTTO}>",
        german_cpp=10,
        russian_cpp=12,
        days=2,
    )
    deadline = int((bot.games.clock.now() + timedelta(days=1)).timestamp())

    text, private = reply(await discord.slash("games mine", user=ANN, channel="9"))
    assert private and text == (
        "Waiting for you:\n"
        "- <#1>: game: the Allies may react (/react) or let it pass (/noreact), "
        f"the window closes <t:{closes}:R>\n"
        "- <#3>: campaign **Barrikady**, phase 1 (17 Oct purchases): the German side owes its RG purchases "
        f"for the CG Day (or none) (/campaign submit), deadline <t:{deadline}:R>"
    )
    text, private = reply(await discord.slash("games mine", user=OTTO, channel="9"))
    assert private and text == (
        "Waiting for you:\n"
        "- <#3>: campaign **Barrikady**, phase 1 (17 Oct purchases): the Russian side owes its RG purchases "
        f"for the CG Day (or none) (/campaign submit), deadline <t:{deadline}:R>\n"
        f"- <#2>: game: {INITIATIVE}"
    )
    text, private = reply(await discord.slash("games mine", user=EVE, channel="9"))
    assert private and text == "Nothing waits for you: no game or campaign needs your move."


async def test_a_player_who_chose_direct_messages_gets_one_after_the_games_delay(bot_and_discord):
    bot, discord = bot_and_discord
    text, private = reply(await discord.slash("games ping", user=OTTO, channel="1", how="dm"))
    assert private and text.startswith("When a game waits for you, you get a direct message")
    await discord.slash("game new", user=ANN, channel="1", ping_minutes=30)
    text, private = reply(await discord.slash("games ping", user=OTTO, channel="1"))
    assert private and text.endswith(
        "(/games ping how: to change it)\nThis channel's game pings after 30 minutes."
    )
    await discord.slash("game join", user=ANN, channel="1", side="allies")
    await discord.slash("game join", user=OTTO, channel="1", side="axis")
    bot.games.dice = lambda: ScriptedDice([d6(2), d6(5)])
    await discord.slash("game start", user=OTTO, channel="1")
    before = len(discord.sent)
    await bot.games.clock.advance(29 * MINUTE)
    assert discord.sent[before:] == []
    await bot.games.clock.advance(MINUTE)
    sent = discord.sent[before:]
    assert [e["payload"] for e in sent if e["route"] == "POST /users/@me/channels"] == [
        {"recipient_id": int(OTTO)}
    ]
    assert discord.direct_messages(sent) == [(OTTO, f"The game in <#1> waits for you: {INITIATIVE}")]
    assert len(channel_posts(sent)) == 1  # the direct message, nothing in the channel


async def test_closed_direct_messages_fall_back_to_a_mention_in_the_channel(bot_and_discord):
    bot, discord = bot_and_discord
    await discord.slash("games ping", user=OTTO, channel="1", how="dm")
    discord.refused.add("POST /users/@me/channels")
    await started_game(bot, discord)
    before = len(discord.sent)
    await bot.games.clock.advance(10 * MINUTE)
    posts = [(where, text) for where, text, _ in channel_posts(discord.sent[before:])]
    assert posts == [("1", f"<@{OTTO}>: the game waits for you: {INITIATIVE}")]


async def test_by_default_the_player_is_mentioned_and_not_once_they_acted(bot_and_discord):
    bot, discord = bot_and_discord
    await started_game(bot, discord)
    await bot.games.clock.advance(9 * MINUTE)
    await discord.slash("initiative", user=OTTO, channel="1", choice="start")  # Otto acts first
    before = len(discord.sent)
    await bot.games.clock.advance(9 * MINUTE)
    assert channel_posts(discord.sent[before:]) == []
    await bot.games.clock.advance(MINUTE)
    posts = [(where, text) for where, text, _ in channel_posts(discord.sent[before:])]
    act = "the Axis to act: declare an order or pass (/act, /pass)"
    assert posts == [("1", f"<@{OTTO}>: the game waits for you: {act}")]


async def test_a_player_changes_the_delay_in_the_channel_and_the_wait_keeps_its_start(bot_and_discord):
    bot, discord = bot_and_discord
    await started_game(bot, discord)  # Otto's wait begins; the default ping would come in 10 minutes
    await bot.games.clock.advance(4 * MINUTE)
    text, private = reply(await discord.slash("games delay", user=ANN, channel="1", minutes=30))
    assert not private and text == "Turn pings for this game now come after 30 minutes."
    before = len(discord.sent)
    await bot.games.clock.advance(26 * MINUTE - timedelta(seconds=1))
    assert channel_posts(discord.sent[before:]) == []
    await bot.games.clock.advance(timedelta(seconds=1))
    posts = [(where, text) for where, text, _ in channel_posts(discord.sent[before:])]
    assert posts == [("1", f"<@{OTTO}>: the game waits for you: {INITIATIVE}")]


async def test_a_spectator_may_not_change_the_delay(bot_and_discord):
    bot, discord = bot_and_discord
    await started_game(bot, discord)
    stored = await ping_of(bot.games.store, "1")
    text, private = reply(await discord.slash("games delay", user=EVE, channel="1", minutes=0))
    assert private and text == "Only the game's players and referees may change when its turn pings come"
    assert await ping_of(bot.games.store, "1") == stored
    text, private = reply(await discord.slash("games delay", user=ANN, channel="2", minutes=5))
    assert private and text == "There is no game in this channel: start one with /game new"


async def test_a_ping_discord_refuses_is_sent_again_with_the_same_nonce_until_it_is_posted(bot_and_discord):
    bot, discord = bot_and_discord
    await started_game(bot, discord)
    discord.refused.add("POST /channels/{channel_id}/messages")  # say Discord is briefly down
    before = len(discord.sent)
    await bot.games.clock.advance(10 * MINUTE)
    discord.refused.clear()
    await bot.games.clock.advance(timedelta(seconds=5))  # the outbox tries it again
    tries = [e for e in discord.sent[before:] if e["route"] == "POST /channels/{channel_id}/messages"]
    assert len(tries) == 3  # refused, refused again at once, then posted a second later
    assert {
        (e["payload"]["content"], e["payload"]["nonce"], e["payload"]["enforce_nonce"]) for e in tries
    } == {
        (f"<@{OTTO}>: the game waits for you: {INITIATIVE}", tries[0]["payload"]["nonce"], True)
    }  # one message as Discord shows it
