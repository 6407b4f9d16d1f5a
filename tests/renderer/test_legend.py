"""The legend: an entry for every kind of mark the picture draws, and a picture whose size never
changes with how many entries its legend holds (they take a block kept for all of them)."""

from __future__ import annotations

import pytest

import renderer
from engine.view import view_for
from renderer import picture
from renderer.legend import ITEMS
from renderer.overlay import last_action
from tests.renderer.battles import charged, shelled
from tests.renderer.scenes import quick_after_moves, quick_started


def test_every_mark_of_the_last_action_has_its_legend_entry():
    for log, marks in ((shelled(), {"landed", "fire_marker", "last"}), (charged(), {"close_combat", "last"})):
        events = log.history[-1][1]
        canvas = picture(log.state, None, last_events=events)
        shown = last_action(events, view_for(log.state, None), None, state=log.state).shows
        assert marks <= set(canvas.legend)
        assert shown <= set(canvas.legend)
        assert [key for key in ITEMS if key in canvas.legend] == canvas.legend  # in the legend's order


def test_the_fire_marker_has_its_legend_entry():
    log = shelled()
    texts = {text for _, text in picture(log.state, None).texts}
    assert {"fire", "fire marker"} <= texts  # the marker's caption on the table, and its entry


@pytest.mark.parametrize("viewer", [None, "allies", "referee"])
def test_the_picture_is_the_same_size_with_one_legend_entry_and_with_all(viewer, monkeypatch):
    state, events = quick_after_moves()
    sizes, drawn = [], []
    for shows in ({"fire"}, set(ITEMS)):
        monkeypatch.setattr(renderer, "_shows", lambda *_, shows=shows: set(shows))
        canvas = picture(state, viewer, last_events=events)
        sizes.append(canvas.image.size)
        drawn.append(canvas)
    assert sizes[0] == sizes[1]
    every = drawn[1]
    assert every.legend == list(ITEMS)  # every entry drawn, none left out
    names = {name for _, *both in ITEMS.values() for name in both}
    entries = [box for box, text in every.texts if box[1] >= every.frame.legend_top and text in names]
    assert len(entries) == len(ITEMS)
    width, height = every.image.size
    assert all(0 <= x0 and x1 <= width and y1 <= height for x0, _, x1, y1 in entries)
    for i, (x0, y0, x1, y1) in enumerate(entries):  # no entry's name runs into another's
        assert not any(x0 < b[2] and b[0] < x1 and y0 < b[3] and b[1] < y1 for b in entries[i + 1 :])


def test_a_game_keeps_its_picture_size_as_its_legend_changes():
    """The quick battle at its start (few marks) and after moves and shots (more): one size."""
    start, _ = quick_started()
    later, events = quick_after_moves()
    plain, busy = picture(start, None), picture(later, None, last_events=events)
    assert len(busy.legend) > len(plain.legend)
    assert plain.image.size == busy.image.size
