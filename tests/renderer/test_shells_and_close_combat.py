"""Indirect fire and close combat on the picture (House Rules V1.0, s. 5 and 6; the 2015 rules'
close combat, p. 12, is a shot in contact): a red burst where each shell landed, with a dashed
arrow from the fire marker it strayed from, and crossed swords where a fight was fought."""

from __future__ import annotations

from engine.event_data import FireData
from engine.events import Event
from engine.state import Point
from renderer import palette as pal
from renderer import picture
from renderer.description import describe
from tests.renderer.battles import AIM, FIGHT, LANDED, charged, shelled
from tests.renderer.pixels import colours
from tests.renderer.scenes import P, quick_started


def patch(canvas, at: Point, dx: float = 0, dy: float = 0, r: int = 4):
    """The colours of the square of pixels ``r`` either side of a table point (moved by dx, dy px)."""
    x, y = canvas.frame.px(at.x, at.y)
    x, y = round(x + dx), round(y + dy)
    return canvas.image.crop((x - r, y - r, x + r + 1, y + r + 1))


def share(image, colour) -> float:
    found = dict((c, n) for n, c in image.getcolors(image.width * image.height))
    return found.get(colour, 0) / (image.width * image.height)


def test_a_shell_is_drawn_where_it_landed_with_its_stray_from_the_marker():
    log = shelled()
    events = log.history[-1][1]
    drawn = picture(log.state, None, last_events=events, scale=24)
    plain = picture(log.state, None, scale=24)
    assert pal.FIRE_LINE in colours(patch(drawn, LANDED, r=3))  # the burst
    assert pal.FIRE_LINE not in colours(patch(plain, LANDED, r=3))
    x, y = drawn.frame.px(AIM.x, AIM.y)  # 48 px right of the burst's middle
    stray = (round(x) - 30, round(y) - 2, round(x) - 19, round(y) + 3)  # past the burst, short of the marker
    assert pal.INK in colours(drawn.image.crop(stray))  # the arrow from the marker
    assert pal.INK not in colours(plain.image.crop(stray))


def test_a_shell_on_its_marker_draws_no_stray():
    state, _ = quick_started()
    shell = FireData(firer="m10", target=None, distance=30.0, at=P(40, 30), aim=P(40, 30), indirect=True)
    drawn = picture(
        state, None, last_events=[Event(kind="indirect", text="lands", units=("m10",), data=shell)]
    )
    assert pal.FIRE_LINE in colours(patch(drawn, P(40, 30), r=3))
    assert pal.INK not in colours(patch(drawn, P(40, 30), dx=-20, r=2))


def test_a_close_combat_is_drawn_where_it_was_fought():
    log = charged()
    events = log.history[-1][1]
    assert log.state.units["tommies"].position != P(30, 12)  # they fell back: the fight stays put
    drawn = picture(log.state, None, last_events=events)
    plain = picture(log.state, None)
    assert share(patch(drawn, FIGHT, r=12), pal.HIGHLIGHT) > 0.4  # the yellow disc, under the blades
    assert share(patch(plain, FIGHT, r=12), pal.HIGHLIGHT) == 0
    assert pal.INK in colours(patch(drawn, FIGHT, r=2))  # the blades cross in the middle


def test_a_shot_in_contact_is_a_close_combat_not_an_arrow():
    """The 2015 rules fight close combat as shooting (p. 12): a shot at 0" is drawn as a fight."""
    state, _ = quick_started()
    state = state.fork()
    state.units["3rd-squad"].position = P(36, 30)
    state.units["stug"].position = P(38, 30)
    shot = FireData(firer="3rd-squad", target="stug", distance=0.0)
    drawn = picture(
        state, None, last_events=[Event(kind="fire", text="shot", units=("3rd-squad", "stug"), data=shot)]
    )
    assert share(patch(drawn, P(37, 30), dy=-10), pal.HIGHLIGHT) > 0.8
    assert "close combat" in {text for _, text in drawn.texts}


def test_the_alt_text_tells_where_the_shell_landed_and_the_fight_was_fought():
    log = shelled()
    told = describe(log.state, None, last_events=log.history[-1][1])
    assert 'a shell landed in D7, 2" off its fire marker' in told
    log = charged()
    assert "a close combat was fought in F3" in describe(log.state, None, last_events=log.history[-1][1])
