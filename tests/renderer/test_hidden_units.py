"""Hidden information in the picture (Iron Cross p. 20: a sniper team deploys hidden, with a
dummy marker). The enemy and spectators must learn nothing from the image or its description
(alt text): a hidden unit is not drawn at all, and a hidden unit with a dummy shows as two
identical "?" markers."""

from __future__ import annotations

import pytest
from PIL import Image

from engine.event_data import FireData
from engine.events import Event
from engine.game_state import GameState
from engine.scenarios.new_game import make_unit
from engine.state import Point
from engine.view import view_for
from renderer import palette as pal
from renderer import render
from renderer.description import describe
from tests.renderer.pixels import around, colours, png, table_only
from tests.renderer.scenes import quick_started

# Two open squares with the same surroundings: each is the middle of a 6" grid square, clear of
# terrain, units, labels and objectives, so the two markers' pixels can be compared directly.
A = Point(x=33, y=27)
B = Point(x=51, y=27)
ENEMIES = ["allies", None]  # the enemy side and spectators
KNOWING = ["axis", "referee"]


def with_sniper(at: Point | None, decoy: Point | None = None) -> GameState:
    """The quick battle with a hidden German sniper team at ``at`` (or none)."""
    state, _ = quick_started()
    state = state.fork()
    if at is not None:
        state.units["sniper"] = make_unit(
            "german", "Sniper Team", "axis", at, unit_id="sniper", name="Sniper", hidden=True, decoy=decoy
        )
    return state


def picture(state: GameState, viewer: str | None, events=()) -> Image.Image:
    return png(render(state, viewer, last_events=events)).convert("RGB")


def near(image: Image.Image, state: GameState, at: Point) -> Image.Image:
    return around(image, state, at, 1.5)


SNIPER_FIRES = (
    Event(
        kind="fire",
        text="Sniper fires at 2nd Squad",
        units=("sniper", "2nd-squad"),
        side="axis",
        data=FireData(firer="sniper", target="2nd-squad", distance=20.0),
    ),
    Event(kind="sniper", text="Sniper stays hidden (spotting roll 3)", units=("sniper",), side="axis"),
)


@pytest.mark.parametrize("viewer", ENEMIES)
def test_the_enemy_cannot_tell_the_sniper_from_its_dummy(viewer):
    real_at_a = with_sniper(A, decoy=B)
    real_at_b = with_sniper(B, decoy=A)
    image = picture(real_at_a, viewer)
    # the whole picture is the same whichever marker is real, and so is its description...
    assert render(real_at_a, viewer) == render(real_at_b, viewer)
    assert describe(real_at_a, viewer) == describe(real_at_b, viewer)
    # ...and within it the two markers are pixel for pixel the same
    assert near(image, real_at_a, A).tobytes() == near(image, real_at_a, B).tobytes()
    # they are anonymous "?" markers, not the unit in the axis colours
    marker = colours(near(image, real_at_a, A))
    assert pal.HIDDEN_MARKER in marker and pal.AXIS.fill not in marker
    # and the picture does show that there are markers, and says so
    assert render(real_at_a, viewer) != render(with_sniper(None), viewer)
    assert "Hidden markers: ? in F5, ? in I5." in describe(real_at_a, viewer)


@pytest.mark.parametrize("viewer", ENEMIES)
def test_a_hidden_unit_without_a_dummy_is_not_drawn_at_all(viewer):
    assert render(with_sniper(A), viewer) == render(with_sniper(None), viewer)
    assert describe(with_sniper(A), viewer) == describe(with_sniper(None), viewer)


@pytest.mark.parametrize("viewer", ENEMIES)
def test_the_last_action_of_a_hidden_sniper_does_not_point_at_it(viewer):
    """A shot from the hidden sniper highlights its target, but draws no line of fire and no
    outline that would give away which marker is real."""
    real_at_a = picture(with_sniper(A, decoy=B), viewer, SNIPER_FIRES)
    real_at_b = picture(with_sniper(B, decoy=A), viewer, SNIPER_FIRES)
    assert real_at_a.tobytes() == real_at_b.tobytes()
    seen = colours(table_only(real_at_a, with_sniper(None)))
    assert pal.HIGHLIGHT in seen  # 2nd Squad, the target, which its owner knows was shot
    assert pal.FIRE_LINE not in seen
    assert render(with_sniper(A), viewer, last_events=SNIPER_FIRES) == render(
        with_sniper(None), viewer, last_events=SNIPER_FIRES
    )
    described = [describe(with_sniper(*at), viewer, last_events=SNIPER_FIRES) for at in ((A, B), (B, A))]
    assert described[0] == described[1] and "Last action: marked: 2nd Squad (2Sq)." in described[0]
    assert describe(with_sniper(A), viewer, last_events=SNIPER_FIRES) == describe(
        with_sniper(None), viewer, last_events=SNIPER_FIRES
    )


@pytest.mark.parametrize("viewer", KNOWING)
def test_the_owner_and_the_referee_see_the_sniper_and_know_the_dummy(viewer):
    real_at_a = with_sniper(A, decoy=B)
    image = picture(real_at_a, viewer, SNIPER_FIRES)
    assert render(real_at_a, viewer) != render(with_sniper(B, decoy=A), viewer)
    at_a = colours(near(image, real_at_a, A))
    assert pal.AXIS.fill in at_a and pal.HIGHLIGHT in at_a
    assert pal.FIRE_LINE in colours(table_only(image, real_at_a))
    assert near(image, real_at_a, A).tobytes() != near(image, real_at_a, B).tobytes()
    told = describe(real_at_a, viewer, last_events=SNIPER_FIRES)
    assert "Sniper (Snp) fired at 2nd Squad (2Sq)" in told and "Sniper (Snp) in F5, hidden" in told
    assert "Dummy markers: dummy in I5." in told


def test_who_sees_what():
    state = with_sniper(A, decoy=B)
    for viewer in ENEMIES:
        view = view_for(state, viewer)
        assert "sniper" not in view.known
        assert view.markers == ((A, ""), (B, "")) and view.dummies == ()
    for viewer in KNOWING:
        view = view_for(state, viewer)
        assert "sniper" in view.known
        assert view.markers == () and view.dummies == ((B, "dummy"),)
    revealed = state.fork()
    revealed.units["sniper"].hidden = False
    revealed.units["sniper"].decoy = None
    assert "sniper" in view_for(revealed, "allies").known
    assert "sniper" in view_for(revealed, None).known
