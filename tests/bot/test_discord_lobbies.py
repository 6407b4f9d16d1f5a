"""A lobby's whole life through the real discord.py command tree (issue 34): posted with /lfg
post, listed, joined by a tap (the game made in a thread of its own, both players seated, the
post edited), refused to its poster, to a second joiner, after it expired or was withdrawn; two
joiners at once; its expiry with a notice, also after a restart; a thread the bot may not start;
a forum's post; a scenario's joiner bringing a force. On SQLite and PostgreSQL."""

import asyncio

import pytest

from bot.services.deadline_loop import DeadlineLoop
from bot.storage.lobby_store import lobby_of
from engine.dice import ScriptedDice, d6
from engine.state import Phase
from tests.bot.discord_double import Fault, quick_retries
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


pytestmark = pytest.mark.both_databases  # the claims, the race and the expiry on either database


@pytest.fixture
async def database(database_url):
    return database_url


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
    (start,) = [c for c in walk_components(card["payload"]) if c.get("label") == "Start"]
    assert f"Taken by <@{OTTO}>: the game is in <#{thread}>." in post_text(discord, message)
    assert join_shown(discord, message)["disabled"] is True
    text, private = reply(sent)
    assert private and text == f"You joined: the game is in <#{thread}>."

    listed, _ = reply(await discord.slash("lfg list", user=EVE, channel="9"))
    assert listed == "No open games in this server: post one with `/lfg post`."
    bot.games.dice = lambda: ScriptedDice([d6(2), d6(5)])
    await discord.click(start, user=ANN, channel=thread)  # the game plays on in its thread
    assert (await bot.games.game(thread)).phase is Phase.INITIATIVE


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
    assert (
        len(told) == 2 and told[0].startswith("Too late: someone else") and told[1].startswith("You joined")
    )
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


async def test_the_poster_or_a_moderator_withdraws_a_lobby_and_nobody_joins_it_after(lobby):
    bot, discord = lobby
    join, message = await post(discord)
    await post(discord, user=OTTO)  # lobby 2, Otto's
    text, private = reply(await discord.slash("lfg cancel", user=EVE, channel=CHANNEL, lobby=1))
    assert private and text.startswith("Only the lobby's poster (or a moderator")
    assert (await lobby_of(bot.games.store, 1)).status == "open"
    text, private = reply(await discord.slash("lfg cancel", user=ANN, channel="9"))  # her latest
    assert private and text == "Lobby #1 is withdrawn: nobody can join it now."
    assert "Withdrawn: nobody joins it now." in post_text(discord, message)
    assert join_shown(discord, message)["disabled"] is True
    text, private = reply(await discord.click(join, user=OTTO, channel=CHANNEL))
    assert private and text == "This lobby was withdrawn"
    text, private = reply(await discord.slash("lfg cancel", user=ANN, channel=CHANNEL, lobby=1))
    assert private and text == "This lobby was withdrawn"
    discord.permissions[EVE] = MANAGE_MESSAGES
    text, private = reply(await discord.slash("lfg cancel", user=EVE, channel=CHANNEL, lobby=2))
    assert private and text == "Lobby #2 is withdrawn: nobody can join it now."
    assert [found.id for found in await bot.lobbies.listing(GUILD)] == []


async def test_a_thread_the_bot_may_not_start_leaves_the_lobby_open_and_nothing_made(lobby):
    bot, discord = lobby
    join, message = await post(discord)
    discord.refused.add(THREAD)
    sent = await discord.click(join, user=OTTO, channel=CHANNEL)
    text, private = reply(sent)
    assert private and "I need **Create Public Threads** and **Send Messages in Threads**" in text
    assert requests(sent, EDIT) == [] and requests(sent, POST) == []
    stored = await lobby_of(bot.games.store, 1)
    assert (stored.status, stored.joiner, stored.thread_id) == ("open", None, None)
    assert await bot.games.store.load(message) is None
    discord.refused.clear()  # granted: the next joiner gets the game
    text, _ = reply(await discord.click(join, user=EVE, channel=CHANNEL))
    assert text == f"You joined: the game is in <#{message}>."
    assert (await bot.games.game(message)).sides["axis"].players == [EVE]


