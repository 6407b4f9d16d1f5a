"""Activation, reaction, seizing and initiative rules (Iron Cross 2015, pp. 4-7, 13, 18-19)."""

from engine.rules.activation import (
    command_radius,
    initiative_winner,
    morale_test_reaction_score_needed,
    reaction_score_needed,
    reactivation_score_needed,
    seizes_initiative,
)
from engine.scenarios.new_game import make_unit


def sherman(**flags):
    return make_unit("us", "Sherman 75mm", "allies", (10, 10), **flags)


def reacting(unit, tokens=0, **kw):
    args = dict(enemy_is_foot_soldiers=False, enemy_mounted=False, enemy_started_in_cover=False)
    args.update(kw)
    return reaction_score_needed(unit, tokens, **args)


def test_reactivation_sherman_example_p4():
    """p. 4: a Sherman with one token needs 2+; with two morale markers as well, 4+."""
    assert reactivation_score_needed(sherman(), 1).needed == 2
    assert reactivation_score_needed(sherman(morale_markers=2), 1).needed == 4


def test_reactivation_heavy_tiger_needs_3_p19():
    """p. 19: a Tiger's second activation needs 3+ where others need 2+."""
    tiger = make_unit("german", "Tiger I", "axis", (0, 0))
    score = reactivation_score_needed(tiger, 1)
    assert score.needed == 3
    assert "heavy -1" in score.describe()


def test_reactivation_six_always_succeeds_p4():
    score = reactivation_score_needed(sherman(morale_markers=5), 3)
    assert score.needed == 9
    assert score.passes(6)
    assert not score.passes(5)


def test_reactivation_fall_back_ignores_markers_p13():
    """p. 13: the MG nest with one activation and three markers needs 2+ to reactivate to fall back."""
    mg = make_unit("german", "MG Team", "axis", (0, 0), morale_markers=3)
    assert reactivation_score_needed(mg, 1, falling_back=True).needed == 2
    assert reactivation_score_needed(mg, 1).needed == 5


def test_reaction_sherman_example_p6():
    """p. 6: a Sherman that has activated once needs 4+ to react; a roll of 4 succeeds."""
    score = reacting(sherman(), 1)
    assert score.needed == 4
    assert score.passes(4) and not score.passes(3)


def test_reaction_base_and_markers_p6():
    assert reacting(sherman()).needed == 3
    assert reacting(sherman(morale_markers=2), 1).needed == 6


def test_reaction_vehicle_against_infantry_p7():
    """p. 7: a vehicle reacting to infantry needs 4+, 5+ if the infantry began in cover,
    and no penalty if the infantry is mounted."""
    assert reacting(sherman(), enemy_is_foot_soldiers=True).needed == 4
    assert reacting(sherman(), enemy_is_foot_soldiers=True, enemy_started_in_cover=True).needed == 5
    assert reacting(sherman(), enemy_is_foot_soldiers=True, enemy_mounted=True).needed == 3


def test_reaction_infantry_against_infantry_has_no_vehicle_penalty_p7():
    infantry = make_unit("us", "Infantry Detachment", "allies", (0, 0))
    assert reacting(infantry, enemy_is_foot_soldiers=True, enemy_started_in_cover=True).needed == 3


def test_reaction_scout_car_2_plus_ignoring_markers_not_tokens_p19():
    puma = make_unit("german", "Sd.Kfz 234/2 8-Rad Puma", "axis", (0, 0), morale_markers=3)
    assert reacting(puma).needed == 2
    assert reacting(puma, 1).needed == 3


def test_reaction_fall_back_ignores_markers_mg_nest_example_p13():
    """p. 13: the MG nest (one activation, three markers) needs 4+ to react by falling back."""
    mg = make_unit("german", "MG Team", "axis", (0, 0), morale_markers=3)
    assert reacting(mg, 1, falling_back=True).needed == 4


def test_reaction_company_morale_test_needs_3_p6():
    assert morale_test_reaction_score_needed().needed == 3


def test_seize_on_a_six_only_p7():
    assert seizes_initiative(6)
    assert not any(seizes_initiative(r) for r in range(1, 6))


def test_initiative_highest_wins_ties_reroll_p4():
    assert initiative_winner(5, 2) == 0
    assert initiative_winner(1, 6) == 1
    assert initiative_winner(4, 4) is None


def test_command_radius_12_or_6_on_small_table_p18():
    assert command_radius(False) == 12.0
    assert command_radius(True) == 6.0
