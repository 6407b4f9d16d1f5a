"""Firing rules (Iron Cross 2015, pp. 10-11 and special rules pp. 18-20)."""

from engine.rules.firing import (
    Shot,
    anti_vehicle_weapon,
    casualty_markers,
    casualty_score_needed,
    dice_to_fire,
    effective_cover,
    extra_marker_cap,
    markers_for_hits,
    to_hit_score_needed,
    why_cannot_fire,
)
from engine.scenarios.new_game import make_unit
from engine.state import CoverKind


def u(nation, name, **kw):
    return make_unit(nation, name, "a" if nation == "german" else "b", (0, 0), **kw)


def shot(firer, target, rng=20.0, **kw):
    args = dict(firer_moved=False, firer_stationary=True, target_moved=False)
    args.update(kw)
    return Shot(firer=firer, target=target, range=rng, **args)


INF_DE = ("german", "Infantry Detachment")
INF_US = ("us", "Infantry Detachment")


def test_dice_two_at_infantry_within_12_one_beyond_p10():
    firer = u(*INF_DE)
    assert dice_to_fire(shot(firer, u(*INF_US), 12.0)) == 2
    assert dice_to_fire(shot(firer, u(*INF_US), 12.5)) == 1
    assert dice_to_fire(shot(u("german", "Panther"), u("us", "Sherman 75mm"), 5.0)) == 1


def test_dice_anti_tank_gun_always_one_p18():
    assert dice_to_fire(shot(u("german", "PaK40 Anti-tank Gun"), u(*INF_US), 6.0)) == 1


def test_dice_mg_team_two_at_any_range_when_stationary_p19():
    mg = u("german", "MG Team")
    assert dice_to_fire(shot(mg, u(*INF_US), 30.0)) == 2
    assert dice_to_fire(shot(mg, u(*INF_US), 6.0, firer_moved=True, firer_stationary=False)) == 1


def test_dice_infantry_gun_two_only_if_stationary_p19():
    flak = u("german", "Flakvierling 38")
    assert dice_to_fire(shot(flak, u(*INF_US), 10.0)) == 2
    assert dice_to_fire(shot(flak, u(*INF_US), 10.0, firer_stationary=False)) == 1


def test_to_hit_panther_and_sherman_example_p7():
    """p. 7: the moving Panther firing at the moving Sherman has -3 (8+); the Sherman, moved,
    firing at the Panther that moved, with one fresh marker, has -4 (9+)."""
    panther = u("german", "Panther")
    sherman = u("us", "Sherman 75mm")
    score = to_hit_score_needed(shot(panther, sherman, 20.0, firer_moved=True, target_moved=True))
    assert score.needed == 8
    assert score.modifiers == (("moved", -2), ("target moved", -1))
    sherman.morale_markers = 1
    score = to_hit_score_needed(shot(sherman, panther, 20.0, firer_moved=True, target_moved=True))
    assert score.needed == 9


def test_to_hit_issue_example_close_range_p10():
    """5+ with -2 moved, -1 target moved, +1 close range -> 7+."""
    score = to_hit_score_needed(
        shot(u("german", "Panther"), u("us", "Sherman 75mm"), 10.0, firer_moved=True, target_moved=True)
    )
    assert score.needed == 7
    assert score.describe() == "7+ (-2 moved, -1 target moved, +1 close range)"


def test_to_hit_infantry_detachment_ignores_firer_moved_p10():
    score = to_hit_score_needed(shot(u(*INF_DE), u(*INF_US), 20.0, firer_moved=True))
    assert score.needed == 5


def test_to_hit_smoke_and_enemy_infantry_near_vehicle_p10():
    score = to_hit_score_needed(
        shot(
            u("german", "Panther"),
            u("us", "Sherman 75mm"),
            20.0,
            target_in_smoke=True,
            enemy_infantry_close=True,
        )
    )
    assert score.needed == 7


