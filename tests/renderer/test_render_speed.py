"""Rendering speed. CI runs these once as plain tests; for figures run
``python -m pytest tests/renderer --benchmark-enable``."""

import io

from renderer import compose, render
from renderer.base import background, base_layer
from renderer.encode import encode_png
from tests.renderer.pixels import frame_of, png
from tests.renderer.scenes import quick_after_moves


def test_render_the_quick_battle_after_a_few_moves(benchmark):
    """The whole per-action cost: copy the cached base, draw units, markers and the overlay of
    the last shot, map onto the 64-colour palette and encode the PNG."""
    state, events = quick_after_moves()
    render(state, "allies", last_events=events)  # the base layer is drawn once per game

    data = benchmark(render, state, "allies", last_events=events)
    assert png(data).size == frame_of(state, viewer="allies", last_events=events).size
    assert background.cache_info().hits > 0


def test_encode_as_rgb_for_comparison(benchmark):
    """The same picture encoded as plain RGB at zlib's default level: the cost the palette avoids."""
    state, events = quick_after_moves()
    image = compose(state, "allies", last_events=events)

    def encode_rgb() -> bytes:
        out = io.BytesIO()
        image.save(out, format="PNG")
        return out.getvalue()

    data = benchmark(encode_rgb)
    rgb = png(data)
    assert (rgb.mode, rgb.size) == ("RGB", image.size)
    assert len(data) > len(encode_png(image, base_layer(state.terrain, state.table, 12).palette))
