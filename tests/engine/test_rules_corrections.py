"""Rules the engine had wrong (issue 32), each with scripted dice and the exact outcome it must
give: the attackers' fall back to cover (House Rules V1.0, s. 6)."""

from engine.battlefield import area_cover
from engine.dice import d6, d10
from engine.state import CoverKind
from tests.engine.helpers import box
from tests.engine.test_house_rules_flow import charge, melee

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