def test_to_hit_mortar_8_then_ranged_in_p20():
    mortar = u("german", "Mortar Team")
    assert to_hit_score_needed(shot(mortar, u(*INF_US), 20.0)).needed == 8
    assert to_hit_score_needed(shot(mortar, u(*INF_US), 20.0, mortar_previous_shots=2)).needed == 6


def test_to_hit_sniper_plus_2_p20():
    assert to_hit_score_needed(shot(u("german", "Sniper Team"), u(*INF_US), 20.0)).needed == 3


def test_casualty_scores_by_cover_p10():
    firer, target = u(*INF_DE), u(*INF_US)
    assert casualty_score_needed(shot(firer, target, cover=CoverKind.OPEN)) == 4
    assert casualty_score_needed(shot(firer, target, cover=CoverKind.COVER)) == 5
    assert casualty_score_needed(shot(firer, target, cover=CoverKind.FORTIFICATION)) == 6


def test_casualty_roll_example_p10():
    """p. 10: two hits at close range give one marker; both converted still add just one."""
    s = shot(u(*INF_DE), u(*INF_US), 8.0)
    assert markers_for_hits(s, 2) == 1
    assert casualty_markers(s, [4, 6]) == 1
    assert casualty_markers(s, [3, 2]) == 0


def test_mortar_ignores_cover_and_treats_trenches_as_cover_p10():
    mortar, target = u("german", "Mortar Team"), u(*INF_US)
    assert casualty_score_needed(shot(mortar, target, cover=CoverKind.COVER)) == 4
    assert casualty_score_needed(shot(mortar, target, cover=CoverKind.FORTIFICATION)) == 5


def test_tank_gun_7_plus_against_infantry_in_cover_p10():
    """p. 10: weapon 7+ tank guns treat cover as open, trenches as cover, and at close range
    against infantry in cover may add two extra markers (three in all)."""
    panther, target = u("german", "Panther"), u(*INF_US)
    close_cover = shot(panther, target, 10.0, cover=CoverKind.COVER)
    assert casualty_score_needed(close_cover) == 4
    assert extra_marker_cap(close_cover) == 2
    assert markers_for_hits(close_cover, 2) + casualty_markers(close_cover, [4, 5]) == 3
    assert extra_marker_cap(shot(panther, target, 10.0, cover=CoverKind.OPEN)) == 1
    assert extra_marker_cap(shot(panther, target, 14.0, cover=CoverKind.COVER)) == 1
    trench = shot(panther, target, 10.0, cover=CoverKind.FORTIFICATION)
    assert casualty_score_needed(trench) == 5
    assert extra_marker_cap(trench) == 1
    luchs = u("german", "Sd.Kfz 123 Luchs")
    assert casualty_score_needed(shot(luchs, target, 10.0, cover=CoverKind.COVER)) == 5


def test_mg_team_marker_per_hit_single_extra_p19():
    s = shot(u("german", "MG Team"), u(*INF_US), 20.0)
    assert markers_for_hits(s, 2) == 2
    assert casualty_markers(s, [6, 6]) == 1


def test_mortar_marker_per_hit_against_infantry_p20():
    s = shot(u("german", "Mortar Team"), u(*INF_US), 20.0)
    assert markers_for_hits(s, 2) == 2


def test_howitzer_and_infantry_gun_convert_on_3_p19():
    target = u(*INF_US)
    assert casualty_score_needed(shot(u("german", "StuH 42"), target, 20.0)) == 3
    assert casualty_score_needed(shot(u("german", "Flakvierling 38"), target, 20.0)) == 3


def test_howitzer_ignores_building_cover_p19():
    """The Centaur (howitzer, weapon 5: no tank-gun effect) ignores cover in buildings only."""
    centaur = u("british", "Centaur Mk IV")
    in_building = shot(centaur, u(*INF_DE), 20.0, cover=CoverKind.COVER, target_in_building=True)
    assert effective_cover(in_building) is CoverKind.OPEN
    assert casualty_score_needed(in_building) == 3
    in_woods = shot(centaur, u(*INF_DE), 20.0, cover=CoverKind.COVER)
    assert casualty_score_needed(in_woods) == 4


