"""Undo from snapshots (issue 19, item 8): the game's state is kept every few commands in the
same transaction as the command, an undo replays only from the newest snapshot before what it
takes back (off the event loop), and the result is exactly the full replay of the log's line
still in force. Real SQLite files; the schema is migrated once for the module and copied."""

import asyncio
import random
import shutil
import threading

import pytest

import bot.services.game_service as game_service
import bot.storage.store as store_module
from bot.services.game_service import GameError, GameService
from bot.storage.migrate import upgrade_to_head
from bot.storage.store import GameStore
from engine.commands import Command, RefereeClock, UndoActions
from engine.dice import SeededDice
from engine.errors import IllegalCommand
from engine.events import Event
from engine.game import apply, replay
from engine.game_state import GameState
from engine.referee import live_actions, live_history
from engine.scenarios.quick_battle import quick_battle
from tests.engine.random_play import random_command

CHANNEL = "c1"


@pytest.fixture(scope="module")
def migrated(tmp_path_factory):
    """One database file migrated to the head, copied for each test."""
    path = tmp_path_factory.mktemp("template") / "games.db"
    asyncio.run(upgrade_to_head(f"sqlite+aiosqlite:///{path}"))
    return path


@pytest.fixture
async def store(migrated, tmp_path):
    path = tmp_path / "games.db"
    shutil.copy(migrated, path)
    store = GameStore(f"sqlite+aiosqlite:///{path}")
    yield store
    await store.close()


@pytest.fixture
def every_five(monkeypatch):
    """Snapshots every 5 commands, so short games cross many of them."""
    monkeypatch.setattr(store_module, "SNAPSHOT_EVERY", 5)


async def refereed_game(store: GameStore) -> GameService:
    """A quick battle refereed by "ref", with the channel's game created."""
    state = quick_battle()
    state.referees = ["ref"]
    service = GameService(store)
    await service.new_game(CHANNEL, state)
    return service


async def play(store: GameStore, commands: int, rng: random.Random) -> None:
    """Store ``commands`` random legal commands, the way the service stores them."""
    dice = SeededDice(rng.randrange(2**32))
    for _ in range(commands):
        game = await store.load(CHANNEL)
        for _attempt in range(40):
            command = random_command(game.state, rng)
            try:
                state, events = apply(game.state, command, dice)
                break
            except IllegalCommand:  # draw another
                continue
        await store.append(game, "player", command, events, state)


def line_in_force(history: list[tuple[Command, list[Event]]], through: int) -> list:
    """The commands of the log's first ``through`` entries that the whole log still has in force."""
    undone = {n for command, _ in history if isinstance(command, UndoActions) for n in command.undone}
    return [
        entry
        for n, entry in enumerate(history[:through], start=1)
        if n not in undone and not isinstance(entry[0], RefereeClock)
    ]


async def check_against_full_replay(store: GameStore) -> None:
    """The stored game is the full replay of its log's line in force, and so is every snapshot
    at its own point of the log."""
    initial, history = await store.history(CHANNEL)
    game = await store.load(CHANNEL)
    assert replay(initial, live_history(history))[0] == game.state
    for seq in (await store.snapshot_seqs(CHANNEL))[1:]:
        assert await store.state_at(CHANNEL, seq) == replay(initial, line_in_force(history, seq))[0], seq


async def test_at_more_than_50_commands_an_undo_replays_from_the_snapshot_and_matches_the_full_replay(store):
    service = await refereed_game(store)
    await play(store, 53, random.Random(1))
    assert await store.snapshot_seqs(CHANNEL) == [0, 50]
    initial, history = await store.history(CHANNEL)
    assert await store.state_at(CHANNEL, 50) == replay(initial, history[:50])[0]
    assert await store.log_between(CHANNEL, 50) == history[50:]
    assert await store.log_between(CHANNEL, 10, through=50) == history[10:50]
    undo = UndoActions(referee="ref", reason="three orders given out of turn", undone=(51, 52, 53))
    assert await service.undo_command(CHANNEL, "ref", 3, "three orders given out of turn") == undo
    outcome = await service.undo(CHANNEL, "ref", 3, "three orders given out of turn")
    assert replay(initial, live_history([*history, (undo, [])]))[0] == outcome.state
    assert await store.snapshot_seqs(CHANNEL) == [0, 50]
    await check_against_full_replay(store)
    await service.undo(CHANNEL, "ref", 2, "and two more")  # 49 and 50: back to the start
    assert await store.snapshot_seqs(CHANNEL) == [0]
    await check_against_full_replay(store)


