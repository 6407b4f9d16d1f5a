"""A battle's replay as one animated GIF: the spectators' picture after each activation, under a
caption of what happened in it (engine.headline).

Every frame is drawn at the first frame's scale and mapped onto its 64-colour palette, so the
frames share one palette and one scale (a roster that grows is padded with the margin's colour),
and the GIF keeps of each frame only the box that changed, its unchanged pixels transparent.
GIF rather than animated PNG: Discord plays a GIF inline, while it shows an animated PNG's first
frame only.

The GIF is written to its file as the frames are drawn, holding no more than the frame being
drawn and the one before it, so a game of any length is replayed in the same memory; a game of
more than :data:`MOST_FRAMES` activations has several of them merged into each frame (the table
after the last, the moves and shots of all), so the whole battle still plays in a few minutes.

Measured on a whole random quick battle and on long games (benchmarks/replay.py): see that
file's docstring.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import BinaryIO

from PIL import GifImagePlugin, Image, ImageChops

from engine.headline import headline
from engine.story import Moment
from engine.view import SPECTATORS
from engine.wording import counted
from renderer import palette as pal
from renderer import picture
from renderer.canvas import Canvas
from renderer.description import describe, within
from renderer.encode import COLOURS
from renderer.header import draw_caption, header_lines

FRAME_MS = 1200  # each frame shows this long
LAST_FRAME_MS = 4000  # the end of the battle stays a little longer
MOST_FRAMES = 150  # a replay plays in at most about three minutes
CAPTION_LINES = 2  # under the header's first line (on the last frame, under why the battle ended: one)


def merged(moments: list[Moment]) -> Moment:
    """Several activations in a row as one: the table after the last, what happened in all,
    and the table before the first (so each unit's trail runs from where it stood)."""
    events = tuple(event for moment in moments for event in moment.events)
    return Moment(moments[-1].state, events, moments[0].before)


def frame_moments(moments: Iterable[Moment], planned: int) -> Iterator[Moment]:
    """The moments as at most :data:`MOST_FRAMES` frames, one a moment while ``planned`` (the
    activations declared, which the moments never outnumber) is no more: else the n-th moment
    goes in frame ``n * MOST_FRAMES // planned``, merged with the others there."""
    group: list[Moment] = []
    frame = 0
    for n, moment in enumerate(moments):
        at = n * MOST_FRAMES // max(planned, n + 1, MOST_FRAMES)
        if group and at != frame:
            yield merged(group)
            group = []
        frame = at
        group.append(moment)
    if group:
        yield merged(group)


def replay_frames(moments: Iterable[Moment], headers: int) -> Iterator[Canvas]:
    """The spectators' picture after each moment, with its moves and shots drawn and its
    caption under the header's first line, all at the first picture's scale and with room for
    ``headers`` header lines (as many as the last needs, so the table never jumps for the
    result's line) and the caption's: it takes the lines the header leaves."""
    scale = None
    for moment in moments:
        canvas = picture(
            moment.state,
            SPECTATORS,
            last_events=moment.events,
            before=moment.before,
            scale=scale,
            headers=max(headers + 1, 1 + CAPTION_LINES),
        )
        draw_caption(canvas, canvas.frame, headline(moment, SPECTATORS), header_lines(moment.state))
        scale = canvas.frame.scale
        yield canvas


@dataclass(frozen=True)
class Shown:
    """What a replay's GIF shows: how many frames, the first and the last (merged) moment."""

    frames: int
    first: Moment
    last: Moment


def write_replay(moments: Iterable[Moment], planned: int, headers: int, target: BinaryIO) -> Shown | None:
    """The replay of these moments (at most :data:`MOST_FRAMES` frames for the ``planned``
    activations) written to ``target`` as a GIF, frame by frame; None, and nothing written,
    when there is no moment to show."""
    shown: list[Moment] = []

    def kept(frames: Iterator[Moment]) -> Iterator[Moment]:
        for moment in frames:
            shown[1:] = [moment]  # the first, and the latest
            yield moment

    with GifWriter(target) as gif:
        for canvas in replay_frames(kept(frame_moments(moments, planned)), headers):
            gif.add(canvas)
        if not shown:
            return None
        gif.finish()
    return Shown(gif.frames, shown[0], shown[-1])


def replay_description(shown: Shown, activations: int) -> str:
    """The replay in words, for its alt text: how many frames over which turns, and its last
    frame as the spectators' picture is described (renderer.description)."""
    first, last = shown.first.before.turn, shown.last.state.turn
    turns = f"turn {first}" if first == last else f"turns {first} to {last}"
    each = "one after each activation"
    if shown.frames != activations:
        each = f"{counted(activations, 'activation')}, several to a frame"
    end = shown.last
    told = "Its last frame: " + describe(end.state, SPECTATORS, last_events=end.events, before=end.before)
    frames = f"in {counted(shown.frames, 'frame')} ({each}, {turns})"
    return within(f"An animated replay of the battle as the spectators saw it, {frames}. {told}")


class GifWriter:
    """Frames written to a looping GIF one at a time, on the first frame's palette, holding only
    the frame before: each later frame keeps only the box that changed, its unchanged pixels
    transparent, and a frame like the one before adds to its time instead. The GIF's size is
    the largest frame's (the rest padded with the margin's colour), known at :meth:`finish`; so
    the later frames wait in a temporary file, and the first is written then."""

    def __init__(self, target: BinaryIO) -> None:
        self.target = target
        self.later = tempfile.TemporaryFile()
        self.frames = 0
        self.palette: Image.Image | None = None
        self.first: Image.Image | None = None
        self.first_ms = 0
        self.previous: Image.Image | None = None  # the last frame, at the largest size so far
        self.held: tuple[Image.Image, tuple[int, int], int] | None = None  # a frame waiting for its time

    def add(self, canvas: Canvas) -> None:
        if self.palette is None:
            self.palette = canvas.palette or canvas.image.quantize(COLOURS)
            colours = (self.palette.getpalette() or [])[: 3 * COLOURS]
            self.clear = len(colours) // 3  # the transparent index, after the palette's colours
            self.colours = [*colours, 0, 0, 0]
            self.margin = self._mapped(Image.new("RGB", (1, 1), pal.MARGIN_BG)).getpixel((0, 0))
        now = self._mapped(canvas.image)
        self.frames += 1
        if self.previous is None:
            self.first = self.previous = now
            self.first_ms = FRAME_MS
            return
        size = (max(now.width, self.previous.width), max(now.height, self.previous.height))
        now, before = self._padded(now, size), self._padded(self.previous, size)
        change = ImageChops.subtract_modulo(now, before)
        box = change.getbbox()
        self.previous = now
        if box is None:  # as before: the frame before shows longer
            self.frames -= 1
            self._lengthen(FRAME_MS)
            return
        part = now.crop(box)
        part.paste(self.clear, mask=change.crop(box).point([255] + [0] * 255, "1"))
        self._write_held()
        self.held = (part, box[:2], FRAME_MS)

    def __enter__(self) -> GifWriter:
        return self

    def __exit__(self, *_: object) -> None:
        self.later.close()

    def finish(self) -> None:
        """Write the GIF: its header, the first frame, the later ones, its end."""
        assert self.first is not None and self.previous is not None
        self._lengthen(LAST_FRAME_MS - FRAME_MS)
        self._write_held()
        first = self._padded(self.first, self.previous.size)
        first.putpalette(self.colours)
        header, _ = GifImagePlugin.getheader(first, info={"loop": 0})
        self.target.writelines(header)
        self.target.writelines(GifImagePlugin.getdata(first, duration=self.first_ms))
        self.later.seek(0)
        shutil.copyfileobj(self.later, self.target)
        self.target.write(b";")

    def _mapped(self, image: Image.Image) -> Image.Image:
        assert self.palette is not None
        return image.quantize(COLOURS, palette=self.palette, dither=Image.Dither.NONE)

    def _padded(self, image: Image.Image, size: tuple[int, int]) -> Image.Image:
        if image.size == size:
            return image
        whole = Image.new("P", size, self.margin)
        whole.putpalette(self.colours)
        whole.paste(image, (0, 0))
        return whole

    def _lengthen(self, ms: int) -> None:
        if self.held is None:
            self.first_ms += ms
        else:
            part, at, shown = self.held
            self.held = (part, at, shown + ms)

    def _write_held(self) -> None:
        if self.held is not None:
            part, at, ms = self.held
            self.later.writelines(GifImagePlugin.getdata(part, at, duration=ms, transparency=self.clear))
            self.held = None
