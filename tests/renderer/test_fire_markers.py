"""The indirect-fire marker of the House Rules V1.0 is drawn where it stands, in its side's
colour, over any unit it falls on; a failed request draws nothing."""

from engine.quick_battle import quick_battle
from engine.state import FireMarker, Point
from renderer import palette as pal
from renderer import render
from tests.renderer.pixels import around, colours, png

SPOT = Point(x=60.0, y=30.0)


def picture(*markers: FireMarker):
    state = quick_battle()
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
