"""PNG encoding: a 64-colour palette picture, mapped onto a palette fixed per base layer.

Measured on the quick battle after a few moves (956 x 674 px, 2-core machine, medians):
RGB PNG at zlib's default level 6 takes 20-28 ms for 60 KiB; mapping onto the cached palette
takes 0.6 ms. An adaptive quantize per render (FASTOCTREE) costs 5-13 ms, and its palette
would change with what is on the table; the fixed palette keeps renders deterministic.

The palette picture's rows are compressed by ISA-L (:mod:`isal`), whose deflate is zlib's format
made several times faster: 0.4 ms for 45 KiB, where Pillow's zlib takes 2.4 ms at level 3 for
42 KiB (2.1 ms at level 1 for 49 KiB; its filters do nothing for a palette picture). The PNG
around them is four chunks (:func:`palette_png`), as Pillow writes it.
"""

from __future__ import annotations

import io
import struct
import zlib

from isal import isal_zlib
from PIL import Image

from renderer import palette as pal

COLOURS = 64
COMPRESS_LEVEL = 3  # zlib level of a plain RGB picture: 1-3 are several times faster than 6
PALETTE_LEVEL = 1  # ISA-L level of a palette picture: 0-2 take the same time, 3 twice as long
SIGNATURE = b"\x89PNG\r\n\x1a\n"
NEAR = 6  # base colours this close to a fixed colour are left out of the palette
GREYS = tuple((v, v, v) for v in range(0, 256, 32)) + ((255, 255, 255),)


def _blend(under: pal.RGB, over: pal.RGB, alpha: int) -> pal.RGB:
    r, g, b = (round(u + (o - u) * alpha / 255) for u, o in zip(under, over, strict=True))
    return r, g, b


def _distance(a: tuple[int, ...], b: tuple[int, ...]) -> int:
    return max(abs(x - y) for x, y in zip(a, b, strict=True))


def dynamic_colours() -> list[pal.RGB]:
    """Every colour the per-render drawing uses, including smoke laid over what it may cover."""
    solid = [pal.MARGIN_BG, pal.INK, pal.HALO, pal.MUTED_INK,
             pal.MORALE_PIP, pal.TOKEN_PIP, pal.PIP_EDGE, pal.OBJECTIVE,
             pal.HIGHLIGHT, pal.FIRE_LINE, pal.WRECK, pal.WRECK_EDGE, pal.HIDDEN_MARKER, pal.HIDDEN_TEXT,
             pal.ALLIES.fill, pal.ALLIES.outline, pal.AXIS.fill, pal.AXIS.outline]
    smoked = [_blend(c, pal.SMOKE, pal.SMOKE_ALPHA)
              for c in (pal.OPEN_GROUND, pal.WOODS, pal.ROAD, pal.ALLIES.fill, pal.AXIS.fill, pal.WRECK)]
    return list(dict.fromkeys([*solid, *smoked, *GREYS]))


def palette_for(base: Image.Image) -> Image.Image:
    """A palette holding the dynamic colours first, then the base layer's commonest colours."""
    fixed = dynamic_colours()
    adaptive = base.quantize(COLOURS - len(fixed), method=Image.Quantize.FASTOCTREE)
    flat = adaptive.getpalette() or []
    ground = [tuple(flat[i : i + 3]) for i in range(0, 3 * (COLOURS - len(fixed)), 3)]
    # Pillow maps through a coarse colour cache: a near twin of a fixed colour could take its place
    ground = [c for c in ground if all(_distance(c, f) > NEAR for f in fixed)]
    colours = list(dict.fromkeys([*fixed, *ground]))[:COLOURS]
    holder = Image.new("P", (1, 1))
    holder.putpalette([v for c in colours for v in c])
    return holder


def encode_png(image: Image.Image, palette: Image.Image | None = None) -> bytes:
    """PNG bytes: mapped onto ``palette`` (no dithering) when given, else plain RGB."""
    if palette is not None:
        return palette_png(image.quantize(palette=palette, dither=Image.Dither.NONE))
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=COMPRESS_LEVEL)
    return out.getvalue()


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def palette_png(image: Image.Image) -> bytes:
    """A palette ("P") picture as PNG: 8 bits a pixel, each row unfiltered (its filter byte 0)."""
    w, h = image.size
    rows = Image.new("P", (w + 1, h), 0)  # a column of zeros before each row: its filter byte
    rows.paste(image, (1, 0))
    header = struct.pack(">IIBBBBB", w, h, 8, 3, 0, 0, 0)  # 8-bit palette, deflate, no interlace
    return b"".join([
        SIGNATURE,
        _chunk(b"IHDR", header),
        _chunk(b"PLTE", bytes(image.getpalette() or [0, 0, 0])),
        _chunk(b"IDAT", isal_zlib.compress(rows.tobytes(), PALETTE_LEVEL)),
        _chunk(b"IEND", b""),
    ])
