"""/measure through the real command tree and at the console, on the quick battle's table (a wood
between the Panzer IV and the 2nd Squad, the church between Gruppe 3 and the 3rd Squad)."""

import io

import pytest

from bot.console import play_console
from bot.discord_adapter.common import side_of
from bot.services.game_service import GameError
from engine.dice import SeededDice
from engine.scenarios.quick_battle import quick_battle
from tests.bot.discord_harness import ANN, EVE, close_bot, open_bot, reply, started_game


@pytest.fixture
async def bot_and_discord(tmp_path, monkeypatch):
    bot, discord = await open_bot(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", monkeypatch)
    yield bot, discord
    await close_bot(bot)


async def test_measure_shows_distance_what_blocks_and_cover_privately(bot_and_discord):
    bot, discord = bot_and_discord
    await started_game(bot, discord)
    text, private = reply(
        await discord.slash("measure", user=ANN, channel="1", unit="3rd Squad", to="Gruppe 3")
    )
    assert private  # a player's plans stay their own
    assert text == (
        '3rd Squad to Gruppe 3: 34.2" (from the edge of 3rd Squad)\n'
        "Line of sight: none, the church (building) blocks the line of sight\n"
        "Cover: Gruppe 3 would be in the open against fire from 3rd Squad"
    )
    behind_the_wall = "40,37"
    text, _ = reply(
        await discord.slash("measure", user=ANN, channel="1", unit="3rd Squad", to=behind_the_wall)
    )
    assert text.splitlines()[1:] == [
        "Line of sight: clear, 3rd Squad sees 40.0,37.0",
        "Cover: a unit like 3rd Squad standing there would be in cover against fire from 3rd Squad",
    ]


async def test_measure_is_from_your_own_units_only(bot_and_discord):
    bot, discord = bot_and_discord
    await started_game(bot, discord)
    text, private = reply(await discord.slash("measure", user=EVE, channel="1", unit="3rd Squad", to="D3"))
    assert private and text == (
        "You are not playing in this game, and no side can be joined now: watch with /game status"
    )
    text, _ = reply(await discord.slash("measure", user=ANN, channel="1", unit="Gruppe 3", to="D3"))
    assert text.startswith("No unit called 'Gruppe 3'")
    text, _ = reply(await discord.slash("measure", user=ANN, channel="1", unit="3rd Squad", to="the moon"))
    assert text.startswith("No unit called 'the moon'") and text.endswith("or a grid square (D3)")
    text, _ = reply(await discord.slash("measure", user=ANN, channel="1", unit="3rd Squad", to="500,3"))
    assert text == '500.0,3.0 is off the table (72" x 48"): measure to a spot on it'


async def test_the_console_measures_and_a_fire_order_names_what_blocks(tmp_path):
    out = io.StringIO()
    lines = (
        "/start\n/initiative start\n/act gruppe-3 fire:3rd-squad\n/act panzer-iv fire:2nd-squad\n"
        "/measure panzer-iv to:2nd-squad\n/measure\n"
    )
    url = f"sqlite+aiosqlite:///{tmp_path / 'console.db'}"
    await play_console(io.StringIO(lines), out, url, dice=lambda: SeededDice(1))
    said = out.getvalue()
    assert (
        "Not allowed: Gruppe 3 cannot see 3rd Squad: the church (building) blocks the line of sight" in said
    )
    assert "Not allowed: Panzer IV cannot see 2nd Squad: the wood blocks the line of sight" in said
    assert (
        "Panzer IV to 2nd Squad: " in said
        and "Line of sight: none, the wood blocks the line of sight" in said
    )
    assert "Not allowed: /measure needs unit: (see /help measure)" in said


def test_a_referee_is_told_the_ref_commands_are_theirs_not_how_to_join():
    """A referee never holds a side (p. 25): a command that needs one says so, not how to join."""
    state = quick_battle("village", "us").model_copy(update={"referees": ["309"]})
    with pytest.raises(GameError, match="You referee this game and play no side: the /ref commands"):
        side_of(state, "309")
    with pytest.raises(GameError, match="You are not playing in this game: join with /game join side:allies"):
        side_of(state, "310")
