"""Reaction-window timers and their retries, run in virtual time (no real waiting except one 20 ms
SystemClock test)."""

from __future__ import annotations

import asyncio
import itertools
import logging
from datetime import UTC, datetime, timedelta

import pytest

from engine.commands import Declare, DeclineReaction, Move, UnitOrder
from engine.dice import ScriptedDice
from engine.game import apply
from engine.runtime import Backoff, ReactionTimers, SystemClock, VirtualClock
from engine.scenarios.new_game import make_unit
from engine.state import Phase, Point
from tests.engine.helpers import game, started

START = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def seconds(n: float) -> timedelta:
    return timedelta(seconds=n)


def recorder():
    """An on_expire callback that records the keys it is called with."""
    fired: list = []

    async def on_expire(key):
        fired.append(key)

    return fired, on_expire


@pytest.fixture
def clock() -> VirtualClock:
    return VirtualClock(START)


async def test_a_window_expires_at_its_deadline_and_not_before(clock):
    fired, on_expire = recorder()
    timers = ReactionTimers(clock, on_expire)
    timers.arm("w1", clock.now() + seconds(120))
    assert timers.armed == {"w1"} and timers.time_left("w1") == seconds(120)

    await clock.advance(119)
    assert fired == []
    assert timers.time_left("w1") == seconds(1)
    assert clock.now() == START + seconds(119)

    await clock.advance(1)
    assert fired == ["w1"]
    assert timers.armed == frozenset() and timers.time_left("w1") is None
    assert not timers.cancel("w1"), "cancel after firing finds no timer"
    assert clock.sleepers == 0, "the fired timer's task is gone"

    await clock.advance(3600)
    assert fired == ["w1"], "a window fires only once"


async def test_an_answered_window_does_not_expire(clock):
    fired, on_expire = recorder()
    timers = ReactionTimers(clock, on_expire)
    timers.arm("w1", clock.now() + seconds(15))
    assert timers.cancel("w1")
    assert not timers.cancel("w1"), "a second cancel finds nothing"
    assert not timers.cancel("never-armed")
    await clock.advance(60)
    assert fired == [] and timers.armed == frozenset()


async def test_rearming_a_window_replaces_its_deadline(clock):
    fired, on_expire = recorder()
    timers = ReactionTimers(clock, on_expire)
    timers.arm("w1", clock.now() + seconds(10))
    timers.arm("w1", clock.now() + seconds(100))
    assert timers.deadline("w1") == START + seconds(100)
    await clock.advance(99)
    assert fired == []
    await clock.advance(1)
    assert fired == ["w1"]

    # and an earlier deadline replaces a later one
    timers.arm("w2", clock.now() + seconds(100))
    timers.arm("w2", clock.now() + seconds(5))
    await clock.advance(5)
    assert fired == ["w1", "w2"]
    await clock.advance(200)
    assert fired == ["w1", "w2"]


async def test_after_a_restart_missed_windows_fire_at_once_and_others_keep_their_time():
    # The bot stored the deadlines, went down, and comes back at START.
    clock = VirtualClock(START)
    fired, on_expire = recorder()
    timers = ReactionTimers(clock, on_expire)
    timers.rearm(
        [
            ("later", START + seconds(30)),
            ("missed-recently", START - seconds(5)),
            ("missed-long-ago", START - timedelta(hours=2)),
        ]
    )
    assert timers.armed == {"later", "missed-recently", "missed-long-ago"}
    assert timers.time_left("missed-long-ago") == timedelta(0)
    assert timers.time_left("later") == seconds(30)

    await clock.advance(0)
    assert fired == ["missed-long-ago", "missed-recently"]
    assert timers.armed == {"later"}

    await clock.advance(29)
    assert fired == ["missed-long-ago", "missed-recently"]
    await clock.advance(1)
    assert fired == ["missed-long-ago", "missed-recently", "later"]


async def test_missed_windows_fire_on_the_next_loop_turn_without_advancing_time(clock):
    fired, on_expire = recorder()
    timers = ReactionTimers(clock, on_expire)
    timers.rearm([("b", START - seconds(1)), ("a", START - seconds(2))])
    assert fired == [], "rearm itself does not call back"
    for _ in range(4):  # the runner wakes, starts both, each takes its first step, then fires
        await asyncio.sleep(0)
    assert fired == ["a", "b"]
    assert clock.now() == START


async def test_a_missed_window_answered_before_it_fires_does_not_fire(clock):
    fired, on_expire = recorder()
    timers = ReactionTimers(clock, on_expire)
    timers.rearm([("answered", START - seconds(1)), ("moved", START - seconds(1))])
    assert timers.cancel("answered")
    timers.arm("moved", START + seconds(10))
    await clock.advance(0)
    assert fired == []
    await clock.advance(10)
    assert fired == ["moved"]


