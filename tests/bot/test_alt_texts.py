"""Every picture the bot posts is described (issue 30): each media gallery item and each file
attached, on every request sent through the harness, carries a description (alt text) of 1 to
1,024 characters, Discord's limit; the battlefield's says what its audience sees on it
(renderer.description)."""

from __future__ import annotations

import pytest

from engine.dice import ScriptedDice, d6
from tests.bot.discord_harness import (
    ANN,
    EVE,
    MANAGE_GUILD,
    OTTO,
    THREADS,
    Pick,
    close_bot,
    described,
    form,
    menus,
    open_bot,
    posts_in,
    started_game,
)

RUTH, BOSS = "307", "308"  # a referee, and a server admin who appoints her


@pytest.fixture
async def bot_and_discord(tmp_path, monkeypatch):
    bot, discord = await open_bot(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", monkeypatch)
    discord.app_permissions = THREADS  # side threads, where the referee's pictures go
    discord.permissions[BOSS] = MANAGE_GUILD
    yield bot, discord
    await close_bot(bot)


async def test_every_picture_the_bot_posts_is_described(bot_and_discord):
    """A refereed game from its start to its replay, its maps and dice, and a table built by
    taps: every picture sent, in a card or as a file, has its description."""
    bot, discord = bot_and_discord
    await started_game(bot, discord)
    await discord.slash("ref appoint", user=BOSS, channel="1", referee=Pick(RUTH))
    await discord.slash("initiative", user=OTTO, channel="1", choice="start")
    await discord.slash("ref hide", user=RUTH, channel="1", unit="sherman-1", reason="in the woods")
    bot.games.dice = lambda: ScriptedDice([d6(6)] * 4)
    await discord.slash("act", user=OTTO, channel="1", unit="Gruppe 3", move="50,39")
    await discord.slash("noreact", user=ANN, channel="1")
    for user, command in ((OTTO, "game map"), (RUTH, "ref map"), (EVE, "stats")):
        await discord.slash(command, user=user, channel="1")
    await discord.slash("game concede", user=ANN, channel="1")
    await discord.slash("game replay", user=EVE, channel="1")
    await discord.slash("table new", user=ANN, channel="2", name="Farm", width=72.0, depth=48.0)
    (menu,) = menus(await discord.slash("table show", user=ANN, channel="2", table="Farm"))
    opened = form(await discord.choose(menu, ["woods"], user=ANN, channel="2"))
    await discord.submit(opened, {"Grid square": "C3"}, user=ANN, channel="2")
    await discord.slash("table export", user=ANN, channel="2", table="Farm")

    pictures = [picture for entry in discord.sent for picture in described(entry)]
    assert [(name, text) for name, text in pictures if not (text and len(text) <= 1024)] == []
    names = {name.removeprefix("attachment://") for name, _ in pictures}
    assert {"battlefield.png", "replay.gif", "dice-stats.png", "Farm.yaml"} <= names
    in_threads = [picture for _, entry in posts_in(discord.sent) for picture in described(entry)]
    assert len(in_threads) >= 2  # the hidden Sherman: the allies' and the referee's true pictures
