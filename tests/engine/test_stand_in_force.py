"""The force the stand-in buys for a scenario (engine.stand_in_force): legal by the orders of
battle, within the scenario's points for its side, the same for the same seed."""

import pytest

from engine.forces import bought_as, force_points, force_problems
from engine.stand_in_force import stand_in_force, stand_in_joins, stand_in_points
from engine.state import STAND_IN


@pytest.mark.parametrize("rules", ["core_2015", "house_v1"])
@pytest.mark.parametrize("nation", ["us", "british", "soviet", "german"])
def test_its_force_is_legal_and_spends_its_points_half_of_them_on_infantry(nation, rules):
    force = stand_in_force(nation, 300, "defender", rules, seed=5)
    assert force_problems(force, defending=True) == []
    assert 300 - 25 < force_points(force) <= 300 and force.rules == rules
    on_foot = sum(
        bought_as(force, u.profile).points
        for u in force.units
        if bought_as(force, u.profile).unit_class == "infantry"
    )
    assert 2 * on_foot >= 300  # a Breakthrough defender's share (p. 31)
    assert stand_in_force(nation, 300, "defender", rules, seed=5) == force


def test_in_capture_the_attacking_bot_buys_twice_the_points_and_elsewhere_as_many():
    assert stand_in_points("capture", "attacker", 200) == 400
    assert stand_in_points("capture", "defender", 200) == 200
    assert stand_in_points("meeting", "first", 200) == 200
    joining = stand_in_joins("capture", "axis", "attacker", "german", 200, "core_2015")
    assert joining.player == STAND_IN and joining.points_limit == 400 and joining.side == "axis"
    assert 350 < sum(u.profile.points for u in joining.units) <= 400
    assert all(u.side == "axis" and u.profile.nation == "german" for u in joining.units)
