"""/game commands through the real discord.py command tree, from interaction payloads."""

import pytest

from engine.dice import ScriptedDice, d6
from tests.bot.discord_harness import (
    ANN,
    EVE,
    OTTO,
    callback_payload,
    close_bot,
    files_of,
    open_bot,
    reply,
    text_of,
    walk,
)


@pytest.fixture
async def discord_bot(tmp_path, monkeypatch):
    bot, discord = await open_bot(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", monkeypatch)
    yield bot, discord
    await close_bot(bot)


async def test_three_commands_from_an_empty_channel_to_the_initiative(discord_bot):
    bot, discord = discord_bot
    text, private = reply(await discord.slash("game new", user=ANN, channel="1"))
    assert "A quick battle on the Village" in text and not private
    text, _ = reply(await discord.slash("game join", user=ANN, channel="1", side="allies"))
    assert text.startswith(f"<@{ANN}> joins the Allies\nTurn 0") and text.count("joins") == 1  # said once
    await discord.slash("game join", user=OTTO, channel="1", side="axis")
    bot.games.dice = lambda: ScriptedDice([d6(2), d6(5)])
    text, _ = reply(await discord.slash("game start", user=OTTO, channel="1"))
    assert "Initiative: the Allies 2, the Axis 5. The Axis choose who starts" in text
    assert "Waiting for **the Axis**" in text


async def test_refusals_are_private_and_change_nothing(discord_bot):
    bot, discord = discord_bot
    text, private = reply(await discord.slash("game status", user=EVE, channel="9"))
    assert private and "There is no game in this channel" in text
    await discord.slash("game new", user=ANN, channel="1")
    await discord.slash("game join", user=ANN, channel="1", side="allies")
    text, private = reply(await discord.slash("game new", user=EVE, channel="1", table="crossroads"))
    assert private and "only they may replace it" in text
    text, private = reply(await discord.slash("game start", user=ANN, channel="1"))
    assert private and "Nobody is playing axis yet" in text
    text, private = reply(await discord.slash("game join", user=ANN, channel="1", side="axis"))
    assert private and "already playing allies" in text
    assert (await bot.games.store.load("1")).version == 1


async def test_window_length_is_validated_by_discord_range(discord_bot):
    bot, discord = discord_bot
    await discord.slash("game new", user=ANN, channel="1", reaction_seconds=3600)
    assert (await bot.games.store.load("1")).reaction_seconds == 3600


async def test_game_new_options_choose_the_table_and_the_allied_force(discord_bot):
    bot, discord = discord_bot
    text, private = reply(
        await discord.slash("game new", user=ANN, channel="1", table="crossroads", forces="british")
    )
    assert not private and "Crossroads (4' x 4')" in text and "British: a Firefly" in text
    assert "Reaction windows stay open 2 minutes" in text
    state = (await bot.games.store.load("1")).state
    assert state.table.width == 48 and state.sides["allies"].nation == "british"
    text, private = reply(await discord.slash("game new", user=ANN, channel="2", table="moon"))
    assert private and "There is no table 'moon': choose village, crossroads" in text
    assert (await bot.games.store.load("2")) is None


async def test_a_window_closing_by_itself_is_posted_to_its_channel_as_a_card(discord_bot):
    bot, discord = discord_bot
    from bot.services.game_service import Outcome
    from engine.events import Event
    from engine.scenarios.quick_battle import quick_battle

    event = Event(kind="no_reaction", text="The Allies do not react")
    outcome = Outcome(state=quick_battle(), events=[event], version=3)
    before = len(discord.sent)
    await bot.announce("4242", outcome)
    (message,) = discord.sent[before:]
    assert message["route"] == "POST /channels/{channel_id}/messages"
    body = callback_payload(message)
    assert not body.get("content") and body["flags"] & 1 << 15  # Components V2: no content
    assert text_of(body).startswith("The reaction window closed.\nThe Allies do not react\n\nTurn 0")
    (gallery,) = [c for c in walk(body["components"]) if c["type"] == 12]
    assert gallery["items"][0]["media"]["url"] == "attachment://battlefield.png"
    assert len(files_of(message)) == 1


async def test_a_game_under_the_house_rules_says_so_in_its_header(discord_bot):
    _, discord = discord_bot
    text, _ = reply(
        await discord.slash("game new", user=ANN, channel="7", forces="british", ruleset="house_v1")
    )
    assert "· House Rules V1.0" in text
    status, _ = reply(await discord.slash("game status", user=ANN, channel="7"))
    assert "House Rules V1.0" in status
