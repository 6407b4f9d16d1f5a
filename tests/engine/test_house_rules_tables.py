"""Every table of the House Rules V1.0 and their quick reference as a test table: each row with
the dice it is given and the exact result (sections as in the house rules)."""

import pytest

from engine.profiles import Drive, Special, UnitClass, find_profile
from engine.rules.movement import movement_allowance, terrain_test_score_needed
from engine.state import Going
from engine.variants.house_v1.activation import (
    Purpose,
    close_combat_initiation_passes,
    company_morale_markers_removed,
    quality_token_change,
    quality_token_dice,
    reaction_score_needed,
    reactivation_score_needed,
)
from engine.variants.house_v1.firing import (
    CasualtyWeapon,
    Cover,
    Damage,
    FireCategory,
    FireSituation,
    Penetration,
    Protection,
    Weapon,
    armour_penetration,
    armour_too_thick,
    casualty_markers,
    casualty_score_needed,
    damage_markers,
    damage_result,
    damage_score,
    flamethrower_destroys,
    hits,
    in_range,
    on_front_armour,
    to_hit_dice,
    to_hit_modifiers,
)
from engine.variants.house_v1.indirect_fire.rules import (
    Landing,
    afv_destroyed_by_direct_hit,
    building_collateral_marker,
    effect_dice,
    landing,
    minimum_range,
    request_fire_succeeds,
)
from engine.variants.house_v1.smoke.rules import End, puff_removed_from
from engine.variants.house_v1.traits import Experience, HEClass, HouseTraits, Motivation, MoveClass, TroopType
from engine.variants.house_v1.units import (
    find_house_profile,
    he_class_from_calibre,
    house_profiles,
    house_view,
)
from engine.variants.house_v1.visibility import Seen, can_observe, observation_distance


def traits(**kw) -> HouseTraits:
    return HouseTraits(troop_type=TroopType.INFANTRY, move=MoveClass.FOOT, **kw)


DEFAULT = traits()
LIGHT = traits(light=True)
ELITE = traits(motivation=Motivation.ELITE)
LIGHT_ELITE = traits(light=True, motivation=Motivation.ELITE)
WEAK = traits(motivation=Motivation.WEAK)
HEAVY = traits(heavy=True)

# --- s. 3 activating ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "unit, purpose, needed",
    [
        # with 1 token already on the unit and 2 morale markers
        (DEFAULT, Purpose.ACTION, 3 + 1 + 2),
        (LIGHT, Purpose.ACTION, 2 + 1 + 2),  # light: markers count unless elite
        (ELITE, Purpose.ACTION, 3 + 1),
        (LIGHT_ELITE, Purpose.ACTION, 2 + 1),
        (DEFAULT, Purpose.FALL_BACK, 3 + 1 + 2),
        (LIGHT, Purpose.FALL_BACK, 2 + 1),
        (ELITE, Purpose.FALL_BACK, 3 + 1 + 2),  # elite: markers count unless light (s. 7)
        (LIGHT_ELITE, Purpose.FALL_BACK, 2 + 1),
        (DEFAULT, Purpose.MORALE_TEST, 3 + 1 + 2),
        (ELITE, Purpose.MORALE_TEST, 2 + 1),
        (LIGHT, Purpose.MORALE_TEST, 3 + 1 + 2),
    ],
)
def test_the_reaction_table_s3(unit, purpose, needed):
    score = reaction_score_needed(unit, tokens=1, markers=2, purpose=purpose)
    assert score.needed == needed
    assert score.passes(6) and not score.passes(needed - 1) if needed <= 6 else score.passes(6)


@pytest.mark.parametrize(
    "unit, purpose, needed",
    [
        (DEFAULT, Purpose.ACTION, 1 + 2 + 1),
        (HEAVY, Purpose.ACTION, 1 + 2 + 1 + 1),
        (HEAVY, Purpose.MORALE_TEST, 1 + 2 + 1),  # heavy: not for morale tests
        (WEAK, Purpose.ACTION, 1 + 2 + 1 + 1),
        (WEAK, Purpose.FALL_BACK, 1 + 2 + 1),  # weak: not to fall back
        (ELITE, Purpose.ACTION, 1 + 2),  # elite ignore their markers (s. 2)
        (ELITE, Purpose.FALL_BACK, 1 + 2),  # ...also falling back of their own accord (s. 7)
    ],
)
def test_the_reactivation_throw_is_1_plus_tokens_plus_markers_s3(unit, purpose, needed):
    assert reactivation_score_needed(unit, tokens=2, markers=1, purpose=purpose).needed == needed