async def test_many_windows_fire_in_deadline_order(clock):
    fired, on_expire = recorder()
    timers = ReactionTimers(clock, on_expire)
    plan = {"c": 300, "a": 15, "e": 48 * 3600, "b": 120, "d": 3600, "b-twin": 120}
    for key, after in plan.items():
        timers.arm(key, clock.now() + seconds(after))
    await clock.advance(48 * 3600)
    assert fired == ["a", "b", "b-twin", "c", "d", "e"], "equal deadlines fire in the order armed"
    assert clock.now() == START + timedelta(hours=48)


async def test_one_window_fires_completely_before_the_next_even_if_its_callback_awaits(clock):
    log: list[str] = []

    async def slow(key):
        log.append(f"start {key}")
        for _ in range(50):  # many loop turns, as a database write would take
            await asyncio.sleep(0)
        log.append(f"end {key}")

    timers = ReactionTimers(clock, slow)
    timers.arm("x", clock.now() + seconds(20))
    timers.arm("y", clock.now() + seconds(30))
    await clock.advance(25)
    assert log == ["start x", "end x"], "advance returns only after the callback has finished"
    await clock.advance(5)
    assert log == ["start x", "end x", "start y", "end y"]


async def test_a_failing_callback_is_logged_and_tried_again_with_a_growing_wait(clock, caplog):
    fired = []

    async def on_expire(key):
        fired.append((key, clock.now() - START))
        if key == "b" and len([k for k, _ in fired if k == "b"]) <= 8:
            raise RuntimeError("database is locked")

    timers = ReactionTimers(clock, on_expire)
    for key, after in [("c", 300), ("a", 15), ("b", 120)]:
        timers.arm(key, clock.now() + seconds(after))
    with caplog.at_level(logging.WARNING, logger="engine.runtime"):
        await clock.advance(120)
        assert timers.armed == {"b", "c"}, "a failed window keeps its timer"
        assert timers.deadline("b") == START + seconds(120) and timers.time_left("b") == seconds(0)
        await clock.advance(3600)
    attempts = [at for key, at in fired if key == "b"]
    waits = [(later - earlier).total_seconds() for earlier, later in itertools.pairwise(attempts)]
    assert waits == [1, 2, 4, 8, 16, 32, 60, 60], "doubling from 1 s, never longer than a minute"
    assert [key for key, _ in fired].count("b") == 9 and ("c", seconds(300)) in fired
    assert timers.retries == 8 and timers.armed == frozenset()
    assert len(caplog.records) == 8
    assert "'b'" in caplog.records[0].getMessage() and caplog.records[0].exc_info[0] is RuntimeError

    # the timers are still usable afterwards
    timers.arm("d", clock.now() + seconds(15))
    await clock.advance(15)
    assert fired[-1][0] == "d"


async def test_a_deadline_no_longer_due_is_dropped_without_firing(clock):
    fired = []
    due = {"answered": False, "flaky": True, "open": True}
    checks = []

    async def still_due(key):
        checks.append(key)
        if key == "flaky" and checks.count("flaky") == 1:
            raise TimeoutError("QueuePool limit reached")
        return due[key]

    async def on_expire(key):
        fired.append(key)
        if key == "open" and fired.count("open") == 1:
            due["open"] = False  # say the write went through but the announcement failed
            raise RuntimeError("403 Forbidden")

    timers = ReactionTimers(clock, on_expire, still_due=still_due)
    timers.rearm([(key, START - seconds(60)) for key in due])
    await clock.advance(10)
    assert fired == ["open", "flaky"]
    assert checks.count("answered") == 1 and checks.count("flaky") == 2 and checks.count("open") == 2
    assert timers.retries == 2 and timers.armed == frozenset()


async def test_cancelling_or_closing_stops_the_retries(clock):
    fired = []

    async def on_expire(key):
        fired.append(key)
        raise RuntimeError("database is locked")

    timers = ReactionTimers(clock, on_expire)
    timers.rearm([("answered", START), ("shut", START)])
    await clock.advance(0)
    assert fired == ["answered", "shut"] and timers.armed == {"answered", "shut"}
    assert timers.cancel("answered")
    await clock.advance(1)
    assert fired == ["answered", "shut", "shut"]
    await timers.close()
    await clock.advance(3600)
    assert fired == ["answered", "shut", "shut"] and clock.sleepers == 0


