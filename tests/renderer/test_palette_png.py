"""The palette PNG the renderer writes itself (renderer.encode.palette_png, deflated by ISA-L) is
a PNG any decoder reads as exactly the picture mapped onto its palette: the same colour index at
every pixel and the same palette as Pillow's own encoder gives, whatever the size."""

from __future__ import annotations

import io
import struct
import zlib

import pytest
from PIL import Image

from renderer import picture, render
from renderer.encode import palette_png
from tests.renderer.pixels import png
from tests.renderer.scenes import busy_table, quick_after_moves


def pillows(image: Image.Image) -> Image.Image:
    """The picture as Pillow's own PNG encoder writes it, read back."""
    out = io.BytesIO()
    image.save(out, format="PNG")
    return png(out.getvalue())


def chunks(data: bytes) -> list[tuple[bytes, bytes]]:
    """The PNG's chunks (kind, data), each one's CRC checked."""
    out, at = [], 8
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        kind, body = data[at + 4 : at + 8], data[at + 8 : at + 8 + length]
        assert struct.unpack(">I", data[at + 8 + length : at + 12 + length])[0] == zlib.crc32(kind + body)
        out.append((kind, body))
        at += 12 + length
    return out


def test_a_rendered_picture_reads_back_as_the_picture_mapped_onto_its_palette():
    state, events = quick_after_moves()
    canvas = picture(state, "allies", last_events=events)
    mapped = canvas.image.quantize(palette=canvas.palette, dither=Image.Dither.NONE)
    written = png(render(state, "allies", last_events=events))
    assert written.mode == "P" and written.size == mapped.size
    assert written.tobytes() == mapped.tobytes()
    assert written.getpalette() == mapped.getpalette()
    assert written.convert("RGB").tobytes() == pillows(mapped).convert("RGB").tobytes()


@pytest.mark.parametrize("size", [(1, 1), (7, 3), (255, 1), (1, 300), (957, 641)])
def test_any_size_reads_back_pixel_for_pixel(size):
    w, h = size
    indices = Image.frombytes("P", size, bytes((x * 7 + y * 13) % 64 for y in range(h) for x in range(w)))
    indices.putpalette([v for i in range(64) for v in (i * 4, 255 - i * 4, (i * 37) % 256)])
    written = png(palette_png(indices))
    assert (written.mode, written.size) == ("P", size)
    assert written.tobytes() == indices.tobytes() == pillows(indices).tobytes()
    assert written.getpalette() == indices.getpalette()


def test_the_file_is_four_chunks_with_unfiltered_rows():
    data = render(busy_table(), None)
    found = chunks(data)
    assert [kind for kind, _ in found] == [b"IHDR", b"PLTE", b"IDAT", b"IEND"]
    w, h, depth, colour, *_ = struct.unpack(">IIBBBBB", found[0][1])
    assert (depth, colour) == (8, 3)  # 8 bits a pixel, a palette
    rows = zlib.decompress(found[2][1])
    assert len(rows) == h * (w + 1)
    assert {rows[r * (w + 1)] for r in range(h)} == {0}  # every row's filter byte: none