def test_sniper_converts_on_5_p20():
    assert casualty_score_needed(shot(u("german", "Sniper Team"), u(*INF_US), 20.0)) == 5


def test_flamethrower_ignores_cover_marker_per_hit_and_teams_hit_on_3_p18():
    flamer = u("german", "Flamethrower Team")
    s = shot(flamer, u(*INF_US), 6.0, cover=CoverKind.FORTIFICATION, flamethrower=True)
    assert casualty_score_needed(s) == 4
    assert markers_for_hits(s, 2) == 2
    assert dice_to_fire(s) == 2
    at_flamer = shot(u(*INF_US), u("german", "Flamethrower Team"), 6.0)
    assert casualty_score_needed(at_flamer) == 3


def test_gun_shield_counts_as_cover_against_infantry_fire_p18():
    pak = u("german", "PaK40 Anti-tank Gun")
    assert casualty_score_needed(shot(u(*INF_US), pak, 10.0)) == 5
    zis = u("soviet", "85mm Anti-tank Gun")
    assert casualty_score_needed(shot(u(*INF_DE), zis, 10.0)) == 4


def test_infantry_needs_contact_or_iaw_range_against_vehicles_p11():
    sherman = u("us", "Sherman 75mm")
    plain = u(*INF_DE)
    assert "contact" in why_cannot_fire(shot(plain, sherman, 3.0), rapid_move=False)
    assert why_cannot_fire(shot(plain, sherman, 0.0), rapid_move=False) is None
    armed = u("german", "Infantry Detachment", iaw=True)
    assert why_cannot_fire(shot(armed, sherman, 8.0), rapid_move=False) is None
    assert '8"' in why_cannot_fire(shot(armed, sherman, 8.5), rapid_move=False)
    assert anti_vehicle_weapon(shot(armed, sherman, 6.0)) == 9


def test_rapid_move_forbids_firing_p8():
    assert "rapid" in why_cannot_fire(shot(u(*INF_DE), u(*INF_US)), rapid_move=True)


def test_stationary_only_weapons_p18_p20():
    moving = dict(firer_moved=True, firer_stationary=False)
    for name in ("PaK40 Anti-tank Gun", "Mortar Team", "Sniper Team"):
        reason = why_cannot_fire(shot(u("german", name), u(*INF_US), 20.0, **moving), rapid_move=False)
        assert "stationary" in reason


def test_mortar_minimum_range_12_p20():
    reason = why_cannot_fire(shot(u("german", "Mortar Team"), u(*INF_US), 11.0), rapid_move=False)
    assert "12" in reason


def test_sniper_only_at_infantry_or_open_topped_p20():
    sniper = u("german", "Sniper Team")
    assert why_cannot_fire(shot(sniper, u("us", "Sherman 75mm")), rapid_move=False)
    assert why_cannot_fire(shot(sniper, u("us", "M10 Tank Destroyer")), rapid_move=False) is None


def test_flamethrower_range_8_p18():
    flamer = u("german", "Flamethrower Team")
    assert why_cannot_fire(shot(flamer, u(*INF_US), 8.0, flamethrower=True), rapid_move=False) is None
    assert '8"' in why_cannot_fire(shot(flamer, u(*INF_US), 9.0, flamethrower=True), rapid_move=False)


def test_mg_and_mortar_have_no_anti_vehicle_value_p19():
    assert anti_vehicle_weapon(shot(u("german", "MG Team"), u("us", "Truck/Jeep"))) == 0


def test_transported_unit_may_fire_from_its_transport_p20():
    riders = u(*INF_DE, embarked_in="ht")
    assert why_cannot_fire(shot(riders, u(*INF_US), 10.0), rapid_move=False) is None
