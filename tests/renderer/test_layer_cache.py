"""The layer caches are bounded by the memory their pictures take, not by a count of tables: fifty
tables in use at once each keep their layers, and the caches never hold more than their budget,
counted as Pillow keeps the pixels (an RGB pixel in four bytes)."""

from engine.scenarios.quick_battle import quick_battle
from engine.tables.generate import random_table
from renderer import render
from renderer.base import CACHE_BYTES, background, base_layer
from tests.renderer.pixels import frame_of


def test_fifty_tables_in_turn_are_each_drawn_once():
    base_layer.cache_clear()
    background.cache_clear()
    states = [quick_battle(random_table(seed, 48.0, 48.0)) for seed in range(50)]
    for _ in range(2):
        for state in states:
            render(state, None)
    assert base_layer.cache_info().misses == 50  # each table's terrain drawn once
    drawn = background.cache_info()  # the second round finds every table's background kept
    assert (drawn.misses, drawn.hits) == (50, 50)


def test_the_caches_hold_no_more_than_their_budget():
    for cache in (base_layer, background):
        info = cache.cache_info()
        assert info.maxsize == CACHE_BYTES // 2 and 0 < info.currsize <= info.maxsize


def test_a_background_counts_four_bytes_a_pixel():
    """Pillow pads an RGB pixel to 32 bits: a background of w x h pixels holds 4 w h bytes."""
    background.cache_clear()
    state = quick_battle(random_table(7, 48.0, 48.0))
    render(state, None)
    w, h = frame_of(state).size
    assert background.cache_info().currsize == 4 * w * h
