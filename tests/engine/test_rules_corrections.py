"""Rules the engine had wrong (issue 32), each with scripted dice and the exact outcome it must
give: the attackers' fall back to cover (House Rules V1.0, s. 6), a shell's distance bands
(s. 5), light mortars firing over friends and not assaulting after (s. 5), and a Cross of Iron
chart entry judged on the unmodified roll (66.33 with 76.6)."""

import pytest

from engine.battlefield import area_cover
from engine.commands import Fire
from engine.dice import ScriptedDice, d6, d10
from engine.errors import IllegalCommand
from engine.event_data import FireData
from engine.rolls.charts import Chart, find_chart, roll_on_chart
from engine.rolls.readback import dice_behind
from engine.scenarios.new_game import make_unit
from engine.state import CoverKind
from engine.variants.house_v1.commands import Bombard, CloseCombat, RequestFire
from engine.variants.house_v1.indirect_fire.rules import effect_dice
from engine.variants.house_v1.traits import HEClass
from tests.engine.helpers import P, act, box, declare, fire_text
from tests.engine.test_house_rules_flow import battery, charge, melee
from tests.engine.test_house_rules_weapons import platoon

# --- s. 6: attackers who fail fall back 6", or to nearer cover beyond 3" ---------------------

ALL_MISS = [d6(3), *[d10(1)] * 8]  # initiation passed, then both sides miss both rounds


def fall_back_with_woods(near_edge):
    """The melee's attackers (in contact at 30,12 after the dash) fail against defenders who
    stand, with woods behind them from ``near_edge`` back to the table edge."""
    state = melee()
    woods = box("copse", "woods", 20, 0, 40, near_edge, cover=CoverKind.COVER, going="rough")
    state.terrain = (*state.terrain, woods)
    state, events = charge(state, "tommies", "gruppe", *ALL_MISS)
    return state, events[-1].text


def test_attackers_fall_back_into_cover_nearer_than_6_but_beyond_3_inches_s6():
    state, text = fall_back_with_woods(8.0)  # the woods begin 4" behind the attackers
    assert text == "Infantry Detachment holds: Infantry Detachment falls back into the woods to 30.0,8.0"
    assert area_cover(state, state.units["tommies"]) is CoverKind.COVER
    _, text = fall_back_with_woods(10.0)  # 2" behind: the full 6" back, still in the woods
    assert text == "Infantry Detachment holds: Infantry Detachment falls back to 30.0,6.0"
    _, text = fall_back_with_woods(9.0)  # 3" behind is not beyond 3"
    assert text == "Infantry Detachment holds: Infantry Detachment falls back to 30.0,6.0"


def test_a_fall_back_to_an_edge_between_hundredths_ends_inside_the_cover_s6():
    state, text = fall_back_with_woods(23 / 3)  # the edge at 7.667: rounded to 7.67 it is outside
    assert text == "Infantry Detachment holds: Infantry Detachment falls back into the woods to 30.0,7.7"
    assert state.units["tommies"].position.y == 7.66
    assert area_cover(state, state.units["tommies"]) is CoverKind.COVER


# --- s. 5: a shell's distance bands do not hang on how its landing spot rounded ---------------


def test_a_shell_straying_1_inch_on_a_diagonal_is_up_to_1_inch_away_s5():
    state, _ = act(battery(), "allies", "hq", RequestFire(at=P(20, 40)), faces=[d10(5)])  # on the squad
    # face 3 strays an eighth of the circle from the x axis: 1" to 20.71,40.71, 1.004" by the hundredths
    state, events = act(state, "allies", "mortar", Bombard(), faces=[d10(3), d6(1), d6(4), d6(2)])
    lines = [e.text for e in events]
    landed = 'Mortar Team fires at the marker: d10 3, d6 1: lands 1" off, at 20.7,40.7 (House Rules HR5.92)'
    assert landed in lines
    assert (
        'Infantry Detachment (1.0" away, open) takes 2 medium HE dice needing 4+: rolled 4, 2: 1 marker '
        "(House Rules HR5.93)" in lines
    )


def test_a_vehicle_1_inch_from_a_diagonal_stray_takes_a_direct_hit_s5():
    state = battery()
    state.units["gruppe"].position = P(40, 40)
    state.units["panzer"] = make_unit("german", "Panzer IV G (late) to J", "axis", (20, 40), unit_id="panzer")
    state, _ = act(state, "allies", "hq", RequestFire(at=P(20, 40)), faces=[d10(5)])
    state, events = act(state, "allies", "mortar", Bombard(), faces=[d10(3), d6(1), d6(6), d6(3)])
    assert [e.text for e in events][-1] == (
        'Panzer IV G (late) to J (1.0" away, defences) takes 2 medium HE dice needing 5+: rolled 6, 3: '
        "1 marker (House Rules HR5.94)"
    )
    effect = [e.data for e in events if isinstance(e.data, FireData)][-1]
    assert (effect.target, effect.markers_placed) == ("panzer", 1)


