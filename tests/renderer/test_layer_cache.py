"""The base-layer cache is bounded by the memory its pictures take, least recently used first."""

from PIL import Image

from engine.state import TableSize
from renderer.base import Base, LayerCache, picture_bytes


def _counting_draw(drawn: list[int]):
    def draw(terrain, table, scale):
        drawn.append(scale)
        return Base(Image.new("RGB", (100, 100)), Image.new("P", (1, 1)))  # 30,001 bytes

    return draw


def test_layers_are_kept_while_they_fit_in_the_budget_and_the_oldest_goes_first():
    drawn: list[int] = []
    cache = LayerCache(
        _counting_draw(drawn), size_of=lambda b: picture_bytes(b.image, b.palette), limit=3 * 30_001
    )
    table = TableSize()
    for scale in (1, 2, 3, 1, 2, 3):  # three layers fit: each drawn once
        cache((), table, scale)
    assert drawn == [1, 2, 3]
    cache((), table, 4)  # a fourth pushes out the least recently used (1)
    cache((), table, 3)
    cache((), table, 1)
    assert drawn == [1, 2, 3, 4, 1]
    info = cache.cache_info()
    assert (info.currsize, info.held_bytes, info.hits, info.misses) == (3, 3 * 30_001, 4, 5)


def test_fifty_tables_in_turn_are_each_drawn_once_under_the_default_budget():
    drawn: list[int] = []
    cache = LayerCache(
        _counting_draw(drawn), size_of=lambda b: picture_bytes(b.image, b.palette), limit=256 * 1024 * 1024
    )
    for _ in range(3):
        for scale in range(50):
            cache((), TableSize(), scale)
    assert drawn == list(range(50))


def test_the_newest_layer_is_kept_even_when_it_alone_is_over_the_budget():
    drawn: list[int] = []
    cache = LayerCache(_counting_draw(drawn), size_of=lambda b: picture_bytes(b.image, b.palette), limit=10)
    cache((), TableSize(), 1)
    cache((), TableSize(), 1)
    assert drawn == [1] and cache.cache_info().currsize == 1
