"""The battle's story at its end: the animated replay (the spectators' picture after each
activation, rebuilt from the stored log) and the summary, on the game-over card, by
``/game replay`` and at the console."""

import io

from PIL import Image

from bot.console import play_console
from bot.services.replay_service import REPLAY_FILE, build_replay
from engine.commands import Concede, Declare, DeclineReaction, Fire, Move, UnitOrder
from engine.dice import ScriptedDice, SeededDice, d6, d10
from engine.game_state import GameState
from engine.referee import live_history
from engine.rich_text import Strong
from engine.scenarios.new_game import make_unit
from engine.scenarios.quick_battle import quick_battle
from engine.state import Phase, TableSize
from engine.story import battle_story, story_text
from engine.view import REFEREE, SPECTATORS, view_for
from renderer.animation import replay_frames
from renderer.description import describe
from tests.bot.discord_harness import (
    ANN,
    OTTO,
    answers_in,
    callback_payload,
    close_bot,
    files_of,
    open_bot,
    reply,
)
from tests.bot.test_discord_action_cards import (  # noqa: F401 (a fixture)
    COMPONENTS_V2,
    REF,
    bot_and_discord,
    card_of,
)
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
        sniper_tag = view_for(moment.state, REFEREE).tags["sniper"]
        spectators = {text for _, text in canvas.texts}
        assert not {"Ghost", sniper_tag} & spectators
        assert "sniper" not in view_for(moment.state, SPECTATORS).known
    assert replay.description.startswith("An animated replay of the battle as the spectators saw it, in 2 ")
    assert "Ghost" not in replay.description and f"({sniper_tag})" not in replay.description  # nor described
    from renderer import picture

    referee = {text for _, text in picture(story.final, REFEREE).texts}
    assert "Ghost" in referee  # the check above could see the sniper, were it drawn
    assert "Ghost" in describe(story.final, REFEREE)  # or described


def test_a_whole_quick_battle_replays_under_two_mib_with_a_frame_per_activation():
    start = quick_battle()
    _, history = play_random_game(start, 3)
    replay = build_replay(start, history)
    story = battle_story(start, live_history(history))
    activations = len(story.moments)
    assert replay.frames == activations == Image.open(io.BytesIO(replay.gif)).n_frames
    assert story.moments[-1].state.result is not None  # the last frame says why under its header...
    last_two = replay_frames(story.moments[-2:])
    assert last_two[0].frame.top == last_two[1].frame.top  # ... and the table does not jump for it
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
    lines = "/start\n/initiative start\n/act gruppe-3 move:50,39\n/noreact\n/concede\n/game replay\n"
    out = io.StringIO()
    await play_console(io.StringIO(lines), out, url, dice=lambda: SeededDice(1), pictures=pictures)
    text = out.getvalue()
    assert text.count(f"Replay (1 frame, one per activation): {pictures / REPLAY_FILE}") == 2
    assert "The battle's story: 1 turn played, 1 activation." in text
    assert Image.open(pictures / REPLAY_FILE).n_frames == 1


async def test_a_window_closed_by_its_timer_that_ends_the_game_posts_the_game_over_card(
    tmp_path, monkeypatch
):
    """The last turn's last token spent on a move, the allies' last one ruled spent by the referee
    while its reaction window is open: nobody answers the window, its timer closes it, the move is
    carried out, the turn ends and with it the battle (pp. 27-28). The
    card posted to the channel is the game-over card: the story, the picture and the replay,
    and no buttons."""
    bot, discord = await open_bot(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", monkeypatch)
    state = quick_battle().model_copy(update={"last_turn": 1, "random_length": False, "referees": [REF]})
    await bot.games.new_game("1", state)
    await discord.slash("game join", user=ANN, channel="1", side="allies")
    await discord.slash("game join", user=OTTO, channel="1", side="axis")
    bot.games.dice = lambda: ScriptedDice([d6(2), d6(5)])  # the axis win the initiative
    await discord.slash("game start", user=OTTO, channel="1")
    await discord.slash("initiative", user=OTTO, channel="1", choice="start")
    for side in ("axis", "allies"):  # a token each left in the battle
        await discord.slash("ref tokens", user=REF, channel="1", side=side, count=1, reason="last ones")
    bot.games.dice = lambda: SeededDice(1)  # the break point tests
    await discord.slash("act", user=OTTO, channel="1", unit="gruppe-3", move="50,39")
    assert (await bot.games.game("1")).phase is Phase.REACTION
    # the referee rules the allies' last token spent: the window stays open, nobody answers it
    await discord.slash("ref tokens", user=REF, channel="1", side="allies", count=0, reason="spent")
    assert (await bot.games.game("1")).phase is Phase.REACTION

    before = len(discord.sent)
    await bot.games.clock.advance(120)
    assert (await bot.games.game("1")).phase is Phase.OVER
    (post,) = [e for e in discord.sent[before:] if e["route"] == "POST /channels/{channel_id}/messages"]
    body = callback_payload(post)
    assert body["flags"] & COMPONENTS_V2
    (container,) = body["components"]
    parts = container["components"]
    assert [part["type"] for part in parts] == [10, 12]  # the text and the gallery; no buttons
    assert [item["media"]["url"] for item in parts[1]["items"]] == [
        "attachment://battlefield.png",
        f"attachment://{REPLAY_FILE}",
    ]
    text = parts[0]["content"]
    assert text.startswith("The reaction window closed.") and "Game over" in text and "1 activation" in text
    picture, gif = files_of(post)
    assert picture.startswith(b"\x89PNG") and Image.open(io.BytesIO(gif)).n_frames == 1
    await close_bot(bot)
