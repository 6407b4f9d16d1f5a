"""A unit set up by mistake is set up again, elsewhere (issue 32; our own rule): the unit just
set up at once, whoever's turn it is now; another on the side's own turn, which it takes; none
once the side is done. Under hidden deployment it keeps its marker."""

import pytest

from engine.commands import Deploy, FinishDeployment
from engine.deployment.placing import whose_turn
from engine.errors import IllegalCommand
from engine.view import told
from tests.engine.helpers import P, play, text
from tests.engine.test_set_up_share import meeting
from tests.renderer.test_set_up_zones import capture


def test_the_unit_just_set_up_is_set_up_again_at_once():
    state = meeting()
    state, _ = play(state, Deploy(side="allies", unit="a0", at=P(6, 5)))
    assert whose_turn(state.deployment) == "axis"
    state, events = play(state, Deploy(side="allies", unit="a0", at=P(20, 8)))
    assert text(events) == "The Allies set up Infantry Detachment at 20.0,8.0 instead"
    assert state.units["a0"].position == P(20, 8) and whose_turn(state.deployment) == "axis"
    assert state.deployment.placed == 1 and state.deployment.sides["allies"].waiting == ["a1", "a2", "a3"]


def test_an_earlier_unit_is_set_up_again_on_the_sides_own_turn_which_it_takes():
    state = meeting()
    state, _ = play(state, Deploy(side="allies", unit="a0", at=P(6, 5)))
    state, _ = play(state, Deploy(side="axis", unit="x0", at=P(6, 67), facing=270))
    state, _ = play(state, Deploy(side="allies", unit="a1", at=P(12, 5)))
    with pytest.raises(IllegalCommand, match="^It is the Axis' turn to set up a unit$"):
        play(state, Deploy(side="allies", unit="a0", at=P(30, 5)))  # not the last one set up
    state, _ = play(state, Deploy(side="axis", unit="x1", at=P(12, 67), facing=270))
    state, _ = play(state, Deploy(side="allies", unit="a0", at=P(30, 5)))
    assert state.units["a0"].position == P(30, 5) and whose_turn(state.deployment) == "axis"


def test_nothing_is_set_up_again_once_the_side_is_done():
    state = meeting()
    state, _ = play(state, Deploy(side="allies", unit="a0", at=P(6, 5)))
    state, _ = play(state, FinishDeployment(side="allies"))
    with pytest.raises(IllegalCommand, match="^The Allies have finished setting up: Infantry Detachment"):
        play(state, Deploy(side="allies", unit="a0", at=P(20, 5)))


def test_under_hidden_deployment_a_unit_set_up_again_keeps_its_marker_p26():
    state = capture("Infantry Detachment")  # the Allies defend, hidden, setting up first
    state, _ = play(state, Deploy(side="allies", unit="allies-1", at=P(30, 20)))
    assert state.units["allies-1"].name == "Marker 1"
    state, events = play(state, Deploy(side="allies", unit="allies-1", at=P(40, 20)))
    unit = state.units["allies-1"]
    assert (unit.name, unit.marker, unit.true_name, unit.position) == (
        "Marker 1",
        1,
        "Infantry Detachment (Allies)",
        P(40, 20),
    )
    (event,) = events
    assert (
        told(event, "allies")
        == "The Allies set up Infantry Detachment (Allies) as Marker 1 at 40.0,20.0 instead"
    )
    assert told(event, "axis") == "The Allies set up Marker 1 at 40.0,20.0"
