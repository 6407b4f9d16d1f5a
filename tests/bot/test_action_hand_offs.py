"""An action on a SQLite file is handed off the event loop once, and handed back once: its game
is read and the action decided on a reader of the store (the engine runs where the game was
read), which hands the write straight to the store's writer, which only writes (the JSON it
stores was made where the action was decided); the event loop hears only of the commit."""

from __future__ import annotations

import asyncio
import threading

import pytest

from bot.services import game_service
from bot.services.game_service import GameService
from bot.storage.store import GameStore
from engine.dice import ScriptedDice
from engine.game_state import GameState
from engine.scenarios.quick_battle import quick_battle
from tests.storage.game_writer import history, play_on


async def test_an_action_is_decided_where_its_game_was_read_and_the_loop_hears_only_of_its_commit(
    store, monkeypatch
):
    await GameService(store).new_game("c", quick_battle())
    await play_on(store, "c", seed=1, stop=1)
    loop = asyncio.get_running_loop()
    woken_from: list[str] = []  # the threads that handed the event loop something back
    engine_threads: list[str] = []
    dumping_threads: list[str] = []
    wake, apply, dump = loop.call_soon_threadsafe, game_service.apply, GameState.model_dump_json

    def counted(callback, *arguments, **named):
        woken_from.append(threading.current_thread().name)
        return wake(callback, *arguments, **named)

    def applied(*arguments):
        engine_threads.append(threading.current_thread().name)
        return apply(*arguments)

    def dumped(self, *arguments, **named):
        dumping_threads.append(threading.current_thread().name)
        return dump(self, *arguments, **named)

    monkeypatch.setattr(loop, "call_soon_threadsafe", counted)
    monkeypatch.setattr(game_service, "apply", applied)
    monkeypatch.setattr(GameState, "model_dump_json", dumped)
    command, events = history(1)[1]
    rolls = [roll for event in events for roll in event.rolls]
    await GameService(store, dice=lambda: ScriptedDice(rolls)).act("c", "hot-seat", command)
    assert [name.startswith("store-writer") for name in woken_from] == [True]  # once, committed
    assert [name.startswith("store-reader") for name in engine_threads] == [True]
    assert dumping_threads and not any(name.startswith("store-writer") for name in dumping_threads)
    assert (await store.load("c")).version == 2


async def test_an_action_given_up_while_it_is_decided_is_neither_written_nor_pictured(store, monkeypatch):
    """What waited for the action is cancelled while a reader decides it: the reader hands no
    write on, and the picture it asks the event loop to begin is not begun."""
    await GameService(store).new_game("c", quick_battle())
    await play_on(store, "c", seed=1, stop=1)
    deciding, decided = threading.Event(), threading.Event()
    apply = game_service.apply

    def held(*arguments):
        deciding.set()
        assert decided.wait(10)
        return apply(*arguments)

    monkeypatch.setattr(game_service, "apply", held)
    command, events = history(1)[1]
    rolls = [roll for event in events for roll in event.rolls]
    service, begun = GameService(store, dice=lambda: ScriptedDice(rolls)), []
    service.picturing = lambda scene: begun.append(scene) or asyncio.get_running_loop().create_future()
    acting = asyncio.create_task(service.act("c", "hot-seat", command))
    assert await asyncio.to_thread(deciding.wait, 10)
    acting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await acting
    decided.set()
    await store.close()  # once all it was handed is done
    await asyncio.sleep(0)  # and what its threads asked the event loop to do
    assert begun == []
    again = GameStore(store.database_url)
    assert (await again.load("c")).version == 1
    await again.close()


async def test_an_action_given_up_while_its_write_waits_behind_another_is_not_written(store, monkeypatch):
    """What waited for the action is cancelled once the reader has handed its write on, while the
    writer is still busy with another write: the writer drops it when its turn comes."""
    await GameService(store).new_game("c", quick_battle())
    await play_on(store, "c", seed=1, stop=1)
    writing, finish, handed = threading.Event(), threading.Event(), threading.Event()

    def busy(_connection) -> None:
        writing.set()
        assert finish.wait(10)

    writer = store.transactions._writer
    submit = writer.submit
    monkeypatch.setattr(writer, "submit", lambda *task: (handed.set(), submit(*task))[1])
    other = asyncio.create_task(store.transactions.write(busy))
    assert await asyncio.to_thread(writing.wait, 10)
    handed.clear()  # the busy write's own hand-off
    command, events = history(1)[1]
    rolls = [roll for event in events for roll in event.rolls]
    acting = asyncio.create_task(
        GameService(store, dice=lambda: ScriptedDice(rolls)).act("c", "hot-seat", command)
    )
    assert await asyncio.to_thread(handed.wait, 10)  # decided, and its write queued for the writer
    acting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await acting
    finish.set()
    await other
    await store.close()
    again = GameStore(store.database_url)
    assert (await again.load("c")).version == 1
    await again.close()
