"""An objective the referee set for one side (2015 rulebook p. 25) is drawn only in that side's
and the referee's pictures: the other side's and the spectators' are pixel for pixel as if it
were not there."""

import pytest

from engine.state import Objective, Point
from renderer import render
from tests.renderer.scenes import quick_started

CHURCH = Objective(id="church", position=Point(x=33, y=27), side="axis")


def pictures(viewer):
    state, _ = quick_started()
    with_church = state.fork()
    with_church.objectives.append(CHURCH)
    return render(with_church, viewer), render(state, viewer)


@pytest.mark.parametrize(
    ("viewer", "drawn"), [("axis", True), ("referee", True), ("allies", False), (None, False)]
)
def test_a_sides_objective_shows_only_to_that_side_and_the_referee(viewer, drawn):
    with_church, without = pictures(viewer)
    assert (with_church != without) is drawn