def test_effect_bands_take_a_distance_on_their_edge_to_within_a_rounding_s5():
    assert [effect_dice(HEClass.MEDIUM, d) for d in (1.004, 1.02, 2.006, 3.006, 3.02)] == [2, 1, 1, 0, 0]
    assert [effect_dice(HEClass.HEAVY, d) for d in (2.006, 3.006, 3.02)] == [2, 1, 0]
    assert [effect_dice(HEClass.LIGHT, d) for d in (1.004, 1.02)] == [1, 0]


# --- Cross of Iron 66.3 with 76.6: a repair roll of 9 or more is permanent before the leader ----


def repair(choices, *faces):
    """A repair roll on the Cross of Iron chart with two scripted d6."""
    return roll_on_chart(
        find_chart("coi-immobilization-repair"), choices, ScriptedDice([(6, f) for f in faces])
    )


def test_a_repair_roll_of_9_is_permanent_immobilization_whatever_the_armor_leader_coi_66_33_76_6():
    rolled = repair("leader=-1", 4, 5)
    assert rolled.text == (
        "Repair of immobilization (Cross of Iron): DR 4 + 5 = 9 (before modifiers: -1 armor leader "
        "not applied): permanently immobilized"
    )
    assert (rolled.natural, rolled.final, rolled.modifiers) == (9, 9, ())
    chart = find_chart("coi-immobilization-repair")
    read_back = dice_behind(rolled.text, lambda source: roll_on_chart(chart, "leader=-1", source).text)
    assert [d.value for d in read_back] == [4, 5]  # the roll log finds its dice again
    assert repair("leader=-3", 6, 6).result == "permanently immobilized"
    below = repair("leader=-1", 4, 4)  # an 8 is not permanent: the leader's -1 counts
    assert (below.final, below.result) == (7, "not yet: try again next Rally Phase")
    assert repair("leader=-1", 2, 1).result == "repaired: remove the Immobilization counter"


def test_a_band_read_before_modifiers_needs_a_chart_with_modifiers():
    bands = [{"max": 6, "result": "fine"}, {"min": 7, "result": "bad", "unmodified": True}]
    with pytest.raises(ValueError, match="read before modifiers on a chart with no modifiers"):
        Chart.model_validate({"id": "x", "title": "X", "source": "-", "dice": "DR", "bands": bands})


# --- s. 5 Light mortars: fired over friends 3" from the target, and no assault after it ---------


def mortar_squad_behind(friend_at):
    """The weapons tests' platoon: the section's 2" mortar 8" from Gruppe, a friendly squad in
    the line of fire at ``friend_at``."""
    state = platoon()
    state.units["friend"] = make_unit("british", "Infantry Detachment", "allies", friend_at, unit_id="friend")
    return state


def test_a_light_mortar_fires_over_friends_at_least_3_inches_from_the_target_s5():
    faces = [d10(9), d10(4), d6(5)]
    state, events = act(
        mortar_squad_behind((50, 15)),
        "allies",
        "section",
        Fire(target="near", weapon="light_mortar"),
        faces=faces,
    )  # the friend's base 3" from Gruppe's
    assert fire_text(events) == (
        'Infantry Detachment fires high explosive (light mortar) at Gruppe (8.0"): needs 5+; rolled 9, 4: '
        "1 hit; casualty throw (light HE, open) 5+, rolled 5: 2 markers -> Gruppe has 2 markers "
        "(House Rules HR5.7)"
    )
    with pytest.raises(IllegalCommand, match="Infantry Detachment is in the line of fire"):
        declare(
            mortar_squad_behind((50, 16)), "allies", "section", Fire(target="near", weapon="light_mortar")
        )
    with pytest.raises(IllegalCommand, match="Infantry Detachment is in the line of fire"):  # small arms
        declare(mortar_squad_behind((50, 15)), "allies", "section", Fire(target="near"))
    enemy = mortar_squad_behind((50, 15))
    enemy.units["friend"].side = "axis"  # an enemy squad in the way still stops the bomb
    with pytest.raises(IllegalCommand, match="Infantry Detachment is in the line of fire"):
        declare(enemy, "allies", "section", Fire(target="near", weapon="light_mortar"))


def test_a_squad_firing_its_light_mortar_does_not_also_assault_s5_s6():
    state = platoon()
    state.units["far"].position = P(40, 22)
    state.units["near"].position = P(50, 14)  # 2" off: within reach of an assault
    with pytest.raises(
        IllegalCommand, match="fires its light mortar in this activation: it may not also assault"
    ):
        declare(
            state, "allies", "section", Fire(target="far", weapon="light_mortar"), CloseCombat(target="near")
        )
