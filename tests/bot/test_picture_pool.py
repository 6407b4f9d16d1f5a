"""The battlefield pictures drawn in worker processes (bot.picture_pool): the same picture as one
drawn in the bot's own process, a card still drawn when its worker dies and a new worker in its
place, jobs kept to one warm worker until a burst needs them all, and no worker left running once
the client has closed; workers that cannot start leave the pictures to a thread. A job that kills
its worker is tried once in another, never in the bot's own process; a picture that cannot be
drawn leaves its card without it, the game going on."""

import asyncio
import multiprocessing.context
import multiprocessing.spawn
import os
import signal
import time
from pathlib import Path
from unittest.mock import patch

import pytest
from pydantic import ValidationError

from bot import picture_pool
from bot.app import Services
from bot.config import Settings
from bot.discord_adapter.client import IronCrossBot
from bot.discord_adapter.replay_card import NOT_DRAWN
from bot.discord_adapter.run import client_for
from bot.picture_pool import PicturePool, drawn
from bot.services.outcome import Outcome, Scene
from bot.storage.store import Written
from bot.text_orders import unit_order
from bot.worker_pool import WorkerDied
from engine.commands import ChooseInitiative, Declare, StartGame
from engine.dice import ScriptedDice, SeededDice, d6
from engine.game import apply
from engine.game_state import GameState
from engine.scenarios.quick_battle import quick_battle
from tests.bot.discord_harness import (
    ANN,
    OTTO,
    attachments,
    buttons,
    close_bot,
    files_of,
    open_bot,
    reply,
    started_game,
)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


async def test_a_picture_from_a_worker_is_the_one_drawn_in_process():
    """The game after a move, with its trail (the game before) and its events, for spectators
    and for a side: the same PNG bytes and alt text either way."""
    started, _ = apply(quick_battle(), StartGame(), ScriptedDice([d6(2), d6(5)]))
    before, _ = apply(started, ChooseInitiative(side="axis", go_first=True), ScriptedDice([]))
    command = Declare(side="axis", order=unit_order(before, "axis", "Gruppe 3", move="50,39"))
    after, events = apply(before, command, SeededDice(7))
    pool = PicturePool(workers=1)
    await pool.start()
    try:
        for viewer in (None, "axis"):
            from_worker = await pool.picture(after, viewer, events, before)
            assert from_worker == drawn(after, viewer, events, before)
            assert from_worker[0].startswith(b"\x89PNG")
    finally:
        await pool.close()


async def test_a_picture_begun_from_the_stores_json_is_the_one_drawn_in_process():
    """The spectators' picture of an action begun as the game service begins it (the JSON the
    store wrote of the game after and the events, and the JSON of the game as read): the same
    PNG and alt text as from the games themselves, and the event loop dumps no game for it."""
    started, _ = apply(quick_battle(), StartGame(), ScriptedDice([d6(2), d6(5)]))
    before, _ = apply(started, ChooseInitiative(side="axis", go_first=True), ScriptedDice([]))
    command = Declare(side="axis", order=unit_order(before, "axis", "Gruppe 3", move="50,39"))
    after, events = apply(before, command, SeededDice(7))
    written = Written.of(after, command, events)
    scene = Scene(before, after, events, before.model_dump_json(), written.state, written.events)
    pool = PicturePool(workers=1)
    await pool.start()
    try:
        with patch.object(GameState, "model_dump_json", side_effect=AssertionError("dumped again")):
            begun = pool.begin(scene)
            from_worker = await pool.spectators(Outcome(after, events, 3, before=before, picture=begun))
        assert from_worker == drawn(after, None, events, before)
    finally:
        await pool.close()


def pid_of(_plain: object) -> int:
    """A job that says which process did it."""
    return os.getpid()


def held(seconds: float) -> int:
    """A job that keeps its worker busy for ``seconds``, then says which process did it."""
    time.sleep(seconds)
    return os.getpid()


