"""Whole seeded random games run to a result; every command, played or refused, leaves the state
it was given unchanged (the engine's promise); and replaying the commands with the recorded dice
reproduces every event exactly. The games: the quick battle, a house-rules game, a team game and
a scenario game whose sides call reserves each turn."""

from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.commands import CallReserves, GiveBonusTokens
from engine.dice import DieCategory, category_of_purpose
from engine.game import replay
from engine.game_state import GameState
from engine.rulesets import with_rule_set
from engine.scenarios.quick_battle import quick_battle
from engine.state import Phase
from tests.engine.random_play import play_random_game
from tests.engine.team_games import turn_one
from tests.engine.test_scenario_games import deployed, joined


@cache
def _start(kind: str) -> GameState:
    if kind == "quick battle":
        return quick_battle()
    if kind == "house rules":
        return with_rule_set(quick_battle("crossroads", "soviet"), "house-v1")
    if kind == "team game":
        return turn_one()
    return deployed(joined("escalating", {}), seed=1)


KINDS = ["quick battle", "house rules", "team game", "scenario with reserves"]
MARKS = {  # a command each game of that kind must have played
    "team game": GiveBonusTokens,
    "scenario with reserves": CallReserves,
}


@pytest.mark.parametrize("kind", KINDS)
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_random_game_reaches_a_result_keeps_its_input_and_replays_exactly(kind, seed):
    start = _start(kind)
    before = start.model_dump_json()
    final, history = play_random_game(start, seed)  # checks every apply's input
    assert start.model_dump_json() == before
    assert final.phase is Phase.OVER, f"{kind}, seed {seed} did not finish"
    assert final.result is not None
    if kind in MARKS:
        assert any(isinstance(command, MARKS[kind]) for command, _ in history)
    replayed, events = replay(start, history)
    assert events == [recorded for _, recorded in history]
    assert replayed == final


@pytest.mark.parametrize("kind", ["quick battle", "house rules"])
def test_every_die_is_recorded_with_its_purpose_and_category(kind):
    _, history = play_random_game(_start(kind), seed=7)
    rolls = [roll for _, events in history for event in events for roll in event.rolls]
    assert rolls, "a whole game rolls dice"
    assert all(roll.purpose and 1 <= roll.value <= roll.sides for roll in rolls)
    assert {roll.sides for roll in rolls} == {6, 10}
    # each roll site names its die's category; /stats groups them as it did from the purposes
    assert [roll.category for roll in rolls] == [category_of_purpose(roll.purpose) for roll in rolls]
    assert {DieCategory.TO_HIT, DieCategory.REACTION, DieCategory.MORALE} <= {roll.category for roll in rolls}
