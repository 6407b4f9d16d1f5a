"""Each frame of a replay says what it shows, under its header: the turn, the side that
activated, who did what and what came of it (engine.headline, from the events' data), readable
at the size Discord shows a GIF inline."""

from __future__ import annotations

import pytest

from engine.commands import Fire
from engine.dice import d6, d10
from engine.headline import headline
from engine.scenarios.new_game import make_unit
from engine.state import TableSize
from engine.view import REFEREE, SPECTATORS
from renderer.animation import merged, replay_frames
from renderer.header import header_lines
from tests.engine.helpers import game, started
from tests.renderer.battles import charged, fire_and_move, moments, shelled
from tests.renderer.scenes import Log

SHOWN_WIDE = 400  # the narrowest a GIF is shown inline (about 400 to 550 px)
MIN_INLINE_PX = 9


@pytest.mark.parametrize(
    ("battle", "captions"),
    [
        (
            fire_and_move,
            [
                "Turn 1 · Allies: Sherman fires at Panzer IV: explodes",
                'Turn 1 · Allies: Rifle Squad moves 4"',
            ],
        ),
        (
            shelled,
            [
                "Turn 1 · Allies: Company HQ calls for fire: marker placed",
                "Turn 1 · Allies: Mortar's shell strays 2\" off the marker; Gruppe +1 marker",
            ],
        ),
        (
            charged,
            ["Turn 1 · Allies: Tommies in close combat with Gruppe: Gruppe +5 markers, Tommies +2 markers"],
        ),
    ],
)
def test_each_activation_is_captioned_with_who_did_what_and_what_came_of_it(battle, captions):
    told = moments(battle())
    assert [headline(moment, SPECTATORS) for moment in told] == captions


def test_each_frame_carries_its_caption_readable_in_a_gif_shown_400_px_wide():
    log = shelled()
    told = moments(log)
    for moment, canvas in zip(told, replay_frames(told, header_lines(log.state)), strict=True):
        caption = headline(moment, SPECTATORS)
        frame = canvas.frame
        lines = [(box, text) for box, text in canvas.texts if box[3] <= frame.header_h and box[1] >= 40]
        assert " ".join(text for _, text in lines) == caption
        shrink = SHOWN_WIDE / canvas.image.width
        assert all((y1 - y0) * shrink >= MIN_INLINE_PX for (_, y0, _, y1), _ in lines)
        assert all(x1 <= canvas.image.width for (_, _, x1, _), _ in lines)


def test_a_long_caption_is_cut_short_within_its_lines():
    told = moments(charged())
    moment = told[0]
    wordy = moment.state.fork()
    wordy.units["tommies"].name = "The Very Long Named Rifle Platoon Of The Queen's Own Highlanders " * 3
    (canvas,) = replay_frames([type(moment)(wordy, moment.events, moment.before)], 1)
    lines = [text for box, text in canvas.texts if box[3] <= canvas.frame.header_h and box[1] >= 40]
    assert len(lines) == 2 and lines[-1].endswith("...")
    assert all(box[2] <= canvas.image.width for box, _ in canvas.texts)


def test_a_hidden_snipers_shot_names_it_to_the_referee_only():
    log = Log(
        started(
            game(
                make_unit("us", "Infantry Detachment", "allies", (10, 10), unit_id="gis", name="Rifle Squad"),
                make_unit(
                    "german", "Sniper Team", "axis", (10, 30), unit_id="sniper", name="Ghost", hidden=True
                ),
                table=TableSize(width=72, depth=48),
            ),
            "axis",
        )
    )
    log.act("axis", "sniper", Fire(target="gis"), faces=[d10(9), d6(1), d6(2)])
    (moment,) = moments(log)
    assert "Ghost" in headline(moment, REFEREE)
    assert "Ghost" not in headline(moment, SPECTATORS) and "Ghost" not in headline(moment, "allies")


def test_a_frame_of_several_activations_says_how_many():
    """A long game's frames hold several activations each (renderer.animation.MOST_FRAMES)."""
    told = moments(fire_and_move())
    assert headline(merged(told), SPECTATORS) == (
        'Turn 1 · 2 activations of the Allies: Sherman fires at Panzer IV: explodes; Rifle Squad moves 4"'
    )
