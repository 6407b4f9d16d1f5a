"""The battle's story at its end: the animated replay (the spectators' picture after each
activation, rebuilt from the stored log) and the summary, on the game-over card, by
``/game replay`` and at the console."""

import io

from PIL import Image

from bot.console import play_console
from bot.services.replay_service import REPLAY_FILE, build_replay
from engine.commands import Concede, Declare, DeclineReaction, Fire, Move, UnitOrder
from engine.dice import SeededDice, d6, d10
from engine.game_state import GameState
from engine.referee import live_history
from engine.rich_text import Strong
from engine.scenarios.new_game import make_unit
from engine.scenarios.quick_battle import quick_battle
from engine.state import TableSize
from engine.story import battle_story, story_text
from engine.view import REFEREE, SPECTATORS, view_for
from renderer.animation import replay_frames
from renderer.tags import tags_for
from tests.bot.discord_harness import (
    ANN,
    OTTO,
    answers_in,
    files_of,
    reply,
)
from tests.bot.test_discord_action_cards import bot_and_discord, card_of  # noqa: F401 (a fixture)
from tests.engine.helpers import P, game, play, started
from tests.engine.random_play import play_random_game

MIB = 1024 * 1024


def frames_of(gif: bytes) -> list[Image.Image]:
    movie = Image.open(io.BytesIO(gif))
    assert movie.format == "GIF"
    frames = []
    for n in range(movie.n_frames):
        movie.seek(n)
        frames.append(movie.convert("RGB"))
    return frames


def scripted_game() -> tuple[GameState, list]:
    """A Sherman destroys a Panzer IV (Kaboom, p. 12), the GIs move, the axis concedes; the axis
    has a hidden sniper team (p. 20) that never shows itself."""
    start = started(
        game(
            make_unit("us", "Sherman 75mm", "allies", (30, 10), facing=90, unit_id="sherman"),
            make_unit("us", "Infantry Detachment", "allies", (10, 10), unit_id="gis", name="GIs"),
            make_unit("german", "Panzer IV G (late) to J", "axis", (30, 30), facing=270, unit_id="pz"),
            make_unit("german", "Sniper Team", "axis", (60, 40), unit_id="sniper", name="Ghost", hidden=True),
            table=TableSize(width=72, depth=48),
        ),
        "allies",
    )
    history = []

    def step(command, *faces):
        nonlocal state
        state, events = play(state, command, *faces)
        history.append((command, events))

    state = start
    step(Declare(side="allies", order=UnitOrder(unit="sherman", actions=(Fire(target="pz"),))))
    step(DeclineReaction(side="axis", window=state.pending.window), d10(5), d10(8), d6(6))
    step(Declare(side="allies", order=UnitOrder(unit="gis", actions=(Move(path=(P(14, 10),)),))))
    step(DeclineReaction(side="axis", window=state.pending.window))
    step(Concede(side="axis"))
    return start, history


def test_the_story_of_a_scripted_game_counts_its_activations_losses_and_kills():
    start, history = scripted_game()
    story = battle_story(start, live_history(history))
    assert len(story.moments) == 2
    assert [m.state.units["pz"].destroyed for m in story.moments] == [True, True]
    assert story.moments[1].state.units["gis"].position == P(14, 10)
    assert [(k.turn, k.side, k.text) for k in story.kills] == [
        (1, "axis", "Sherman 75mm fires: Panzer IV G (late) to J explodes!")
    ]
    assert story_text(story) == (
        (Strong("The battle's story"), ": 1 turn played, 2 activations."),
        (Strong("The Allies"), " won", ": the Axis conceded."),
        ("The Allies lost 0 units",),
        ("The Axis lost 1 unit: Panzer IV G (late) to J",),
        ("Decisive moments:",),
        ("- turn 1: Sherman 75mm fires: Panzer IV G (late) to J explodes!",),
    )