async def test_an_undo_across_a_snapshot_drops_the_snapshots_it_made_stale(store, every_five):
    service = await refereed_game(store)
    await play(store, 23, random.Random(3))
    assert await store.snapshot_seqs(CHANNEL) == [0, 5, 10, 15, 20]
    await service.undo(CHANNEL, "ref", 6, "back to before the barrage")  # 18 to 23
    assert await store.snapshot_seqs(CHANNEL) == [0, 5, 10, 15]
    await check_against_full_replay(store)
    await play(store, 6, random.Random(4))  # the undo is 24; 25 and 30 are kept again
    assert await store.snapshot_seqs(CHANNEL) == [0, 5, 10, 15, 25, 30]
    await check_against_full_replay(store)


async def test_undoing_again_takes_the_actions_before_those_already_undone(store, every_five):
    service = await refereed_game(store)
    await play(store, 12, random.Random(5))
    await service.undo(CHANNEL, "ref", 2, "first")  # 11 and 12; the undo is 13
    await service.undo(CHANNEL, "ref", 2, "second")  # 9 and 10; the undo is 14
    _, history = await store.history(CHANNEL)
    assert [history[12][0].undone, history[13][0].undone] == [(11, 12), (9, 10)]
    assert await store.snapshot_seqs(CHANNEL) == [0, 5]
    await check_against_full_replay(store)
    await play(store, 3, random.Random(6))  # 15 to 17: 15 is kept
    await service.undo(CHANNEL, "ref", 4, "third")  # 17, 16, 15 and 8, past the two undos
    _, history = await store.history(CHANNEL)
    assert history[-1][0].undone == (8, 15, 16, 17)
    assert await store.snapshot_seqs(CHANNEL) == [0, 5]
    await check_against_full_replay(store)


async def test_random_plays_and_undos_always_match_the_full_replay(store, every_five):
    service = await refereed_game(store)
    rng = random.Random(7)
    for _ in range(6):
        await play(store, rng.randint(1, 7), rng)
        _, history = await store.history(CHANNEL)
        count = rng.randint(1, min(6, len(live_actions(history))))
        await service.undo(CHANNEL, "ref", count, "random")
        await check_against_full_replay(store)


async def test_an_undo_of_more_actions_than_the_game_has_is_refused_and_stores_nothing(store, every_five):
    service = await refereed_game(store)
    await play(store, 12, random.Random(8))
    await service.undo(CHANNEL, "ref", 1, "one")
    before = await store.load(CHANNEL)
    with pytest.raises(GameError, match="^There are 11 actions to take back; choose 1 to 11$"):
        await service.undo(CHANNEL, "ref", 12, "all of them")
    assert await store.load(CHANNEL) == before and await store.snapshot_seqs(CHANNEL) == [0, 5, 10]
    everything = await service.undo(CHANNEL, "ref", 11, "all of them")
    initial, _ = await store.history(CHANNEL)
    assert everything.state.units == initial.units
    await check_against_full_replay(store)


async def test_the_replay_runs_off_the_event_loop(store, monkeypatch):
    threads = []

    def watched_replay(state: GameState, history):
        threads.append(threading.current_thread())
        return replay(state, history)

    monkeypatch.setattr(game_service, "replay", watched_replay)
    service = await refereed_game(store)
    await play(store, 4, random.Random(9))
    await service.undo(CHANNEL, "ref", 1, "late")
    assert threads and threading.main_thread() not in threads


async def test_two_undos_at_once_take_back_two_actions_one_after_the_other(store, every_five):
    service = await refereed_game(store)
    await play(store, 9, random.Random(10))
    await asyncio.gather(*(service.undo(CHANNEL, "ref", 1, f"undo {n}") for n in (1, 2)))
    _, history = await store.history(CHANNEL)
    assert sorted(command.undone for command, _ in history[-2:]) == [(8,), (9,)]
    await check_against_full_replay(store)


async def test_a_new_game_starts_without_the_old_games_snapshots(store, every_five):
    await refereed_game(store)
    await play(store, 11, random.Random(11))
    await store.create(CHANNEL, quick_battle())
    assert await store.snapshot_seqs(CHANNEL) == [0]