def test_reactivation_describes_what_it_counts_s3():
    score = reactivation_score_needed(traits(heavy=True, motivation=Motivation.WEAK), 1, 2)
    assert score.describe() == "6+ (1 token, 2 morale markers, heavy -1, weak morale -1)"


@pytest.mark.parametrize(
    "experience, rolls, change",
    [
        (Experience.VETERAN, [6, 5, 6], +2),
        (Experience.VETERAN, [1, 2, 5], 0),
        (Experience.INEXPERIENCED, [6, 6, 1], -2),
        (Experience.REGULAR, [6, 6, 6], 0),
    ],
)
def test_veterans_gain_and_the_inexperienced_lose_a_token_per_6_s3(experience, rolls, change):
    assert quality_token_change(experience, rolls) == change


def test_a_company_command_of_quality_throws_for_its_bonus_tokens_too_s3():
    assert quality_token_dice(is_company_command=True) == 3
    assert quality_token_dice(is_company_command=False) == 1


@pytest.mark.parametrize(
    "unit, roll, passes",
    [
        (DEFAULT, 4, True),  # 3 + 1 token; markers: 0
        (DEFAULT, 3, False),
        (WEAK, 4, False),  # -1 on the throw
        (WEAK, 5, True),
        (ELITE, 3, True),  # 2 + 1 token
    ],
)
def test_close_combat_initiation_is_a_morale_reaction_without_the_automatic_6_s6(unit, roll, passes):
    assert close_combat_initiation_passes(unit, tokens=1, markers=0, roll=roll) is passes


def test_no_automatic_6_for_the_initiation_test_s6():
    assert not close_combat_initiation_passes(DEFAULT, tokens=2, markers=2, roll=6)  # needs 7


@pytest.mark.parametrize(
    "roll, veteran, removed",
    [(1, False, 0), (2, True, 0), (3, True, 1), (5, False, 1), (5, True, 2), (6, True, None)],
)
def test_company_morale_test_with_veterans_removing_two_on_a_5_s7(roll, veteran, removed):
    assert company_morale_markers_removed(roll, veteran) == removed


# --- s. 5 firing ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "weapon, close, far",
    [
        (Weapon.INFANTRY_SQUAD, 2, 1),
        (Weapon.GUN, 2, 1),
        (Weapon.TRIPOD_MG, 2, 2),
        (Weapon.TURRET_MG, 1, 1),
        (Weapon.SNIPER, 1, 1),
        (Weapon.HULL_MG, 1, 1),
        (Weapon.IAW, 2, 2),
        (Weapon.SUPPORT_SMALL_ARMS, 1, 1),
    ],
)
def test_to_hit_dice_within_and_beyond_12_qr(weapon, close, far):
    assert (to_hit_dice(weapon, 12.0), to_hit_dice(weapon, 12.5)) == (close, far)


@pytest.mark.parametrize(
    "weapon, limit",
    [
        (Weapon.IAW, 8.0),
        (Weapon.MAN_PACK_FLAMETHROWER, 6.0),
        (Weapon.VEHICLE_FLAMETHROWER, 8.0),
        (Weapon.SUPPORT_SMALL_ARMS, 12.0),
        (Weapon.HULL_MG, 12.0),
    ],
)
def test_limited_ranges_s5(weapon, limit):
    assert in_range(weapon, limit) and not in_range(weapon, limit + 0.1)


@pytest.mark.parametrize("weapon", [Weapon.GUN, Weapon.SNIPER, Weapon.TRIPOD_MG, Weapon.INFANTRY_SQUAD])
def test_other_weapons_reach_any_distance_s5(weapon):
    assert in_range(weapon, 200.0)


EVERYTHING = dict(
    firer_markers=2,
    firer_moves=True,
    target_moved=True,
    enemy_infantry_near=True,
    cover=Cover.HALF,
    sniper=True,
)


@pytest.mark.parametrize(
    "category, total",
    [
        (FireCategory.SMALL_ARMS, -2 - 2 + 1),
        (FireCategory.MG, -2 - 2),
        (FireCategory.AP, -2 - 2 - 1 - 1 - 2),
        (FireCategory.HE, -2 - 2 - 1 - 1 - 2),
    ],
)
def test_the_to_hit_modifier_table_by_category_s5(category, total):
    assert sum(v for _, v in to_hit_modifiers(FireSituation(category, **EVERYTHING))) == total


