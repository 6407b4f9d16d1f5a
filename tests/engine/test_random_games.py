"""Whole seeded random games between the quick battle's forces run to a result, and replaying
their commands with the recorded dice reproduces every event exactly."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.game import replay
from engine.quick_battle import quick_battle
from engine.state import Phase
from tests.engine.random_play import play_random_game


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_random_game_reaches_a_result_and_replays_exactly(seed):
    start = quick_battle()
    final, history = play_random_game(start, seed)
    assert start == quick_battle(), "applying commands must never change the state passed in"
    assert final.phase is Phase.OVER, f"seed {seed} did not finish"
    assert final.result is not None
    replayed, events = replay(start, history)
    assert events == [recorded for _, recorded in history]
    assert replayed == final


def test_every_die_is_recorded_with_its_purpose():
    _, history = play_random_game(quick_battle(), seed=7)
    rolls = [roll for _, events in history for event in events for roll in event.rolls]
    assert rolls, "a whole game rolls dice"
    assert all(roll.purpose and 1 <= roll.value <= roll.sides for roll in rolls)
    assert {roll.sides for roll in rolls} == {6, 10}
