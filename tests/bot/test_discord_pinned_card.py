"""The pinned game card per channel, through the real discord.py command tree: made and pinned
when the game starts, edited once after each action, unpinned showing the result when the game
ends; without Pin Messages one notice, and the game goes on; a card someone deleted is made
again; a restarted bot edits the same card."""

import pytest

from bot.services.outcome import Outcome
from tests.bot.discord_double import Fault
from tests.bot.discord_harness import (
    ANN,
    OTTO,
    PIN_MESSAGES,
    close_bot,
    messages,
    open_bot,
    reply,
    started_game,
    text_of,
)

POST = "POST /channels/{channel_id}/messages"
EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"
PIN = "PUT /channels/{channel_id}/messages/pins/{message_id}"
UNPIN = "DELETE /channels/{channel_id}/messages/pins/{message_id}"
NOTICE = "I cannot pin a game card here: I need **Pin Messages**. The game goes on without one."


def requests(sent: list[dict], route: str) -> list[dict]:
    return [entry for entry in sent if entry["route"] == route]


def message_of(entry: dict) -> str:
    """The message id a request names (an edit's, a pin's)."""
    return entry["url"].rsplit("/", 1)[1]


@pytest.fixture
async def database(tmp_path):
    return f"sqlite+aiosqlite:///{tmp_path / 'games.db'}"


@pytest.fixture
async def pinning(database, monkeypatch):
    """A started game in channel 1, the bot allowed to pin: what the start sent with it."""
    bot, discord = await open_bot(database, monkeypatch)
    discord.app_permissions = PIN_MESSAGES
    before = len(discord.sent)
    await started_game(bot, discord)
    yield bot, discord, discord.sent[before:]
    await close_bot(bot)


def the_card(discord) -> tuple[str, str]:
    """The card the bot posted last to channel 1: its message id and its text as Discord keeps it."""
    card_id = next(
        m["id"] for route, m, _ in reversed(discord.delivered) if route == POST and m["channel_id"] == "1"
    )
    return card_id, text_of(discord.posted[card_id])


async def test_the_game_start_posts_the_card_and_pins_it(pinning):
    bot, discord, sent = pinning
    assert len([e for e in requests(sent, POST) if "/channels/1/" in e["url"]]) == 1
    card_id, text = the_card(discord)
    assert [message_of(pin) for pin in requests(sent, PIN)] == [card_id]
    assert text.startswith("**Game card**\nTurn 1")
    assert f"<@{ANN}>" in text and f"<@{OTTO}>" in text  # who plays
    assert "Waiting for **the Axis**" in text  # the initiative winner
    assert "token" in text
    assert "Break points lost: Allies 0 of" in text and "Axis 0 of" in text
    assert await bot.services.pins.card("1") == card_id
    assert NOTICE not in messages(sent)


async def test_each_action_edits_the_card_once_after_its_answer(pinning):
    bot, discord, _ = pinning
    card_id, _ = the_card(discord)
    sent = await discord.slash("initiative", user=OTTO, channel="1", choice="start")
    assert "The Axis start as the active player" in reply(sent)[0]
    (edit,) = requests(sent, EDIT)
    assert message_of(edit) == card_id
    answered = next(i for i, e in enumerate(sent) if e["route"].startswith("PATCH /webhooks/"))
    assert sent.index(edit) > answered  # the answer first
    assert "Turn 1 · active" in text_of(discord.posted[card_id])
    assert not requests(sent, POST) and not requests(sent, PIN)


async def test_the_game_over_unpins_the_card_showing_the_result(pinning):
    bot, discord, _ = pinning
    card_id, _ = the_card(discord)
    sent = await discord.slash("game concede", user=ANN, channel="1")
    assert [message_of(e) for e in requests(sent, EDIT)] == [card_id]
    assert [message_of(e) for e in requests(sent, UNPIN)] == [card_id]
    assert "Result: the Axis win" in text_of(discord.posted[card_id])
    assert await bot.services.pins.card("1") is None
    later = await discord.slash("game status", user=ANN, channel="1")
    assert not requests(later, EDIT)


