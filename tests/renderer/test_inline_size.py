"""Pictures read at the size Discord shows them inline, and labels that never overprint.

Our assumption about Discord's inline box: on desktop a picture is fitted within about 550 x 350
px; phones show it narrower. We test against the stricter 480 x 350 (renderer.layout.INLINE_BOX):
the posted PNG is fitted within it, and every text on the picture, measured from the box of its
letters recorded while it was drawn, must still be at least 9 px tall there.
"""

from __future__ import annotations

import pytest
from PIL import Image
from shapely.geometry import Polygon, box

from engine.game_state import GameResult
from engine.scenarios.new_game import make_unit
from engine.scenarios.quick_battle import allied_forces, quick_battle, quick_tables
from engine.state import Phase, Point
from renderer import picture, render
from renderer.labels import intersects
from renderer.layout import INLINE_BOX
from tests.renderer.pixels import png
from tests.renderer.scenes import busy_table, quick_after_moves

MIN_INLINE_PX = 9


def inline_factor(size: tuple[int, int]) -> float:
    """How much Discord shrinks a picture of this size to fit its inline box (never enlarges)."""
    return min(INLINE_BOX[0] / size[0], INLINE_BOX[1] / size[1], 1.0)


def smallest_inline_text(state, viewer, events=()) -> tuple[float, str, Image.Image]:
    """The height at the inline size of the smallest text, that text, and the inline picture."""
    canvas = picture(state, viewer, last_events=events)
    posted = png(render(state, viewer, last_events=events))
    assert posted.size == canvas.image.size
    f = inline_factor(posted.size)
    inline = posted.convert("RGB").resize((round(posted.width * f), round(posted.height * f)), Image.LANCZOS)
    assert inline.width <= INLINE_BOX[0] and inline.height <= INLINE_BOX[1]
    height, text = min(((y1 - y0) * f, text) for (x0, y0, x1, y1), text in canvas.texts)
    return height, text, inline


@pytest.mark.parametrize("table", sorted(quick_tables()))
@pytest.mark.parametrize("allies", allied_forces())
def test_every_label_of_every_built_in_table_is_readable_inline(table, allies):
    state = quick_battle(table, allies)
    height, text, _ = smallest_inline_text(state, "referee")
    assert height >= MIN_INLINE_PX, f"{text!r} is {height:.1f} px tall inline"


@pytest.mark.parametrize("viewer", ["axis", None])
def test_a_busy_table_with_its_last_shot_is_readable_inline(viewer):
    """Tags, numbered badges, "?" captions, objectives, terrain names, roster and legend."""
    _, events = quick_after_moves()
    state = busy_table()
    canvas = picture(state, viewer, last_events=events)
    texts = {text for _, text in canvas.texts}
    assert {"Gr2", "2", "1", "morale markers", "tokens", "shot", "Gruppe 2"} <= texts
    height, text, _ = smallest_inline_text(state, viewer, events)
    assert height >= MIN_INLINE_PX, f"{text!r} is {height:.1f} px tall inline"


def packed(state):
    """Six squads and two tanks crowded round one spot, squads 0.1" apart edge to edge."""
    state = state.fork()
    ids = ["1st-squad", "2nd-squad", "3rd-squad", "mg", "gruppe-1", "gruppe-2"]
    for i, uid in enumerate(ids):
        state.units[uid].position = Point(x=30 + (i % 3) * 2.1, y=20 + (i // 3) * 2.1)
        state.units[uid].morale_markers = i % 3
    state.units["sherman-1"].position = Point(x=36, y=27)
    state.units["panzer-iv"].position = Point(x=28, y=26)
    return state


@pytest.mark.parametrize("viewer", ["allies", "referee"])
def test_labels_never_overprint_each_other_or_a_counter(viewer):
    state, events = quick_after_moves()
    canvas = picture(packed(state), viewer, last_events=events)
    labels, counters = canvas.labels, [Polygon(o) for o in canvas.outlines]  # what each counter covers
    assert len(labels) >= 8
    for i, a in enumerate(labels):
        assert not any(intersects(a, b) for b in labels[i + 1 :]), "two labels overprint"
        assert not any(box(*a).intersection(c).area for c in counters), "a label covers a counter"


def test_the_packed_squads_stay_readable_inline():
    state, events = quick_after_moves()
    height, text, _ = smallest_inline_text(packed(state), "referee", events)
    assert height >= MIN_INLINE_PX, f"{text!r} is {height:.1f} px tall inline"


def test_a_roster_too_long_for_the_box_ends_with_how_many_more():
    """Forty squads a side: the table shrinks to its smallest scale, the roster stops where the
    box ends and says how many units it leaves out; everything drawn still reads inline."""
    state, _ = quick_after_moves()
    state = state.fork()
    for side, y in (("allies", 10.0), ("axis", 38.0)):
        for i in range(40):
            state.units[f"{side}-extra-{i}"] = make_unit(
                "german",
                "Infantry Detachment",
                side,
                (2 + (i % 20) * 3.5, y + (i // 20) * 3),
                unit_id=f"{side}-extra-{i}",
                name=f"Extra {i}",
            )
    canvas = picture(state, "referee")
    width, height = canvas.image.size
    assert width <= 2 * INLINE_BOX[0] and height <= 2 * INLINE_BOX[1]
    assert any(text.startswith("and ") and text.endswith(" more") for _, text in canvas.texts)
    height, text, _ = smallest_inline_text(state, "referee")
    assert height >= MIN_INLINE_PX, f"{text!r} is {height:.1f} px tall inline"


def test_the_game_over_header_says_who_won_and_why_in_full_and_reads_inline():
    """The longest reason a game ends with (a Breakthrough's withdrawal, p. 31) goes on the
    header's second line, uncut, as tall inline as every other text."""
    state, _ = quick_after_moves()
    why = "axis has 12 of 30 BP in the far third, short of a third: it withdraws"
    over = state.model_copy(update={"phase": Phase.OVER, "result": GameResult(winner="allies", reason=why)})
    canvas = picture(over, None)
    texts = [text for _, text in canvas.texts]
    assert "Turn 1/7 | Game over: the Allies win" in texts and "A" + why[1:] in texts
    assert not any(text.endswith("...") for text in texts)
    height, text, _ = smallest_inline_text(over, None)
    assert height >= MIN_INLINE_PX, f"{text!r} is {height:.1f} px tall inline"
