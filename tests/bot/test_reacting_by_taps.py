"""Whole battles by taps alone, both sides, with every kind of reaction: after /game new nothing
is typed; each reaction is built from the React button's private steps like an activation."""

import random

import pytest

from bot import picture_pool
from engine.dice import SeededDice
from engine.state import Phase
from tests.bot.discord_harness import ANN, OTTO, close_bot, open_bot
from tests.bot.tap_player import CMT, TapPlayers, joined_and_started, small_battle, unpictured

PLAYERS = {"allies": ANN, "axis": OTTO}
CORE_REACTIONS = ["Move", "Fire", "Move and fire", "Fire and move", "Fall back", CMT]


@pytest.fixture
async def bot_and_discord(tmp_path, monkeypatch):
    bot, discord = await open_bot(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", monkeypatch)
    monkeypatch.setattr(picture_pool, "render", unpictured)
    yield bot, discord
    await close_bot(bot)


async def test_a_battle_by_taps_has_every_kind_of_reaction_and_no_confirm_refused(bot_and_discord):
    bot, discord = bot_and_discord
    dice = SeededDice(5)
    bot.games.dice = lambda: dice
    players = TapPlayers(
        discord, PLAYERS, lambda: bot.games.game("1"), random.Random(3), wanted=list(CORE_REACTIONS)
    )
    await players.play(await joined_and_started(bot, discord, small_battle("core_2015")), most_taps=3000)
    assert (await bot.games.game("1")).phase is Phase.OVER
    reacted = {label for kind, label in players.declared if kind == "reaction"}
    assert set(CORE_REACTIONS) <= reacted, f"never reacted with {set(CORE_REACTIONS) - reacted}"
    assert players.refused == [] and players.dead_ends == []
    _, history = await bot.games.store.history("1")
    kinds = {event.kind for _, events in history for event in events}
    assert {"reaction_test", "fire", "move"} <= kinds


async def test_a_house_rules_battle_by_taps_has_an_assault_in_reaction(bot_and_discord):
    bot, discord = bot_and_discord
    dice = SeededDice(12)  # 11 came to no close combat once a move and fire always had a shot (issue 31)
    bot.games.dice = lambda: dice
    players = TapPlayers(
        discord, PLAYERS, lambda: bot.games.game("1"), random.Random(5), wanted=["Assault"], closing_in=True
    )
    started = await joined_and_started(bot, discord, small_battle("house_v1", units=2))
    await players.play(started, most_taps=3000)
    assert (await bot.games.game("1")).phase is Phase.OVER
    assert ("reaction", "Assault") in players.declared, players.declared
    assert players.refused == [] and players.dead_ends == []