def test_lesser_cover_is_minus_1_for_ap_and_he_only_s5():
    assert to_hit_modifiers(FireSituation(FireCategory.AP, cover=Cover.LESSER)) == (
        ("target in lesser cover", -1),
    )
    assert to_hit_modifiers(FireSituation(FireCategory.SMALL_ARMS, cover=Cover.LESSER)) == ()


def test_each_d10_of_5_or_more_after_modifiers_hits_s5():
    assert hits([5, 4, 9], 0) == 2
    assert hits([5, 6, 7], -2) == 1


@pytest.mark.parametrize(
    "ap, armour, distance, too_thick",
    [(5, 14, 12.0, True), (5, 13, 12.0, False), (5, 16, 11.9, True), (5, 15, 11.9, False)],
)
def test_armour_9_over_the_ap_or_11_under_12_is_untouchable_s5(ap, armour, distance, too_thick):
    assert armour_too_thick(ap, armour, distance) is too_thick


@pytest.mark.parametrize(
    "roll, double_hit, result",
    [
        (4, False, Penetration.ONE_MARKER),  # 4 + 8 = 12 < 13
        (5, False, Penetration.TWO_MARKERS),  # 13 = 13
        (6, False, Penetration.DAMAGE),
        (3, True, Penetration.TWO_MARKERS),  # 3 + 8 + 2 = 13
        (4, True, Penetration.DAMAGE),
    ],
)
def test_penetration_throw_d10_plus_ap_plus_2_for_a_double_hit_s5(roll, double_hit, result):
    assert armour_penetration(8, 13, 20.0, roll, double_hit=double_hit) is result


def test_no_penetration_throw_against_untouchable_armour_s5():
    assert armour_penetration(4, 14, 20.0, 10, double_hit=True) is Penetration.NO_EFFECT


@pytest.mark.parametrize(
    "score, result",
    [
        (1, Damage.ONE_MARKER),
        (2, Damage.TWO_MARKERS),
        (3, Damage.SHAKEN),
        (4, Damage.DESTROYED),
        (5, Damage.DESTROYED),
        (6, Damage.EXPLOSION),
        (7, Damage.EXPLOSION),
    ],
)
def test_the_damage_table_s5(score, result):
    assert damage_result(score) is result


def test_damage_score_heavy_he_plus_1_and_machine_guns_halved_qr():
    assert damage_score(5, heavy_he=True, machine_gun=False) == 6
    assert damage_score(5, heavy_he=False, machine_gun=True) == 3
    assert damage_score(4, heavy_he=False, machine_gun=True) == 2


def test_the_third_damage_row_is_3_markers_or_the_morale_value_if_higher_s5():
    assert damage_markers(Damage.SHAKEN, morale=6) == 6
    assert damage_markers(Damage.SHAKEN, morale=2) == 3
    assert damage_markers(Damage.TWO_MARKERS, morale=6) == 2


@pytest.mark.parametrize("bearing, front", [(0, True), (60, True), (-60, True), (61, False), (180, False)])
def test_the_frontal_arc_is_60_degrees_each_side_s5(bearing, front):
    assert on_front_armour(bearing) is front


CASUALTY_ROWS = {
    Protection.OPEN: (4, 3, 3, 5, 4, 3),
    Protection.COVER: (5, 5, 3, 5, 4, 3),
    Protection.DEFENCES: (6, 6, 3, 6, 5, 5),
}


@pytest.mark.parametrize("protection", list(Protection))
@pytest.mark.parametrize("column", range(6))
def test_the_casualty_table_every_cell_s5(protection, column):
    weapon = list(CasualtyWeapon)[column]
    assert casualty_score_needed(weapon, protection) == CASUALTY_ROWS[protection][column]


def test_casualty_throw_one_marker_for_a_hit_and_one_per_die_reaching_the_score_s5():
    assert casualty_markers(2, [4, 3], needed=4) == 2
    assert casualty_markers(2, [6, 5], needed=5) == 3
    assert casualty_markers(0, [], needed=4) == 0


def test_two_flamethrower_hits_destroy_soft_and_open_topped_vehicles_s5():
    assert flamethrower_destroys(2, soft_or_open_topped=True)
    assert not flamethrower_destroys(1, soft_or_open_topped=True)
    assert not flamethrower_destroys(2, soft_or_open_topped=False)


