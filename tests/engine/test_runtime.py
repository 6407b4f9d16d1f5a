"""Reaction-window timers in virtual time."""

import asyncio
import logging
from datetime import timedelta

from engine.commands import Declare, DeclineReaction, Move, UnitOrder
from engine.dice import ScriptedDice
from engine.game import apply
from engine.runtime import ReactionTimers, SystemClock, VirtualClock
from engine.setup import make_unit
from engine.state import Phase, Point
from tests.engine.helpers import game, started


def recorder():
    fired: list = []

    async def on_expire(key):
        fired.append(key)

    return fired, on_expire


async def test_window_expires_at_its_deadline_not_before():
    clock = VirtualClock()
    fired, on_expire = recorder()
    timers = ReactionTimers(clock, on_expire)
    timers.arm("w1", clock.now() + timedelta(seconds=120))
    await clock.advance(119)
    assert fired == [] and timers.time_left("w1") == timedelta(seconds=1)
    await clock.advance(1)
    assert fired == ["w1"]
    assert timers.armed == frozenset() and not timers.cancel("w1")


async def test_answered_window_does_not_expire():
    clock = VirtualClock()
    fired, on_expire = recorder()
    timers = ReactionTimers(clock, on_expire)
    timers.arm("w1", clock.now() + timedelta(seconds=15))
    assert timers.cancel("w1")
    await clock.advance(60)
    assert fired == []


async def test_rearming_replaces_the_deadline():
    clock = VirtualClock()
    fired, on_expire = recorder()
    timers = ReactionTimers(clock, on_expire)
    timers.arm("w1", clock.now() + timedelta(seconds=10))
    timers.arm("w1", clock.now() + timedelta(seconds=100))
    await clock.advance(50)
    assert fired == []
    await clock.advance(50)
    assert fired == ["w1"]


async def test_after_a_restart_expired_windows_fire_at_once_and_others_keep_their_time():
    clock = VirtualClock()
    fired, on_expire = recorder()
    timers = ReactionTimers(clock, on_expire)
    now = clock.now()
    timers.rearm(
        [
            ("later", now + timedelta(seconds=30)),
            ("missed-2", now - timedelta(seconds=5)),
            ("missed-1", now - timedelta(hours=2)),
        ]
    )
    await clock.advance(0)
    assert fired == ["missed-1", "missed-2"]
    await clock.advance(29)
    assert fired == ["missed-1", "missed-2"]
    await clock.advance(1)
    assert fired == ["missed-1", "missed-2", "later"]


async def test_many_windows_fire_in_deadline_order_and_a_failure_does_not_stop_others(caplog):
    clock = VirtualClock()
    fired = []

    async def on_expire(key):
        fired.append(key)
        if key == "b":
            raise RuntimeError("storage down")

    timers = ReactionTimers(clock, on_expire)
    for key, seconds in [("c", 300), ("a", 15), ("b", 120), ("d", 48 * 3600)]:
        timers.arm(key, clock.now() + timedelta(seconds=seconds))
    with caplog.at_level(logging.ERROR):
        await clock.advance(48 * 3600)
    assert fired == ["a", "b", "c", "d"]
    assert "closing reaction window 'b' failed" in caplog.text


async def test_close_cancels_every_timer():
    clock = VirtualClock()
    fired, on_expire = recorder()
    timers = ReactionTimers(clock, on_expire)
    timers.arm("a", clock.now() + timedelta(seconds=15))
    timers.arm("b", clock.now() + timedelta(seconds=15))
    await timers.close()
    await clock.advance(30)
    assert fired == [] and timers.armed == frozenset()


async def test_system_clock_sleeps_until_the_deadline():
    clock = SystemClock()
    start = clock.now()
    await clock.sleep_until(start + timedelta(milliseconds=20))
    assert clock.now() - start >= timedelta(milliseconds=20)


async def test_expiry_closes_the_window_through_the_no_reaction_command():
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
    games = {"channel-1": state}

    async def close_window(key):
        channel, window = key
        current = games[channel]
        games[channel], _ = apply(
            current,
            DeclineReaction(side=current.pending.reactor_side, window=window),
            ScriptedDice([]),
        )

    clock = VirtualClock()
    timers = ReactionTimers(clock, close_window)
    timers.arm(("channel-1", state.pending.window), clock.now() + timedelta(seconds=120))
    await clock.advance(120)
    assert games["channel-1"].phase is Phase.ACTIVE
    assert games["channel-1"].units["gren"].position == Point(x=80, y=56)
    await asyncio.sleep(0)