async def test_a_lobby_posted_in_a_forums_post_has_its_game_in_a_new_post_of_the_forum(lobby):
    bot, discord = lobby
    forum, asked_in = "40", "41"
    discord.channel_types[forum] = 15
    discord.threads[asked_in] = forum  # /lfg is typed in one of the forum's posts
    join, message = await post(discord, channel=asked_in, side="axis")
    sent = await discord.click(join, user=OTTO, channel=asked_in)
    (started,) = requests(sent, "POST /channels/{channel_id}/threads")
    assert started["url"].endswith(f"/channels/{forum}/threads") and "message" in started["payload"]
    thread = next(t for t, parent in discord.threads.items() if parent == forum and t != asked_in)
    state = await bot.games.game(thread)
    assert state.sides["axis"].players == [ANN] and state.sides["allies"].players == [OTTO]
    assert f"the game is in <#{thread}>" in post_text(discord, message)


async def test_a_lobby_is_posted_in_a_text_channel_or_a_forums_post_only(lobby):
    bot, discord = lobby
    discord.threads["42"] = CHANNEL  # a thread of a text channel
    text, private = reply(await discord.slash("lfg post", user=ANN, channel="42", side="allies"))
    assert private and text.startswith("Post /lfg in a text channel, or in a forum's post")
    assert await bot.lobbies.listing(GUILD) == []


async def test_a_scenario_lobby_seats_each_player_with_the_force_they_bring(lobby):
    bot, discord = lobby
    await make_force(discord, ANN, "us", "Easy", "Infantry Detachment", "Infantry Detachment", "Sherman 75mm")
    await make_force(discord, OTTO, "german", "KG", "Infantry Detachment", "Infantry Detachment", "Panther")
    text, private = reply(
        await discord.slash("lfg post", user=ANN, channel=CHANNEL, side="allies", scenario="meeting")
    )
    assert (
        private and text == "A scenario is played with the forces the players bring: name yours with force:"
    )
    text, private = reply(
        await discord.slash(
            "lfg post", user=ANN, channel=CHANNEL, side="allies", scenario="meeting", force="Easy", points=400
        )
    )
    assert private and text == "Easy is built to 500 points: this game takes 400"
    join, message = await post(discord, scenario="meeting", force="Easy", points=500)
    opened = await discord.click(join, user=OTTO, channel=CHANNEL)
    asked = form(opened)
    sent = await discord.submit(asked, {"Your force": "Nobody's"}, user=OTTO, channel=CHANNEL)
    text, private = reply(sent)
    assert private and text.startswith("You have no force called") and requests(sent, THREAD) == []
    assert (await lobby_of(bot.games.store, 1)).status == "open"
    opened = await discord.click(join, user=OTTO, channel=CHANNEL)  # a form again
    sent = await discord.submit(form(opened), {"Your force": "KG"}, user=OTTO, channel=CHANNEL)
    assert reply(sent)[0] == f"You joined: the game is in <#{message}>."
    state = await bot.games.game(message)
    assert state.sides["allies"].players == [ANN] and state.sides["axis"].players == [OTTO]
    assert {unit.side for unit in state.units.values()} == {"allies", "axis"}


async def test_a_double_tap_makes_one_game_and_the_join_button_outlives_a_restart(database, monkeypatch):
    bot, discord = await open_bot(database, monkeypatch)
    join, message = await post(discord)
    await post(discord)  # lobby 2
    await close_bot(bot)

    bot, discord = await open_bot(database, monkeypatch)  # a restart: the posts' buttons still work
    try:
        before = len(discord.delivered)
        await asyncio.gather(*(discord.click(join, user=OTTO, channel=CHANNEL) for _ in range(2)))
        said = [text_of(m) for route, m, _ in discord.delivered[before:] if "/webhooks/" in route]
        assert sorted(t for t in said if t.startswith("You joined")) == [
            "You joined this game already: it is in its own thread",
            f"You joined: the game is in <#{message}>.",
        ]
        assert len(requests(discord.sent, THREAD)) == 1
        assert (await bot.games.game(message)).sides["axis"].players == [OTTO]
    finally:
        await close_bot(bot)