# --- s. 5 indirect fire --------------------------------------------------------------------


def test_minimum_ranges_for_indirect_fire_s5():
    assert (minimum_range(mortar=True), minimum_range(mortar=False)) == (18.0, 24.0)


def test_requesting_fire_one_d10_then_the_best_of_two_s5():
    assert not request_fire_succeeds([4], 0)
    assert request_fire_succeeds([4, 7], -2)


@pytest.mark.parametrize(
    "d10, d6s, result",
    [
        (1, [5], Landing(failed=True)),
        (10, [5], Landing(direct_hit=True)),
        (2, [4], Landing(inches=4, bearing=0.0)),
        (3, [4], Landing(inches=4, bearing=45.0)),
        (9, [2, 6], Landing(inches=4, bearing=315.0)),  # later shots: the difference of two d6
        (6, [3, 3], Landing(inches=0, bearing=180.0)),
    ],
)
def test_where_a_shot_lands_s5(d10, d6s, result):
    assert landing(d10, d6s) == result


EFFECT_ROWS = {0.5: (1, 2, 2), 1.5: (0, 1, 2), 2.5: (0, 0, 1), 3.5: (0, 0, 0)}


@pytest.mark.parametrize("distance", list(EFFECT_ROWS))
def test_the_distance_and_dice_table_s5(distance):
    dice = tuple(effect_dice(he, distance) for he in (HEClass.LIGHT, HEClass.MEDIUM, HEClass.HEAVY))
    assert dice == EFFECT_ROWS[distance]


def test_band_edges_belong_to_the_nearer_band_s5():
    assert effect_dice(HEClass.MEDIUM, 1.0) == 2 and effect_dice(HEClass.HEAVY, 3.0) == 1


def test_double_six_on_a_direct_hit_destroys_an_open_topped_vehicle_s5():
    assert afv_destroyed_by_direct_hit([6, 6], open_topped=True, he=HEClass.MEDIUM)
    assert not afv_destroyed_by_direct_hit([6, 6], open_topped=False, he=HEClass.HEAVY)
    assert not afv_destroyed_by_direct_hit([6, 5], open_topped=True, he=HEClass.MEDIUM)
    # light HE throws one die; a 6 earns a second throw, and a second 6 destroys
    assert afv_destroyed_by_direct_hit([6, 6], open_topped=True, he=HEClass.LIGHT)
    assert not afv_destroyed_by_direct_hit([6], open_topped=True, he=HEClass.LIGHT)


@pytest.mark.parametrize(
    "he, roll, marker",
    [
        (HEClass.MEDIUM, 6, True),
        (HEClass.MEDIUM, 5, False),
        (HEClass.HEAVY, 5, True),
        (HEClass.HEAVY, 4, False),
        (HEClass.LIGHT, 6, False),
    ],
)
def test_collateral_damage_in_buildings_s5(he, roll, marker):
    assert building_collateral_marker(roll, he) is marker


# --- s. 5 smoke, s. 8 visibility -------------------------------------------------------------


@pytest.mark.parametrize(
    "roll, previous, end",
    [
        (1, None, End.LEFT),
        (3, None, End.LEFT),
        (4, None, End.RIGHT),
        (5, None, End.RIGHT),
        (6, None, None),
        (5, End.LEFT, End.LEFT),
        (6, End.LEFT, End.RIGHT),
        (6, End.RIGHT, End.LEFT),
    ],
)
def test_which_end_of_a_smoke_screen_thins_s5(roll, previous, end):
    assert puff_removed_from(roll, previous) == end


OBSERVATION_ROWS = {
    Seen.INFANTRY: (24.0, 6.0),
    Seen.SNIPER: (4.0, 1.0),
    Seen.HEAVY_WEAPONS: (None, 12.0),
    Seen.SMALL_VEHICLE: (None, 12.0),
    Seen.OTHER_VEHICLE: (None, 24.0),
}


@pytest.mark.parametrize("seen", list(Seen))
def test_the_observation_table_s8(seen):
    cells = (observation_distance(seen, in_cover=False), observation_distance(seen, in_cover=True))
    assert cells == OBSERVATION_ROWS[seen]