async def test_a_key_armed_again_by_its_failing_callback_keeps_the_new_deadline(clock):
    fired = []
    timers: ReactionTimers

    async def on_expire(key):
        fired.append(clock.now() - START)
        if len(fired) == 1:
            timers.arm(key, clock.now() + seconds(30))
            raise RuntimeError("after arming")

    timers = ReactionTimers(clock, on_expire)
    timers.arm("w", START + seconds(10))
    await clock.advance(10)
    assert timers.deadline("w") == START + seconds(40)
    await clock.advance(100)
    assert fired == [seconds(10), seconds(40)] and timers.retries == 0


async def test_at_most_limit_callbacks_run_at_once_and_a_limit_may_be_shared(clock):
    running, most, fired = 0, 0, []

    async def on_expire(key):
        nonlocal running, most
        running += 1
        most = max(most, running)
        await asyncio.sleep(0)  # a database round trip: the others get their turn meanwhile
        await asyncio.sleep(0)
        running -= 1
        fired.append(key)

    windows = ReactionTimers(clock, on_expire, limit=asyncio.Semaphore(3))
    pings = ReactionTimers(clock, on_expire, limit=windows.limit)
    windows.rearm((f"w{n}", START - seconds(n)) for n in range(500))
    pings.rearm((f"p{n}", START - seconds(n)) for n in range(500))
    await clock.advance(0)
    assert most == 3
    assert sorted(fired) == sorted([f"w{n}" for n in range(500)] + [f"p{n}" for n in range(500)])


def test_a_backoff_needs_a_positive_first_wait_no_longer_than_the_longest():
    for first, longest in [(0, 60), (-1, 60), (61, 60)]:
        with pytest.raises(ValueError):
            Backoff(seconds(first), seconds(longest))
    waits = Backoff(seconds(5), seconds(12)).waits()
    assert [next(waits).total_seconds() for _ in range(4)] == [5, 10, 12, 12]


async def test_a_callback_may_arm_and_cancel_other_windows(clock, caplog):
    fired = []
    timers: ReactionTimers

    async def on_expire(key):
        fired.append((key, clock.now() - START))
        if key == "first" and len(fired) == 1:
            assert timers.cancel("doomed")
            timers.arm("follow-up", clock.now() + seconds(15))  # due inside the same advance
            timers.arm("slow", clock.now() + seconds(100))  # moved later
            timers.arm("first", clock.now() + seconds(60))  # its own key, armed again

    timers = ReactionTimers(clock, on_expire)
    timers.arm("first", START + seconds(10))
    timers.arm("doomed", START + seconds(20))
    timers.arm("slow", START + seconds(30))
    await clock.advance(40)
    assert fired == [("first", seconds(10)), ("follow-up", seconds(25))]
    assert timers.armed == {"slow", "first"}
    await clock.advance(100)
    assert fired == [
        ("first", seconds(10)),
        ("follow-up", seconds(25)),
        ("first", seconds(70)),
        ("slow", seconds(110)),
    ]
    assert timers.armed == frozenset()
    assert not caplog.records, "the callback's own checks passed"


async def test_cancelling_a_window_while_its_callback_runs_returns_false(clock):
    inside = []
    timers: ReactionTimers

    async def on_expire(key):
        inside.append((timers.cancel(key), timers.armed, timers.time_left(key), timers.deadline(key)))

    timers = ReactionTimers(clock, on_expire)
    timers.arm("w", START + seconds(15))
    await clock.advance(15)
    assert inside == [(False, frozenset(), None, None)]


async def test_close_cancels_every_timer(clock):
    fired, on_expire = recorder()
    timers = ReactionTimers(clock, on_expire)
    timers.arm("a", clock.now() + seconds(15))
    timers.arm("b", clock.now() + timedelta(hours=48))
    timers.rearm([("missed", START - seconds(60))])
    await timers.close()
    assert timers.armed == frozenset() and timers.time_left("a") is None
    await clock.advance(48 * 3600)
    assert fired == []
    assert clock.sleepers == 0
    with pytest.raises(RuntimeError):
        timers.arm("c", clock.now() + seconds(15))


async def test_close_lets_a_running_callback_finish():
    clock = VirtualClock(START)
    release = asyncio.Event()
    done = []

    async def on_expire(key):
        await release.wait()
        done.append(key)

    timers = ReactionTimers(clock, on_expire)
    timers.rearm([("writing", START - seconds(1))])
    await asyncio.sleep(0)  # the missed window starts its callback, which then waits
    closing = asyncio.create_task(timers.close())
    await asyncio.sleep(0)
    assert not closing.done()
    release.set()
    await closing
    assert done == ["writing"]


