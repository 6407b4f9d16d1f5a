"""A lobby's whole life through the real discord.py command tree (issue 34): posted with /lfg
post, listed, joined by a tap (the game made in a thread of its own, both players seated, the
post edited), refused to its poster, to a second joiner, after it expired or was withdrawn; two
joiners at once; its expiry with a notice, also after a restart; a thread the bot may not start;
a forum's post; a scenario's joiner bringing a force."""

import asyncio

import pytest

from bot.services.deadline_loop import DeadlineLoop
from bot.storage.lobby_store import lobby_of
from tests.bot.discord_double import Fault
from tests.bot.discord_harness import (
    ANN,
    EVE,
    GUILD,
    MANAGE_MESSAGES,
    OTTO,
    buttons,
    close_bot,
    form,
    open_bot,
    reply,
    text_of,
)
from tests.bot.test_discord_forces import make_force

CHANNEL = "1"
THREAD = "POST /channels/{channel_id}/messages/{message_id}/threads"
EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"
POST = "POST /channels/{channel_id}/messages"


@pytest.fixture
async def database(tmp_path):
    return f"sqlite+aiosqlite:///{tmp_path / 'games.db'}"


@pytest.fixture
async def lobby(database, monkeypatch):
    bot, discord = await open_bot(database, monkeypatch)
    yield bot, discord
    await close_bot(bot)


def requests(sent: list[dict], route: str) -> list[dict]:
    return [entry for entry in sent if entry["route"] == route]


async def post(discord, user: str = ANN, channel: str = CHANNEL, **options) -> tuple[dict, str]:
    """/lfg post: the Join button of its post, and the post's message id."""
    sent = await discord.slash("lfg post", user=user, channel=channel, **({"side": "allies"} | options))
    text, private = reply(sent)
    assert not private, text
    message = next(m for route, m, _ in reversed(discord.delivered) if "/webhooks/" in route)
    return buttons(sent)["Join"], message["id"]


def post_text(discord, message_id: str) -> str:
    """The lobby's post as Discord keeps it now."""
    return text_of(discord.posted[message_id])


def join_shown(discord, message_id: str) -> dict:
    (join,) = [c for c in walk_components(discord.posted[message_id]) if c.get("type") == 2]
    return join


def walk_components(message: dict) -> list[dict]:
    from tests.bot.discord_harness import walk

    return walk(message["components"])


async def test_a_lobby_posted_listed_and_joined_makes_its_game_in_a_thread_of_its_own(lobby):
    bot, discord = lobby
    join, message = await post(discord, note="Friendly, first game", hours=12)
    assert join["custom_id"] == "iclobby:join:1"
    text = post_text(discord, message)
    assert text.startswith(f"**Open game #1**: <@{ANN}> takes **Allies**, against **Axis**: a quick battle")
    assert "> Friendly, first game" in text and "tap **Join**" in text

    listed, private = reply(await discord.slash("lfg list", user=EVE, channel="9"))
    assert private and f"**#1** <@{ANN}> takes Allies" in listed
    assert f"https://discord.com/channels/{GUILD}/{CHANNEL}/{message}" in listed

    sent = await discord.click(join, user=OTTO, channel=CHANNEL)
    (started,) = requests(sent, THREAD)
    assert started["url"].endswith(f"/channels/{CHANNEL}/messages/{message}/threads")
    thread = message  # a thread started from a message takes its id
    state = await bot.games.game(thread)
    assert state.sides["allies"].players == [ANN] and state.sides["axis"].players == [OTTO]
    with pytest.raises(Exception, match="no game"):
        await bot.games.game(CHANNEL)  # the channel keeps no game: the thread has it
    (card,) = [e for e in requests(sent, POST) if f"/channels/{thread}/" in e["url"]]
    card_text = text_of(card["payload"])
    assert card_text.startswith(f"<@{ANN}> and <@{OTTO}>: your game of lobby #1.")
    assert card["payload"]["allowed_mentions"]["users"] == [int(ANN), int(OTTO)]
    assert "Start" in {c.get("label") for c in walk_components(card["payload"])}
    assert f"Taken by <@{OTTO}>: the game is in <#{thread}>." in post_text(discord, message)
    assert join_shown(discord, message)["disabled"] is True
    text, private = reply(sent)
    assert private and text == f"You joined: the game is in <#{thread}>."

    listed, _ = reply(await discord.slash("lfg list", user=EVE, channel="9"))
    assert listed == "No open games in this server: post one with `/lfg post`."


