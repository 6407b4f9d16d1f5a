"""A battle's replay as one animated GIF: the spectators' picture after each activation.

Every frame is drawn at the first frame's scale and mapped onto its 64-colour palette, so the
frames share one palette and one size (a roster that grows is padded with the margin's colour),
and the GIF keeps of each frame only the box that changed. GIF rather than animated PNG: Discord
plays a GIF inline, while it shows an animated PNG's first frame only.

Measured on a whole random quick battle (benchmarks/replay.py): see that file's docstring.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image

from engine.story import Moment
from engine.view import SPECTATORS
from engine.wording import counted
from renderer import palette as pal
from renderer import picture
from renderer.canvas import Canvas
from renderer.description import describe, within
from renderer.encode import COLOURS
from renderer.header import header_lines

FRAME_MS = 1200  # each activation shows this long
LAST_FRAME_MS = 4000  # the end of the battle stays a little longer


def replay_frames(moments: Sequence[Moment]) -> list[Canvas]:
    """The spectators' picture after each activation, with its moves and shots drawn, all at the
    first picture's scale and with as many header lines as the last, so the table never jumps."""
    frames: list[Canvas] = []
    headers = header_lines(moments[-1].state) if moments else None  # the result's line, in every frame
    for moment in moments:
        scale = frames[0].frame.scale if frames else None
        frames.append(
            picture(
                moment.state,
                SPECTATORS,
                last_events=moment.events,
                before=moment.before,
                scale=scale,
                headers=headers,
            )
        )
    return frames


def replay_description(moments: Sequence[Moment]) -> str:
    """The replay in words, for its alt text: how many frames over which turns, and its last
    frame as the spectators' picture is described (renderer.description)."""
    if not moments:
        return "A replay of the battle: no activation was played."
    first, last = moments[0].state.turn, moments[-1]
    turns = f"turn {first}" if first == last.state.turn else f"turns {first} to {last.state.turn}"
    frames = f"in {counted(len(moments), 'frame')} (one after each activation, {turns})"
    end = "Its last frame: " + describe(last.state, SPECTATORS, last_events=last.events, before=last.before)
    return within(f"An animated replay of the battle as the spectators saw it, {frames}. {end}")


def animated_gif(frames: Sequence[Canvas]) -> bytes:
    """The frames as one looping GIF, on the first frame's palette."""
    if not frames:
        raise ValueError("a replay needs at least one frame")
    width = max(f.image.width for f in frames)
    height = max(f.image.height for f in frames)
    palette = frames[0].palette
    images = []
    for canvas in frames:
        whole = Image.new("RGB", (width, height), pal.MARGIN_BG)
        whole.paste(canvas.image, (0, 0))
        images.append(
            whole.quantize(COLOURS, palette=palette, dither=Image.Dither.NONE)
            if palette is not None
            else whole.quantize(COLOURS)
        )
    out = io.BytesIO()
    durations = [FRAME_MS] * (len(images) - 1) + [LAST_FRAME_MS]
    images[0].save(
        out, format="GIF", save_all=True, append_images=images[1:], duration=durations, loop=0, optimize=True
    )
    return out.getvalue()