async def test_naive_datetimes_are_refused(clock):
    timers = ReactionTimers(clock, recorder()[1])
    with pytest.raises(ValueError, match="timezone-aware"):
        timers.arm("w", datetime(2026, 3, 1, 12, 0))
    with pytest.raises(ValueError, match="timezone-aware"):
        VirtualClock(datetime(2026, 3, 1))
    assert timers.armed == frozenset()


async def test_virtual_time_does_not_go_backwards(clock):
    with pytest.raises(ValueError):
        await clock.advance(-1)
    await clock.advance(timedelta(minutes=2))
    assert clock.now() == START + timedelta(minutes=2)


async def test_system_clock_sleeps_until_the_deadline():
    clock = SystemClock(max_nap=0.005)
    start = clock.now()
    assert start.tzinfo is not None
    await clock.sleep_until(start + timedelta(milliseconds=20))
    assert clock.now() - start >= timedelta(milliseconds=20)
    await clock.sleep_until(start - timedelta(hours=1))  # already past: returns at once


async def test_expiry_closes_the_window_through_the_no_reaction_command(clock):
    """At the deadline the window is answered exactly as a player's "No reaction" would be."""
    state = started(
        game(
            make_unit("us", "Infantry Detachment", "allies", (10, 10), unit_id="gis"),
            make_unit("german", "Infantry Detachment", "axis", (80, 60), unit_id="gren"),
        ),
        "axis",
    )
    state, _ = apply(
        state,
        Declare(side="axis", order=UnitOrder(unit="gren", actions=(Move(path=(Point(x=80, y=56),)),))),
        ScriptedDice([]),
    )
    assert state.phase is Phase.REACTION
    games = {"channel-1": state}

    async def close_window(key):
        channel, window = key
        current = games[channel]
        games[channel], _ = apply(
            current,
            DeclineReaction(side=current.pending.reactor_side, window=window),
            ScriptedDice([]),
        )

    timers = ReactionTimers(clock, close_window)
    timers.arm(("channel-1", state.pending.window), clock.now() + seconds(120))
    await clock.advance(119)
    assert games["channel-1"].phase is Phase.REACTION
    await clock.advance(1)
    assert games["channel-1"].phase is Phase.ACTIVE
    assert games["channel-1"].units["gren"].position == Point(x=80, y=56)


async def test_overdue_counts_the_deadlines_due_and_not_done_firing_waiting_their_turn_or_a_retry():
    clock = VirtualClock(START)
    release = asyncio.Event()
    failed_once: set = set()

    async def slow(key) -> None:
        await release.wait()
        if key == "c" and key not in failed_once:
            failed_once.add(key)
            raise RuntimeError("database is locked")

    timers = ReactionTimers(clock, slow, limit=asyncio.Semaphore(1))
    for key in ("a", "b", "c"):
        timers.arm(key, START - seconds(1))
    timers.arm("later", START + timedelta(hours=1))
    for _ in range(5):
        await asyncio.sleep(0)
    assert timers.armed == {"b", "c", "later"} and timers.overdue == 3  # one firing, two waiting their turn
    release.set()
    for _ in range(20):
        await asyncio.sleep(0)
    assert timers.armed == {"c", "later"} and timers.overdue == 1  # "c" waits to be tried again
    await clock.advance(1)
    assert timers.overdue == 0 and timers.armed == {"later"}
    await timers.close()


async def test_a_window_answered_while_it_waits_its_turn_to_fire_never_fires():
    """Due windows beyond the limit stay armed in the queue, so an answer still cancels them."""
    clock = VirtualClock(START)
    release = asyncio.Event()
    fired = []

    async def slow(key) -> None:
        await release.wait()
        fired.append(key)

    timers = ReactionTimers(clock, slow, limit=asyncio.Semaphore(1))
    timers.rearm([("first", START - seconds(2)), ("answered", START - seconds(1))])
    for _ in range(5):
        await asyncio.sleep(0)
    assert timers.cancel("answered") and timers.armed == frozenset()
    release.set()
    await clock.advance(60)
    assert fired == ["first"]


async def test_a_hundred_thousand_armed_windows_are_entries_of_one_queue_not_tasks(clock):
    fired, on_expire = recorder()
    timers = ReactionTimers(clock, on_expire)
    before = len(asyncio.all_tasks())
    timers.rearm((("channel", n), START + seconds(60 + n % 600)) for n in range(100_000))
    await clock.advance(0)
    assert len(timers.armed) == 100_000 and len(asyncio.all_tasks()) - before == 1
    assert clock.sleepers == 1, "one runner asleep on the earliest deadline"
    await clock.advance(60)
    assert len(fired) == 167 and all(key[1] % 600 == 0 for key in fired)