def test_each_frame_is_the_spectators_picture_and_no_hidden_unit_is_drawn():
    """The GIF's frames are the spectators' pictures after each activation, pixel for pixel on
    their palette; none draws the hidden sniper team (its tag or name), which the referee's
    picture of the same moment does show."""
    start, history = scripted_game()
    story = battle_story(start, live_history(history))
    replay = build_replay(start, history)
    frames = frames_of(replay.gif)
    assert len(frames) == replay.frames == len(story.moments) == 2
    drawn = replay_frames(story.moments)
    for moment, canvas, frame in zip(story.moments, drawn, frames, strict=True):
        mapped = canvas.image.quantize(palette=canvas.palette, dither=Image.Dither.NONE).convert("RGB")
        assert frame.crop((0, 0, *mapped.size)).tobytes() == mapped.tobytes()
        sniper_tag = tags_for(view_for(moment.state, REFEREE).units)["sniper"]
        spectators = {text for _, text in canvas.texts}
        assert not {"Ghost", sniper_tag} & spectators
        assert "sniper" not in view_for(moment.state, SPECTATORS).known
    from renderer import picture

    referee = {text for _, text in picture(story.final, REFEREE).texts}
    assert "Ghost" in referee  # the check above could see the sniper, were it drawn


def test_a_whole_quick_battle_replays_under_two_mib_with_a_frame_per_activation():
    start = quick_battle()
    _, history = play_random_game(start, 3)
    replay = build_replay(start, history)
    activations = len(battle_story(start, live_history(history)).moments)
    assert replay.frames == activations == Image.open(io.BytesIO(replay.gif)).n_frames
    assert activations > 50
    assert len(replay.gif) < 2 * MIB


async def play_to_concede(discord) -> list:
    """Two activations by the axis (no reaction), then the allies concede."""
    await discord.slash("initiative", user=OTTO, channel="1", choice="start")
    for unit, to in (("gruppe-3", "50,39"), ("gruppe-2", "40,39")):
        await discord.slash("act", user=OTTO, channel="1", unit=unit, move=to)
        await discord.slash("noreact", user=ANN, channel="1")
    return await discord.slash("game concede", user=ANN, channel="1")


async def test_the_game_over_card_carries_the_replay_and_the_story(bot_and_discord):  # noqa: F811
    bot, discord = bot_and_discord
    sent = await play_to_concede(discord)
    body, kinds, parts = card_of(sent)
    assert kinds == [10, 12]  # the text, one gallery with the picture and the replay; no buttons
    assert [item["media"]["url"] for item in parts[1]["items"]] == [
        "attachment://battlefield.png",
        f"attachment://{REPLAY_FILE}",
    ]
    text = parts[0]["content"]
    assert "**The Axis** won: the Allies conceded." in text and "2 activations" in text
    (entry,) = [entry for _, private, entry in answers_in(sent) if not private]
    picture, gif = files_of(entry)
    assert picture.startswith(b"\x89PNG") and gif.startswith(b"GIF89a")
    assert Image.open(io.BytesIO(gif)).n_frames == 2
    assert len(gif) < MIB

    sent = await discord.slash("game replay", user="303", channel="1")  # a spectator asks again
    (body, private, entry) = answers_in(sent)[0]
    assert private and files_of(entry)[0] == gif
    assert "2 activations" in reply(sent)[0]


async def test_the_replay_waits_for_the_end_and_changes_nothing(bot_and_discord):  # noqa: F811
    bot, discord = bot_and_discord
    before = await bot.games.store.load("1")
    text, private = reply(await discord.slash("game replay", user=ANN, channel="1"))
    assert private and "when the game ends" in text
    after = await bot.games.store.load("1")
    assert (after.version, after.state) == (before.version, before.state)


async def test_the_console_writes_the_replay_when_the_game_ends_and_on_demand(tmp_path):
    pictures = tmp_path / "pictures"
    url = f"sqlite+aiosqlite:///{tmp_path / 'console.db'}"
    lines = "/start\n/initiative first\n/act gruppe-3 move:50,39\n/noreact\n/concede\n/game replay\n"
    out = io.StringIO()
    await play_console(io.StringIO(lines), out, url, dice=lambda: SeededDice(1), pictures=pictures)
    text = out.getvalue()
    assert text.count(f"Replay (1 frame, one per activation): {pictures / REPLAY_FILE}") == 2
    assert "The battle's story: 1 turn played, 1 activation." in text
    assert Image.open(pictures / REPLAY_FILE).n_frames == 1