def test_spotters_see_6_further_and_moving_units_are_seen_anywhere_s8():
    assert observation_distance(Seen.INFANTRY, in_cover=True, spotter=True) == 12.0
    assert not can_observe(7.0, Seen.INFANTRY, in_cover=True, moved_or_fired=False)
    assert can_observe(30.0, Seen.INFANTRY, in_cover=True, moved_or_fired=True)
    assert can_observe(30.0, Seen.SNIPER, in_cover=False, moved_or_fired=True)  # rapid moved, or revealed
    assert not can_observe(5.0, Seen.SNIPER, in_cover=False, moved_or_fired=False)


# --- the quick reference's unit data ---------------------------------------------------------


def test_the_quick_reference_lists_load_with_their_statistics_qr():
    # the quick reference's 19 and 22 rows, and a squad carrying a light mortar for each (s. 2)
    assert len(house_profiles("german")) == 20 and len(house_profiles("british")) == 23
    panther = find_house_profile("german", "Panther")
    assert (panther.armour_front, panther.armour_side, panther.weapon, panther.morale) == (17, 13, 10, 6)
    assert panther.house.he is HEClass.MEDIUM and panther.unit_class is UnitClass.MEDIUM
    tiger = find_house_profile("german", "Tiger I")
    assert tiger.house.move is MoveClass.SLOW and tiger.house.heavy and tiger.unit_class is UnitClass.HEAVY
    halftrack = find_house_profile("german", "Sdkfz 251 Halftrack")
    assert halftrack.has(Special.TRANSPORT) and halftrack.morale == 2 and halftrack.drive is Drive.HALFTRACK
    grant = find_house_profile("british", "Grant")
    assert (grant.weapon, grant.house.second_ap) == (8, 5)
    # points and break points from the 2015 list's entry for the same unit
    assert (panther.points, panther.break_points) == (100, 13)


def test_a_2015_unit_is_seen_the_house_rules_way_s2_s4():
    sherman = house_view(find_profile("us", "Sherman 75mm")).house
    assert (sherman.troop_type, sherman.move, sherman.ap, sherman.he) == (
        TroopType.ENCLOSED_AFV,
        MoveClass.MEDIUM,
        8,
        HEClass.MEDIUM,
    )
    scout = house_view(find_profile("german", "Sd.Kfz 222")).house
    assert scout.light and scout.motivation is Motivation.ELITE  # "scout" becomes light and elite
    priest = house_view(find_profile("us", "M7 Priest")).house
    assert priest.he is HEClass.HEAVY and priest.heavy


@pytest.mark.parametrize(
    "calibre, he",
    [
        (20, HEClass.LIGHT),
        (74, HEClass.LIGHT),
        (75, HEClass.MEDIUM),
        (100, HEClass.MEDIUM),
        (101, HEClass.HEAVY),
        (152, HEClass.HEAVY),
    ],
)
def test_he_class_by_calibre_s2(calibre, he):
    assert he_class_from_calibre(calibre) is he


# --- the quick reference's movement and difficult-terrain tables ------------------------------


@pytest.mark.parametrize(
    "nation, name, rates",
    [
        ("british", "Infantry squad", (6, 9, 12)),
        ("german", "Sdkfz 222 A/C", (12, 18, 24)),  # fast
        ("german", "Pz IV H/J", (10, 15, 20)),  # medium
        ("german", "Tiger I", (8, 10, 12)),  # slow
    ],
)
def test_the_movement_table_qr(nation, name, rates):
    profile = find_house_profile(nation, name)
    moves = (
        movement_allowance(profile, rapid=False, road=False),
        movement_allowance(profile, rapid=True, road=False),
        movement_allowance(profile, rapid=True, road=True),
    )
    assert moves == rates


@pytest.mark.parametrize(
    "nation, name, rough, very_rough",
    [
        ("british", "Infantry squad", None, 4),
        ("german", "PaK40 75mm A/T gun", 2, 7),  # wheeled gun: very rough impassable
        ("german", "Tripod MG team", None, 4),  # other support squad
        ("german", "Sdkfz 222 A/C", 6, 7),  # wheeled vehicle
        ("german", "Sdkfz 251 Halftrack", 3, 4),
        ("german", "Tiger I", None, 2),  # heavy tank
        ("german", "Pz IV H/J", 2, 3),  # other tracked
    ],
)
def test_the_difficult_terrain_table_qr(nation, name, rough, very_rough):
    profile = find_house_profile(nation, name)
    assert terrain_test_score_needed(profile, Going.ROUGH, wire=False) == rough
    assert terrain_test_score_needed(profile, Going.VERY_ROUGH, wire=False) == very_rough