async def test_an_expiry_notice_its_process_did_not_make_is_made_by_the_next(database, monkeypatch):
    """The lobby expired, but Discord refused every edit of its post until the process went
    down: the notice waits in the outbox, and the next process's claim loop makes it."""
    quick_retries(monkeypatch)  # discord.py's own waits between its tries of a 5xx
    bot, discord = await open_bot(database, monkeypatch)
    _, message = await post(discord, hours=1)
    down = discord.fail(EDIT, Fault(503, 0, "503: Service Unavailable", times=None))
    await bot.games.clock.advance(3600)
    assert down.hits and (await lobby_of(bot.games.store, 1)).status == "expired"
    await close_bot(bot)

    bot, discord = await open_bot(database, monkeypatch)
    try:
        await bot.games.clock.advance(3600 + 60)  # past the dead process's lease on the notice
        assert await DeadlineLoop(bot.games, lobbies=bot.lobbies).claim_once() == 1
        await bot.games.clock.advance(0)
        assert "Expired <t:" in post_text(discord, message)
    finally:
        await close_bot(bot)


async def test_a_join_its_process_gave_up_frees_the_lobby_after_its_lease(lobby):
    """A join whose process died mid-way (the lobby held, no game made) holds the lobby a
    quarter of an hour at most: then another member joins it; and one so held when its time runs
    out expires like an open one."""
    bot, discord = lobby
    join, message = await post(discord, hours=1)
    await bot.lobbies.join(1, OTTO)  # claimed, and nothing after: its process died
    text, _ = reply(await discord.click(join, user=EVE, channel=CHANNEL))
    assert text == "Too late: someone else is taking this game"
    await bot.games.clock.advance(15 * 60 + 1)
    text, _ = reply(await discord.click(join, user=EVE, channel=CHANNEL))
    assert text == f"You joined: the game is in <#{message}>."
    assert (await bot.games.game(message)).sides["axis"].players == [EVE]

    join, message = await post(discord, hours=1)  # lobby 2
    await bot.games.clock.advance(3600 - 60)
    await bot.lobbies.join(2, OTTO)  # given up too, a minute before its hour runs out
    await bot.games.clock.advance(60)
    assert (await lobby_of(bot.games.store, 2)).status == "joining"  # the join's lease runs on
    await bot.games.clock.advance(15 * 60 + 1)
    assert await DeadlineLoop(bot.games, lobbies=bot.lobbies).claim_once() == 1
    await bot.games.clock.advance(0)
    assert (await lobby_of(bot.games.store, 2)).status == "expired"
    assert "Expired <t:" in post_text(discord, message)


async def test_a_thread_the_bot_may_not_post_in_still_holds_the_game_and_the_joiner_is_told(lobby):
    bot, discord = lobby
    join, message = await post(discord)
    discord.refused.add(POST)  # Send Messages in Threads missing: the thread starts, the card not
    text, private = reply(await discord.click(join, user=OTTO, channel=CHANNEL))
    assert private and text == (
        f"You joined: the game is in <#{message}>. I cannot post its card there: I need "
        "**Send Messages in Threads** (/game status shows it meanwhile)."
    )
    assert (await bot.games.game(message)).sides["axis"].players == [OTTO]
    assert (await lobby_of(bot.games.store, 1)).status == "taken"
    assert f"Taken by <@{OTTO}>" in post_text(discord, message)


async def test_a_thread_made_by_a_join_whose_process_died_is_the_games(lobby):
    """Discord made the thread, but the process died before it was kept: the next join is told
    the post has a thread already, and makes the game in it (a thread of a post has its id)."""
    bot, discord = lobby
    join, message = await post(discord)
    discord.fail(THREAD, Fault(400, 160004, "A thread has already been created for this message"))
    text, _ = reply(await discord.click(join, user=OTTO, channel=CHANNEL))
    assert text == f"You joined: the game is in <#{message}>."
    assert (await bot.games.game(message)).sides["axis"].players == [OTTO]
