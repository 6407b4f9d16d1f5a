"""Movement rates and terrain tests (Iron Cross 2015, pp. 8-9, 13)."""

import pytest

from engine.profiles import find_profile
from engine.rules.movement import (
    fall_back_allowance,
    movement_allowance,
    rapid_move_allowed_in,
    terrain_test_score_needed,
    vehicle_turn_limit,
)
from engine.state import Going


@pytest.mark.parametrize(
    ("nation", "name", "rates"),
    [
        ("german", "Infantry Detachment", (6, 9, 12)),
        ("german", "MG Team", (6, 9, 12)),
        ("german", "Sd.Kfz 222", (12, 18, 24)),
        ("german", "Panther", (10, 15, 20)),
        ("german", "Tiger I", (8, 10, 12)),
    ],
)
def test_movement_table_p8(nation, name, rates):
    profile = find_profile(nation, name)
    got = (
        movement_allowance(profile, rapid=False, road=False),
        movement_allowance(profile, rapid=True, road=False),
        movement_allowance(profile, rapid=True, road=True),
    )
    assert got == rates


def test_vehicle_near_enemy_infantry_moves_half_p8():
    assert movement_allowance(find_profile("german", "Panther"), rapid=False, road=False, cautious=True) == 5


def test_vehicle_turn_limits_p8():
    assert vehicle_turn_limit(rapid=False) == 180
    assert vehicle_turn_limit(rapid=True) == 90


def test_fall_back_rapid_vehicles_reverse_at_normal_p13():
    assert fall_back_allowance(find_profile("german", "Infantry Detachment"), reverse=False) == 9
    assert fall_back_allowance(find_profile("german", "Panther"), reverse=True) == 10
    assert fall_back_allowance(find_profile("german", "Panther"), reverse=False) == 15


@pytest.mark.parametrize(
    ("nation", "name", "rough", "very_rough"),
    [
        ("german", "Truck/Kubelwagen", 6, 7),
        ("german", "251 Halftrack", 3, 4),
        ("german", "Panther", 2, 3),
        ("german", "Sd.Kfz 222", 2, 3),  # scout cars test as tracked vehicles
        ("german", "Tiger I", None, 2),
        ("german", "Infantry Detachment", None, 4),
        ("german", "MG Team", None, 4),
        ("german", "PaK40 Anti-tank Gun", 2, 7),
    ],
)
def test_terrain_test_scores_p9(nation, name, rough, very_rough):
    profile = find_profile(nation, name)
    assert terrain_test_score_needed(profile, Going.ROUGH, wire=False) == rough
    assert terrain_test_score_needed(profile, Going.VERY_ROUGH, wire=False) == very_rough


def test_wire_minus_one_p9():
    infantry = find_profile("german", "Infantry Detachment")
    assert terrain_test_score_needed(infantry, Going.VERY_ROUGH, wire=True) == 5


def test_easy_going_needs_no_test_and_impassable_cannot_be_crossed_p8():
    panther = find_profile("german", "Panther")
    assert terrain_test_score_needed(panther, Going.EASY, wire=False) is None
    assert terrain_test_score_needed(panther, Going.IMPASSABLE, wire=False) == 7


def test_no_rapid_moves_in_rough_ground_p9():
    assert rapid_move_allowed_in(Going.EASY)
    assert not rapid_move_allowed_in(Going.ROUGH)
    assert not rapid_move_allowed_in(Going.VERY_ROUGH)
