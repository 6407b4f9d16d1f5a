"""A side at its share of the table in set-up (Iron Cross 2015, pp. 28-30; issue 32): it has
nothing more it may set up, so turn about the other side goes on, and it says it is done."""

import pytest

from engine.commands import Deploy, FinishDeployment
from engine.deployment.placing import may_still_set_up, still_to_place, whose_turn
from engine.errors import IllegalCommand
from engine.scenarios.book import find_scenario
from engine.scenarios.new_game import make_unit
from engine.scenarios.setup import set_up_scenario
from tests.engine.helpers import P, game, play


def meeting(allied: int = 4, german: int = 8):
    """A Meeting Engagement (3/4 of each side on the table, p. 28), the Allies placing first."""
    units = [
        *(make_unit("us", "Infantry Detachment", "allies", (0, 0), unit_id=f"a{n}") for n in range(allied)),
        *(make_unit("german", "Infantry Detachment", "axis", (0, 0), unit_id=f"x{n}") for n in range(german)),
    ]
    return set_up_scenario(game(*units), find_scenario("meeting"), {"allies": "first", "axis": "second"})


def test_turn_about_the_other_side_goes_on_once_one_is_at_its_share_p28():
    state = meeting()  # the Allies may put 3 of 4 on the table, the Axis 6 of 8
    for n in range(3):
        state, _ = play(state, Deploy(side="allies", unit=f"a{n}", at=P(6 + 6 * n, 5)))
        state, _ = play(state, Deploy(side="axis", unit=f"x{n}", at=P(6 + 6 * n, 67), facing=270))
    assert state.deployment.sides["allies"].full and may_still_set_up(state, "allies") == []
    assert whose_turn(state.deployment) == "axis"  # not the Allies, who could only say they are done
    state, _ = play(state, Deploy(side="axis", unit="x3", at=P(30, 67), facing=270))
    assert whose_turn(state.deployment) == "axis"
    with pytest.raises(IllegalCommand, match="^The Allies may start with at most 3 units on the table"):
        play(state, Deploy(side="allies", unit="a3", at=P(40, 5)))  # told so, whoever's turn it is
    state, _ = play(state, FinishDeployment(side="allies"))
    assert whose_turn(state.deployment) == "axis"


def test_the_units_still_to_place_are_those_the_share_has_room_for():
    state = meeting()
    assert still_to_place(state, "allies") == 3 and still_to_place(state, "axis") == 6
    state, _ = play(state, Deploy(side="allies", unit="a0", at=P(6, 5)))
    assert still_to_place(state, "allies") == 2