async def test_without_pin_messages_one_notice_and_the_game_goes_on(database, monkeypatch):
    bot, discord = await open_bot(database, monkeypatch)
    try:
        before = len(discord.sent)
        await started_game(bot, discord)
        sent = discord.sent[before:]
        assert messages(sent).count(NOTICE) == 1
        assert not requests(sent, PIN)
        played = await discord.slash("initiative", user=OTTO, channel="1", choice="start")
        assert "The Axis start as the active player" in reply(played)[0]
        assert NOTICE not in messages(played)
        assert not requests(played, EDIT) and not requests(played, POST)
        assert (await bot.games.game("1")).active_side == "axis"
    finally:
        await close_bot(bot)


async def test_a_refused_pin_says_which_permission_and_keeps_no_card(database, monkeypatch):
    bot, discord = await open_bot(database, monkeypatch)
    discord.app_permissions = PIN_MESSAGES  # granted, as Discord told, but refused all the same
    discord.fail(PIN, "missing permissions")
    try:
        before = len(discord.sent)
        await started_game(bot, discord)
        assert messages(discord.sent[before:]).count(NOTICE) == 1
        assert await bot.services.pins.card("1") is None
        (posted,) = [e for e in requests(discord.sent[before:], POST) if "/channels/1/" in e["url"]]
        (deleted,) = requests(discord.sent[before:], "DELETE /channels/{channel_id}/messages/{message_id}")
        assert message_of(deleted) == the_card(discord)[0]  # the card not pinned is not left behind
        played = await discord.slash("initiative", user=OTTO, channel="1", choice="start")
        assert not requests(played, EDIT) and (await bot.games.game("1")).active_side == "axis"
    finally:
        await close_bot(bot)


async def test_a_card_someone_deleted_is_made_and_pinned_again(pinning):
    bot, discord, _ = pinning
    card_id, _ = the_card(discord)
    discord.fail(EDIT, "unknown message")
    sent = await discord.slash("initiative", user=OTTO, channel="1", choice="start")
    assert len([e for e in requests(sent, POST) if "/channels/1/" in e["url"]]) == 1
    new_id, text = the_card(discord)
    assert new_id != card_id and "Waiting for **the Axis**" in text
    assert [message_of(pin) for pin in requests(sent, PIN)] == [new_id]
    assert await bot.services.pins.card("1") == new_id


async def test_a_restarted_bot_edits_the_same_card(database, monkeypatch):
    bot, discord = await open_bot(database, monkeypatch)
    discord.app_permissions = PIN_MESSAGES
    await started_game(bot, discord)
    card_id, _ = the_card(discord)
    await close_bot(bot)
    bot, discord = await open_bot(database, monkeypatch)
    try:
        sent = await discord.slash("initiative", user=OTTO, channel="1", choice="start")
        assert [message_of(e) for e in requests(sent, EDIT)] == [card_id]
        assert not requests(sent, POST) and not requests(sent, PIN)
    finally:
        await close_bot(bot)


async def test_a_channel_full_of_pins_is_told_so_and_keeps_no_card(database, monkeypatch):
    bot, discord = await open_bot(database, monkeypatch)
    discord.app_permissions = PIN_MESSAGES
    discord.fail(PIN, Fault(400, 30003, "Maximum number of pins reached (50)"))
    try:
        before = len(discord.sent)
        await started_game(bot, discord)
        assert "I cannot pin a game card here: this channel holds Discord's 50 pins already." in messages(
            discord.sent[before:]
        )
        assert await bot.services.pins.card("1") is None
    finally:
        await close_bot(bot)


async def test_a_window_closed_by_its_timer_edits_the_card_after_its_post(pinning):
    bot, discord, _ = pinning
    card_id, _ = the_card(discord)
    game = await bot.games.game("1")
    before = len(discord.sent)
    await bot.announce("1", Outcome(state=game, events=[], version=5))
    sent = discord.sent[before:]
    assert [e["route"] for e in sent if e["route"] in (POST, EDIT)] == [POST, EDIT]
    assert message_of(requests(sent, EDIT)[0]) == card_id
