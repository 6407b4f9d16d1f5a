"""/cards through the real command tree: a server's deck, the deal, hands seen only by their side."""

import pytest

from engine.dice import ScriptedDice
from tests.bot.discord_harness import (
    ANN,
    EVE,
    MANAGE_GUILD,
    OTTO,
    close_bot,
    form,
    messages,
    open_bot,
    reply,
    started_game,
)
from tests.engine.test_cards import DECK, IN_ORDER


@pytest.fixture
async def table(tmp_path, monkeypatch):
    bot, discord = await open_bot(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", monkeypatch)
    discord.permissions[EVE] = MANAGE_GUILD
    await started_game(bot, discord)
    yield bot, discord
    await close_bot(bot)


async def test_a_deck_is_dealt_and_each_side_sees_only_its_own_hand(table):
    bot, discord = table
    refused, _ = reply(await discord.slash("cards deck", user=ANN, channel="1", name="Generic"))
    assert "Manage Server" in refused
    opened = form(await discord.slash("cards deck", user=EVE, channel="1", name="Generic"))
    saved = messages(await discord.submit(opened, {"Cards": DECK}, user=EVE, channel="1"))
    assert saved == ["Saved the deck **Generic**: 16 cards"]
    bot.games.dice = lambda: ScriptedDice(IN_ORDER)
    dealt, private = reply(await discord.slash("cards deal", user=ANN, channel="1", deck="Generic"))
    assert not private and "seven dealt to each side" in dealt and "Card 3" not in dealt
    hand, private = reply(await discord.slash("cards hand", user=ANN, channel="1"))
    assert private and "Card 3" in hand and "Card 10" not in hand and "Long Watch" not in hand
    assert await discord.autocomplete("cards use", "card", "", user=OTTO, channel="1") == [
        *(f"Card {n}" for n in range(10, 16)),
        "Long Watch",
    ]
    spectator, private = reply(await discord.slash("cards hand", user=EVE, channel="1"))
    assert private and "You are not playing in this game" in spectator
    bot.games.dice = lambda: ScriptedDice([])
    played, private = reply(
        await discord.slash("cards use", user=OTTO, channel="1", action="play", card="Card 11")
    )
    assert not private and "The Axis play Card 11 (cost 2; any time): does thing 11" in played
