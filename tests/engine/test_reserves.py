"""Reserves: called before tokens are drawn, 3+ on a d6 each, a token each, a move onto the
table from the side's edge, lost if they do not come on (Iron Cross 2015, p. 26; p. 29)."""

import pytest

from engine.commands import (
    CallReserves,
    ChooseInitiative,
    Declare,
    DeclineReaction,
    Fire,
    Move,
    PassInitiative,
    RefereeCorrection,
    StartGame,
    UnitOrder,
)
from engine.dice import d6
from engine.errors import IllegalCommand
from engine.game import awaiting
from engine.scenarios.new_game import make_unit
from engine.state import Phase
from engine.view import REFEREE, view_for
from tests.engine.helpers import P, game, play, text


def with_reserves(from_turn=1, half_first=False, reserves=2):
    state = game(
        make_unit("us", "Infantry Detachment", "allies", (10, 10), unit_id="a", command=True),
        *(
            make_unit("us", "Infantry Detachment", "allies", (0, 0), unit_id=f"r{n}", in_reserve=True)
            for n in range(1, reserves + 1)
        ),
        make_unit("german", "Infantry Detachment", "axis", (10, 60), unit_id="x", command=True),
    )
    state.sides["allies"].reserves_from_turn = from_turn
    state.sides["allies"].reserves_half_first = half_first
    return state


def test_reserves_are_called_before_tokens_each_3_plus_brings_one_and_a_token_p26():
    state, events = play(with_reserves(), StartGame())
    assert state.phase is Phase.RESERVES and awaiting(state) == "allies"
    assert "Turn 1: the Allies may call up to 2 reserves before tokens are drawn" in text(events)
    state, events = play(state, CallReserves(side="allies", units=("r2", "r1")), d6(3), d6(2), d6(6), d6(1))
    assert "The Allies call 2 reserves: rolled 3, 2; available this turn: Infantry Detachment" in text(events)
    assert state.units["r2"].reserve_available and not state.units["r1"].reserve_available
    assert (
        state.sides["allies"].tokens == 1 + 1 + 2
    )  # the unit on the table, the arriving reserve, the command unit


def started_with_r1_available():
    state, _ = play(with_reserves(), StartGame())
    state, _ = play(state, CallReserves(side="allies", units=("r1",)), d6(4), d6(6), d6(1))
    state, _ = play(state, ChooseInitiative(side="allies", go_first=True))
    return state


def test_a_reserve_comes_on_with_a_move_from_its_sides_edge_p26():
    state = started_with_r1_available()
    enter = UnitOrder(unit="r1", actions=(Move(path=(P(30, 0), P(30, 4))),))
    state, _ = play(state, Declare(side="allies", order=enter))
    state, events = play(state, DeclineReaction(side="axis", window=state.pending.window))
    assert "Infantry Detachment comes on from reserve at 30.0,0.0" in text(events)
    unit = state.units["r1"]
    assert unit.position == P(30, 4) and unit.on_table and not unit.reserve_available


@pytest.mark.parametrize(
    ("order", "refusal"),
    [
        (
            UnitOrder(unit="r1", actions=(Move(path=(P(30, 0),)), Fire(target="x"))),
            "move only, and may not fire",
        ),
        (
            UnitOrder(unit="r1", actions=(Move(path=(P(30, 5),)),)),
            "must come on at the Allies' near table edge",
        ),
        (UnitOrder(unit="r2", actions=(Move(path=(P(30, 0),)),)), "is in reserve and not on the table"),
    ],
)
def test_entering_refusals_p26(order, refusal):
    with pytest.raises(IllegalCommand, match=refusal):
        play(started_with_r1_available(), Declare(side="allies", order=order))


def test_a_reserve_off_its_edge_is_told_where_the_edge_is_and_a_move_that_enters_p26():
    state = started_with_r1_available()
    off_the_edge = UnitOrder(unit="r1", actions=(Move(path=(P(39, 5),)),))
    with pytest.raises(IllegalCommand) as refused:
        play(state, Declare(side="allies", order=off_the_edge))
    assert str(refused.value) == (
        "Infantry Detachment must come on at the Allies' near table edge (y = 0, within 0.5\"); "
        "39.0,5.0 is not on it: start the move on the edge, e.g. move:39.0,0.0;39.0,5.0"
    )
    told = UnitOrder(unit="r1", actions=(Move(path=(P(39, 0), P(39, 5))),))
    state, _ = play(state, Declare(side="allies", order=told))
    state, _ = play(state, DeclineReaction(side="axis", window=state.pending.window))
    assert state.units["r1"].position == P(39, 5)


def test_an_available_reserve_that_does_not_come_on_is_lost_p26():
    state = started_with_r1_available()
    state, _ = play(
        state, Declare(side="allies", order=UnitOrder(unit="a", actions=(Move(path=(P(10, 12),)),)))
    )
    state, _ = play(state, DeclineReaction(side="axis", window=state.pending.window))
    state.sides["allies"].tokens = 0
    state.sides["axis"].tokens = 0
    state, events = play(state, PassInitiative(side="allies"), d6(1), d6(1))
    assert "Infantry Detachment never came on: lost in the rear" in text(events)
    assert state.units["r1"].destroyed and state.units["r2"].in_reserve
    assert "Turn 2: the Allies may call up to 1 reserve" in text(events)


def test_a_reserve_lost_in_the_rear_and_restored_by_the_referee_is_back_in_reserve():
    """It never came on: it is neither drawn nor put back on the table (it has no place there)."""
    state = started_with_r1_available()
    state.referees = ["ref"]
    state.sides["allies"].tokens = state.sides["axis"].tokens = 0
    state, _ = play(state, PassInitiative(side="allies"), d6(1), d6(1))
    assert state.units["r1"].destroyed
    assert "r1" not in {unit.id for unit in view_for(state, REFEREE).units}  # no wreck at 0,0
    fix = RefereeCorrection(referee="ref", reason="it was on the road", change="restore", unit="r1")
    state, events = play(state, fix)
    unit = state.units["r1"]
    assert not unit.destroyed and unit.in_reserve and not unit.on_table
    assert "is back in play in reserve, off the table" in text(events)


def test_no_reserves_before_the_scenarios_turn_p28():
    state, events = play(with_reserves(from_turn=3), StartGame(), d6(6), d6(1))
    assert state.phase is Phase.INITIATIVE and "reserves" not in text(events)


def test_escalating_engagement_only_half_the_reserves_in_the_first_turn_p29():
    state, _ = play(with_reserves(half_first=True, reserves=5), StartGame())
    with pytest.raises(IllegalCommand, match="The Allies may call at most 2 reserves this turn"):
        play(state, CallReserves(side="allies", units=("r1", "r2", "r3")))


def test_only_the_sides_own_waiting_reserves_may_be_called():
    state, _ = play(with_reserves(), StartGame())
    with pytest.raises(IllegalCommand, match="is not one of the Allies' reserves"):
        play(state, CallReserves(side="allies", units=("a",)))
