"""The games a store holds parsed (bot.storage.state_cache): a load of a game the process read or
wrote last parses nothing, and whatever another writer stored since is read afresh, the row's
version and the moment of its write deciding, on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import pytest

from bot.services.game_service import GameService
from bot.services.outcome import GameError
from bot.storage.state_cache import StateCache
from bot.storage.store import GameStore
from engine.game import replay
from engine.game_state import GameState
from engine.scenarios.quick_battle import quick_battle
from tests.storage.game_writer import COMMANDS, history, play_on

pytestmark = pytest.mark.both_databases
ROOT = Path(__file__).resolve().parents[2]


class Parses:
    """Counts the states parsed from JSON while it is installed."""

    def __init__(self, monkeypatch) -> None:
        self.count = 0
        parse = GameState.model_validate_json

        def counted(*args, **kwargs):
            self.count += 1
            return parse(*args, **kwargs)

        monkeypatch.setattr(GameState, "model_validate_json", counted)


async def test_the_game_a_store_read_or_wrote_last_is_loaded_without_parsing_it(store, monkeypatch):
    await GameService(store).new_game("c", quick_battle())
    await play_on(store, "c", seed=1, stop=3)
    parses = Parses(monkeypatch)
    first = await store.load("c")
    assert parses.count == 0 and (await store.load("c")).state is first.state
    (command, events), *_ = history(1)[3:]
    state = replay(first.state, [(command, events)])[0]
    await store.append(first, "hot-seat", command, events, state)
    assert (await store.load("c")).state is state and parses.count == 0


async def test_a_game_another_process_plays_on_is_read_afresh(store, database_url, monkeypatch):
    await GameService(store).new_game("c", quick_battle())
    await play_on(store, "c", seed=1, stop=5)
    parses = Parses(monkeypatch)
    held = await store.load("c")
    assert (held.version, parses.count) == (5, 0)
    writer = await asyncio.to_thread(
        subprocess.run,
        [sys.executable, "-m", "tests.storage.game_writer", database_url, "c:1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert writer.returncode == 0, writer.stderr
    game = await store.load("c")
    assert (game.version, parses.count) == (COMMANDS, 1)
    assert game.state == replay(quick_battle(), history(1))[0]
    assert (await store.load("c")).state is game.state and parses.count == 1


async def test_a_new_game_played_by_another_writer_to_the_same_version_is_read_afresh(
    store, database_url, monkeypatch
):
    """The version alone does not name a state: a new game in the channel starts again at 0."""
    await GameService(store).new_game("c", quick_battle())
    await play_on(store, "c", seed=1, stop=2)
    parses = Parses(monkeypatch)
    held = await store.load("c")
    assert parses.count == 0
    other = GameStore(database_url)
    try:
        await other.create("c", quick_battle())  # replaces the game (nothing refuses it here)
        await play_on(other, "c", seed=2, stop=2)
    finally:
        await other.close()
    game = await store.load("c")
    assert game.version == held.version == 2
    assert game.state == replay(quick_battle(), history(2)[:2])[0] != held.state


async def test_a_write_that_did_not_commit_leaves_the_stored_game(store, monkeypatch):
    await GameService(store).new_game("c", quick_battle())
    await store.load("c")
    parses = Parses(monkeypatch)
    held = await store.load("c")
    assert parses.count == 0
    (command, events), *_ = history(1)
    state = replay(held.state, [(command, events)])[0]

    def refuse(_connection) -> None:
        raise GameError("refused in the transaction")

    with pytest.raises(GameError):
        await store.append(held, "hot-seat", command, events, state, with_it=refuse)
    game = await store.load("c")
    assert (game.version, game.state, parses.count) == (0, held.state, 1)


def test_the_least_recently_used_game_is_dropped_first():
    cache, game = StateCache(size=2), quick_battle()
    for channel in ("a", "b"):
        cache.keep(channel, 1, datetime(2026, 1, 1), game, "{}")
    assert cache.get("a") is not None  # "b" is now the least recently used
    cache.keep("c", 1, datetime(2026, 1, 1), game, "{}")
    assert [channel for channel in "abc" if cache.get(channel)] == ["a", "c"]