async def test_a_card_is_still_drawn_when_its_worker_dies_and_a_new_worker_takes_its_place(
    tmp_path, monkeypatch, caplog
):
    bot, discord = await open_bot(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", monkeypatch)
    try:
        await started_game(bot, discord)
        await discord.slash("initiative", user=OTTO, channel="1", choice="start")
        bot.pictures.workers = 1
        await bot.pictures.start()
        [killed] = bot.pictures.pids
        os.kill(killed, signal.SIGKILL)
        bot.games.dice = lambda: SeededDice(7)
        stored = (await bot.games.store.load("1")).version
        sent = await discord.slash("act", user=OTTO, channel="1", unit="Gruppe 3", move="50,39")
        pictures = [file for entry in sent for file in files_of(entry)]
        assert pictures and pictures[0].startswith(b"\x89PNG")  # the card has its battlefield
        assert f"a picture worker stopped (process {killed}): a new one takes its place" in caplog.text
        assert (await bot.games.store.load("1")).version == stored + 1  # the action was stored
        await asyncio.gather(*bot.pictures._replacing)
        [new] = bot.pictures.pids
        assert new != killed and alive(new) and not alive(killed)
        assert await bot.pictures.run(pid_of, lambda: None, os.getpid) == new  # drawn there again
    finally:
        await bot.pictures.close()
        await close_bot(bot)


async def test_jobs_one_after_another_keep_to_one_worker_and_a_burst_takes_every_worker():
    """Under a light load the first free worker takes every job (its caches and its core warm);
    jobs at once go to every worker. Jobs whose callers stop waiting (one being done, one still
    waiting for a worker) leave both workers free for the jobs after them."""
    pool = PicturePool(workers=2)
    await pool.start()
    try:
        one_by_one = [await pool.run(pid_of, lambda: None, os.getpid) for _ in range(10)]
        assert len(set(one_by_one)) == 1 and one_by_one[0] in pool.pids
        at_once = await asyncio.gather(*(pool.run(held, lambda: 0.3, os.getpid) for _ in range(4)))
        assert sorted(set(at_once)) == pool.pids
        jobs = [asyncio.ensure_future(pool.run(held, lambda: 0.3, os.getpid)) for _ in range(3)]
        await asyncio.sleep(0.1)  # two are being done, the third waits for a worker
        jobs[1].cancel()
        jobs[2].cancel()
        assert await jobs[0] in pool.pids
        after = await asyncio.gather(*(pool.run(held, lambda: 0.3, os.getpid) for _ in range(2)))
        assert sorted(after) == pool.pids
    finally:
        await pool.close()


def dies(_plain: object) -> None:
    """A job that kills the process doing it, as a crash in a C library or the kernel's
    out-of-memory killer would."""
    os.kill(os.getpid(), signal.SIGKILL)


def never_here() -> None:
    raise AssertionError("a job that killed its worker was done in the bot's own process")


@pytest.mark.parametrize("workers", [1, 2])
async def test_a_job_that_kills_its_worker_is_tried_once_in_another_and_never_in_the_bots_process(
    workers, caplog
):
    """Given to a second worker (with one worker, the one that takes the dead one's place), it
    kills that one too and fails; the bot's process never runs it, and the pool is whole again
    for the jobs after it."""
    pool = PicturePool(workers=workers)
    await pool.start()
    try:
        first = pool.pids
        with pytest.raises(WorkerDied, match="a picture job's worker died under it"):
            await asyncio.wait_for(pool.run(dies, lambda: None, never_here), 120)
        assert caplog.text.count("a picture worker stopped") == 2  # it took two workers down
        await asyncio.wait_for(asyncio.gather(*pool._replacing), 120)
        assert len(pool.pids) == workers and not set(pool.pids) & set(first)
        assert await pool.run(pid_of, lambda: None, never_here) in pool.pids
    finally:
        await pool.close()


async def test_a_job_given_to_a_worker_that_died_idle_is_done_by_the_one_in_its_place():
    pool = PicturePool(workers=1)
    await pool.start()
    try:
        [killed] = pool.pids
        os.kill(killed, signal.SIGKILL)
        done_by = await asyncio.wait_for(pool.run(pid_of, lambda: None, never_here), 120)
        assert done_by != killed and pool.pids == [done_by]
    finally:
        await pool.close()


class Odd(Exception):
    """An exception made from other arguments than its ``args``: pickled whole, never read back."""

    def __init__(self, line: int, problem: str) -> None:
        super().__init__(f"line {line}: {problem}")


def raises_odd(_plain: object) -> None:
    raise Odd(3, "no such piece")


def returns_odd(_plain: object) -> Odd:
    return Odd(3, "no such piece")


async def test_a_job_whose_answer_cannot_be_read_back_fails_alone_and_its_worker_goes_on():
    """A job's exception (or result) that pickles in the worker but cannot be unpickled in the
    bot: its caller hears why, and the worker is free for the next job, not lost to the pool."""
    pool = PicturePool(workers=1)
    await pool.start()
    try:
        [worker] = pool.pids
        with pytest.raises(RuntimeError, match="Odd: line 3: no such piece"):
            await asyncio.wait_for(pool.run(raises_odd, lambda: None, os.getpid), 30)
        with pytest.raises(TypeError):
            await asyncio.wait_for(pool.run(returns_odd, lambda: None, os.getpid), 30)
        assert await asyncio.wait_for(pool.run(pid_of, lambda: None, os.getpid), 30) == worker
    finally:
        await pool.close()


def touched(path: str) -> int:
    """A job that leaves a file where it is told to, then says which process did it."""
    Path(path).touch()
    return os.getpid()


async def test_a_job_begun_reaches_its_worker_before_the_event_loop_turns(tmp_path):
    """A picture begun as an action is decided is drawn while the event loop goes on with the
    action's write, without waiting for the loop to turn first: here the loop never turns until
    the worker has done the job. A job whose inputs cannot be made fails where it is awaited (the
    action's write goes on), and leaves the worker free."""
    pool = PicturePool(workers=1)
    await pool.start()
    try:
        sign = tmp_path / "done"
        begun = pool.begun(touched, lambda: str(sign), os.getpid)
        deadline = time.monotonic() + 60
        while not sign.exists() and time.monotonic() < deadline:
            time.sleep(0.01)  # the event loop held, as by the write's own work
        assert sign.exists()
        assert await begun == pool.pids[0]

        def unmade() -> str:
            raise ValueError("no inputs")

        failed = pool.begun(touched, unmade, os.getpid)  # fails where its answer is awaited
        with pytest.raises(ValueError, match="no inputs"):
            await failed
        assert await pool.begun(pid_of, lambda: None, os.getpid) == pool.pids[0]  # still free
    finally:
        await pool.close()


async def test_the_picture_workers_stop_with_the_client(store):
    client = IronCrossBot(Services.start(store, picture_workers=2))
    await client.setup_hook()
    workers = client.pictures.pids
    assert len(workers) == 2 and all(alive(pid) for pid in workers)
    own = os.getpriority(os.PRIO_PROCESS, 0)
    assert all(os.getpriority(os.PRIO_PROCESS, pid) > own for pid in workers)  # they yield the cores
    await client.close()
    assert not any(alive(pid) for pid in workers)


def workers_of(pid: int) -> set[int]:
    """The pool workers this process spawned (not its other children, such as the resource
    tracker), from /proc."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parent = int(stat.read_text().rsplit(")", 1)[1].split()[1])
            command = (stat.parent / "cmdline").read_bytes()
        except (OSError, ValueError):
            continue
        if parent == pid and b"spawn_main" in command:
            found.add(int(stat.parent.name))
    return found


async def test_every_worker_is_warmed_and_yields_even_when_one_starts_long_before_the_other(
    monkeypatch,
):
    """The second worker is spawned only once the first is warming up (its priority lowered),
    so the first is free long before the second is up: each still warms itself, none takes
    another's first job, and ``pids`` names both."""
    own = os.getpriority(os.PRIO_PROCESS, 0)

    spawn = multiprocessing.context.SpawnProcess.start
    first: list[int] = []

    def second_later(process):
        if first:  # the second: spawned only once the first is warming up
            deadline = time.monotonic() + 60
            while os.getpriority(os.PRIO_PROCESS, first[0]) == own and time.monotonic() < deadline:
                time.sleep(0.01)
            time.sleep(0.5)
        spawn(process)
        first.append(process.pid)

    monkeypatch.setattr(multiprocessing.context.SpawnProcess, "start", second_later)
    pool = PicturePool(workers=2)
    await pool.start()
    try:
        assert len(pool.pids) == 2 and set(pool.pids) == workers_of(os.getpid())
        assert all(os.getpriority(os.PRIO_PROCESS, pid) > own for pid in pool.pids)
    finally:
        await pool.close()


async def test_pictures_are_drawn_in_a_thread_when_the_workers_cannot_start(monkeypatch, caplog):
    monkeypatch.setattr(multiprocessing.spawn, "get_executable", lambda: b"/nowhere/python")
    pool = PicturePool(workers=1)
    await pool.start()
    try:
        assert "the picture workers did not start" in caplog.text and pool.pids == []
        state = quick_battle()
        assert await pool.picture(state, None) == drawn(state, None)
    finally:
        await pool.close()


async def test_the_workers_priority_is_a_setting_and_out_of_range_is_refused(store, monkeypatch):
    """A host busy with other programs may want the pictures drawn at the bot's own priority."""
    monkeypatch.setenv("PICTURE_WORKERS", "1")
    monkeypatch.setenv("PICTURE_NICENESS", "3")
    client = client_for(Settings(_env_file=None), store)
    await client.setup_hook()
    try:
        own = os.getpriority(os.PRIO_PROCESS, 0)
        assert [os.getpriority(os.PRIO_PROCESS, pid) for pid in client.pictures.pids] == [min(own + 3, 19)]
    finally:
        await client.close()
    for wrong in ("-1", "20"):
        monkeypatch.setenv("PICTURE_NICENESS", wrong)
        with pytest.raises(ValidationError, match="PICTURE_NICENESS is 0"):
            Settings(_env_file=None)


async def test_a_picture_that_cannot_be_drawn_leaves_its_card_without_it_and_the_game_goes_on(
    tmp_path, monkeypatch, caplog
):
    """The action is stored: its card goes out saying so, with no picture but with the buttons
    of the reaction window it opened, which still work."""
    bot, discord = await open_bot(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", monkeypatch)
    try:
        await started_game(bot, discord)
        await discord.slash("initiative", user=OTTO, channel="1", choice="start")

        def broken(*_args, **_kwargs):
            raise RuntimeError("a broken drawing")

        monkeypatch.setattr(picture_pool, "render", broken)
        stored = (await bot.games.store.load("1")).version
        sent = await discord.slash("act", user=OTTO, channel="1", unit="Gruppe 3", move="50,39")
        text, private = reply(sent)
        assert not private and "Gruppe 3: move to 50.0,39.0" in text and NOT_DRAWN in text
        assert attachments(sent) == [] and set(buttons(sent)) == {"React", "No reaction"}
        assert "could not be drawn" in caplog.text and "a broken drawing" in caplog.text
        assert (await bot.games.store.load("1")).version == stored + 1
        answered = await discord.click(buttons(sent)["No reaction"], user=ANN, channel="1")
        assert "The Allies do not react" in reply(answered)[0]
    finally:
        await close_bot(bot)
