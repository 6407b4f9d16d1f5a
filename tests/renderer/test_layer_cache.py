"""The layer caches are bounded by the memory their pictures take, not by a count of tables: fifty
tables in use at once each keep their layers, and the caches never hold more than their budget."""

from engine.scenarios.quick_battle import quick_battle
from engine.tables.generate import random_table
from renderer import render
from renderer.base import CACHE_BYTES, background, base_layer


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