async def test_the_poster_a_second_joiner_and_a_stale_tap_are_refused_privately_changing_nothing(lobby):
    bot, discord = lobby
    join, message = await post(discord)
    sent = await discord.click(join, user=ANN, channel=CHANNEL)
    text, private = reply(sent)
    assert private and text.startswith("This is your own lobby")
    assert requests(sent, THREAD) == [] and (await lobby_of(bot.games.store, 1)).status == "open"

    await discord.click(join, user=OTTO, channel=CHANNEL)
    before = await lobby_of(bot.games.store, 1)
    sent = await discord.click(join, user=EVE, channel=CHANNEL)
    text, private = reply(sent)
    assert private and text == "Too late: someone else took this game"
    assert requests(sent, THREAD) == [] and requests(sent, EDIT) == []
    assert await lobby_of(bot.games.store, 1) == before
    text, private = reply(await discord.click(join, user=OTTO, channel=CHANNEL))
    assert private and text == "You joined this game already: it is in its own thread"

    forged = {**join, "custom_id": "iclobby:join:99"}
    text, private = reply(await discord.click(forged, user=EVE, channel=CHANNEL))
    assert private and text == "There is no lobby #99"


async def test_two_joiners_at_once_one_wins(lobby):
    bot, discord = lobby
    join, message = await post(discord)
    before = len(discord.delivered)
    await asyncio.gather(
        discord.click(join, user=OTTO, channel=CHANNEL), discord.click(join, user=EVE, channel=CHANNEL)
    )
    said = [text_of(m) for route, m, _ in discord.delivered[before:] if "/webhooks/" in route]
    told = sorted(text for text in said if text.startswith(("Too late", "You joined")))
    assert len(told) == 2 and told[0].startswith("Too late: someone else") and told[1].startswith("You joined")
    assert len(requests(discord.sent, THREAD)) == 1
    winner = (await lobby_of(bot.games.store, 1)).joiner
    state = await bot.games.game(message)
    assert state.sides["axis"].players == [winner] and winner in (OTTO, EVE)


async def test_a_lobby_expires_with_a_notice_and_refuses_joiners_after(lobby):
    bot, discord = lobby
    join, message = await post(discord, hours=2)
    await bot.games.clock.advance(2 * 3600 - 1)
    assert (await lobby_of(bot.games.store, 1)).status == "open"
    await bot.games.clock.advance(1)
    assert (await lobby_of(bot.games.store, 1)).status == "expired"
    assert "Expired <t:" in post_text(discord, message)
    assert join_shown(discord, message)["disabled"] is True
    sent = await discord.click(join, user=OTTO, channel=CHANNEL)
    text, private = reply(sent)
    assert private and text == "This lobby expired: nobody joins it now"
    assert requests(sent, THREAD) == []


@pytest.mark.parametrize("how", ["resumed", "claimed"])
async def test_a_lobby_that_expired_while_the_bot_was_down_expires_with_its_notice_retried(
    database, monkeypatch, how
):
    """After a restart, the lobby whose time ran out meanwhile expires: re-armed at start-up
    (one process on SQLite) or claimed by the deadline loop (any process); its notice, refused
    twice by Discord, is tried again until its post is edited."""
    bot, discord = await open_bot(database, monkeypatch)
    _, message = await post(discord, hours=1)
    await close_bot(bot)

    bot, discord = await open_bot(database, monkeypatch)
    try:
        refused = discord.fail(EDIT, Fault(403, 50013, "Missing Permissions", times=2))
        await bot.games.clock.advance(3600)  # an hour later
        if how == "resumed":
            await bot.lobbies.resume()
        else:
            assert await DeadlineLoop(bot.games, lobbies=bot.lobbies).claim_once() == 1
        await bot.games.clock.advance(0)
        assert refused.hits == 2 and (await lobby_of(bot.games.store, 1)).status == "expired"
        assert message not in discord.posted  # refused at once, and again at once
        await bot.games.clock.advance(1)  # the outbox tries the notice again a second later
        assert "Expired <t:" in post_text(discord, message)
        assert join_shown(discord, message)["disabled"] is True
    finally:
        await close_bot(bot)
