"""House Rules V1.0 markers on the picture: the indirect-fire marker where it stands, in its
side's colour (a failed request draws nothing), and the 2" puffs of smoke screens."""

from PIL import ImageStat

from engine.rulesets import with_rule_set
from engine.scenarios.quick_battle import quick_battle
from engine.state import Point
from engine.variants.house_v1.state import FireMarker, SmokeScreen
from renderer import palette as pal
from renderer import render
from tests.renderer.pixels import around, colours, png

SPOT = Point(x=60.0, y=30.0)


def picture(*markers: FireMarker):
    state = with_rule_set(quick_battle(), "house_v1")  # whose rule set shows its fire markers
    state.fire_markers = list(markers)
    return state, png(render(state, None)).convert("RGB")


def test_a_fire_marker_is_drawn_in_its_sides_colour():
    state, bare = picture()
    _, marked = picture(FireMarker(side="axis", at=SPOT, turn=1))
    assert pal.AXIS.fill not in colours(around(bare, state, SPOT, 1.0))
    assert pal.AXIS.fill in colours(around(marked, state, SPOT, 1.0))


def test_a_failed_request_leaves_no_marker():
    state, bare = picture()
    _, failed = picture(FireMarker(side="axis", at=SPOT, turn=1, placed=False))
    assert around(bare, state, SPOT, 1.5).tobytes() == around(failed, state, SPOT, 1.5).tobytes()


def test_smoke_puffs_are_drawn_where_they_hang():
    state = quick_battle()
    bare = png(render(state, None)).convert("RGB")
    state.smoke_screens = [SmokeScreen(puffs=(SPOT, Point(x=62.0, y=30.0)))]
    smoky = png(render(state, None)).convert("RGB")
    before, after = around(bare, state, SPOT, 0.5), around(smoky, state, SPOT, 0.5)
    assert ImageStat.Stat(after).mean[2] > ImageStat.Stat(before).mean[2] + 10  # a pale grey veil
    far = Point(x=66.0, y=30.0)
    assert around(bare, state, far, 0.5).tobytes() == around(smoky, state, far, 0.5).tobytes()
