"""The battle's story at its end: the animated replay (the spectators' picture after each
activation, rebuilt from the stored log) and the summary, following the game-over card, by
``/game replay`` and at the console."""

import asyncio
import io
import threading

from PIL import Image, ImageDraw

from bot.console import play_console
from bot.services.replay_service import REPLAY_FILE, Replay, write_game_replay
from engine.commands import Concede, Declare, DeclineReaction, Fire, Move, UnitOrder
from engine.dice import ScriptedDice, SeededDice, d6, d10
from engine.game import replay
from engine.game_state import GameState
from engine.referee import live_history
from engine.rich_text import Strong
from engine.scenarios.new_game import make_unit
from engine.scenarios.quick_battle import quick_battle
from engine.state import Phase, TableSize
from engine.story import Storyteller, battle_story, story_text
from engine.view import REFEREE, SPECTATORS, view_for
from renderer import animation
from renderer import palette as pal
from renderer.animation import replay_frames
from renderer.canvas import Canvas
from renderer.description import describe
from renderer.encode import palette_for
from renderer.header import header_lines
from tests.bot.discord_harness import (
    ANN,
    OTTO,
    answers_in,
    callback_payload,
    close_bot,
    files_of,
    open_bot,
    posts_in,
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


def replayed(start: GameState, history: list) -> tuple[Replay, bytes]:
    """The replay of a game's log as the bot makes it, and its GIF."""
    movie = io.BytesIO()
    final = replay(start, live_history(history))[0]
    return write_game_replay(start, history, final, movie), movie.getvalue()


def moments_of(start: GameState, history: list) -> list:
    return list(Storyteller(start, live_history(history)).moments())


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
    story, moments = battle_story(start, live_history(history)), moments_of(start, history)
    assert story.activations == len(moments) == 2
    assert [m.state.units["pz"].destroyed for m in moments] == [True, True]
    assert moments[1].state.units["gis"].position == P(14, 10)
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
    moments = moments_of(start, history)
    made, gif = replayed(start, history)
    frames = frames_of(gif)
    assert len(frames) == made.frames == len(moments) == 2
    final = battle_story(start, live_history(history)).final
    drawn = list(replay_frames(moments, header_lines(final)))
    for moment, canvas, frame in zip(moments, drawn, frames, strict=True):
        mapped = canvas.image.quantize(palette=canvas.palette, dither=Image.Dither.NONE).convert("RGB")
        assert frame.crop((0, 0, *mapped.size)).tobytes() == mapped.tobytes()
        sniper_tag = view_for(moment.state, REFEREE).tags["sniper"]
        spectators = {text for _, text in canvas.texts}
        assert not {"Ghost", sniper_tag} & spectators
        assert "sniper" not in view_for(moment.state, SPECTATORS).known
    assert made.description.startswith("An animated replay of the battle as the spectators saw it, in 2 ")
    assert "Ghost" not in made.description and f"({sniper_tag})" not in made.description  # nor described
    from renderer import picture

    referee = {text for _, text in picture(final, REFEREE).texts}
    assert "Ghost" in referee  # the check above could see the sniper, were it drawn
    assert "Ghost" in describe(final, REFEREE)  # or described


def test_a_whole_quick_battle_replays_under_two_mib_with_a_frame_per_activation():
    start = quick_battle()
    _, history = play_random_game(start, 3)
    made, gif = replayed(start, history)
    moments = moments_of(start, history)
    activations = len(moments)
    assert made.frames == made.activations == activations == Image.open(io.BytesIO(gif)).n_frames
    assert moments[-1].state.result is not None  # the last frame says why under its header...
    last_two = list(replay_frames(moments[-2:], header_lines(moments[-1].state)))
    assert last_two[0].frame.top == last_two[1].frame.top  # ... and the table does not jump for it
    assert activations > 50
    assert len(gif) < 2 * MIB


async def play_to_concede(discord) -> list:
    """Two activations by the axis (no reaction), then the allies concede."""
    await discord.slash("initiative", user=OTTO, channel="1", choice="start")
    for unit, to in (("gruppe-3", "50,39"), ("gruppe-2", "40,39")):
        await discord.slash("act", user=OTTO, channel="1", unit=unit, move=to)
        await discord.slash("noreact", user=ANN, channel="1")
    return await discord.slash("game concede", user=ANN, channel="1")


def story_posts(sent: list) -> list[tuple[str, list[bytes]]]:
    """The battle's stories posted to channel 1 (the cards of the messages posted there): their
    text and files."""
    cards = [callback_payload(entry) | {"files": files_of(entry)} for where, entry in posts_in(sent)]
    return [
        (card["components"][0]["components"][0]["content"], card["files"])
        for card in cards
        if card.get("components") and "The battle's story" in str(card["components"])
    ]


async def test_the_story_and_its_replay_follow_the_game_over_card(bot_and_discord):  # noqa: F811
    bot, discord = bot_and_discord
    sent = await play_to_concede(discord)
    await bot.stories.close()  # the story made meanwhile is posted
    body, kinds, parts = card_of(sent)
    assert kinds == [10, 12]  # the text, the gallery with the picture alone; no buttons
    assert [item["media"]["url"] for item in parts[1]["items"]] == ["attachment://battlefield.png"]
    assert "The battle's story and its replay follow" in parts[0]["content"]
    ((text, (gif,)),) = story_posts(discord.sent)
    assert "**The Axis** won: the Allies conceded." in text and "2 activations" in text
    assert gif.startswith(b"GIF89a") and Image.open(io.BytesIO(gif)).n_frames == 2
    assert len(gif) < MIB
    (entry,) = [entry for _, private, entry in answers_in(sent) if not private]
    assert discord.sent.index(entry) < discord.sent.index(posts_in(discord.sent)[-1][1])  # the card first

    sent = await discord.slash("game replay", user="303", channel="1")  # a spectator asks again
    (body, private, entry) = answers_in(sent)[0]
    assert private and files_of(entry)[0] == gif
    assert "2 activations" in reply(sent)[0]


async def test_the_game_over_card_posts_without_waiting_for_the_replay(bot_and_discord, monkeypatch):  # noqa: F811
    """The replay is held back until the card has been posted: the card is there, and the story
    still being made; once let go, the story follows."""
    bot, discord = bot_and_discord
    let_go = threading.Event()

    def held_back(log):
        let_go.wait(timeout=10)
        return live_history(log)

    monkeypatch.setattr("bot.services.replay_service.live_history", held_back)
    before = len(discord.sent)
    conceding = asyncio.create_task(play_to_concede(discord))  # done once the story is posted
    while "its replay follow" not in str(discord.sent[before:]):  # the card
        assert not conceding.done()
        await asyncio.sleep(0.01)
    assert not story_posts(discord.sent) and not conceding.done()
    let_go.set()
    await conceding
    ((text, (gif,)),) = story_posts(discord.sent)
    assert "2 activations" in text and Image.open(io.BytesIO(gif)).n_frames == 2


async def test_a_replay_that_runs_out_of_memory_loses_neither_the_card_nor_the_game(
    bot_and_discord, monkeypatch, caplog  # noqa: F811
):
    bot, discord = bot_and_discord

    def out_of_memory(log):
        raise MemoryError

    monkeypatch.setattr("bot.services.replay_service.live_history", out_of_memory)
    sent = await play_to_concede(discord)
    await bot.stories.close()
    assert "Game over: the Axis win (the Allies conceded)" in card_of(sent)[2][0]["content"]
    assert (await bot.games.game("1")).phase is Phase.OVER
    assert not story_posts(discord.sent) and "could not post the story" in caplog.text
    monkeypatch.setattr("bot.services.replay_service.live_history", live_history)
    sent = await discord.slash("game replay", user=ANN, channel="1")  # made again on demand
    assert Image.open(io.BytesIO(files_of(answers_in(sent)[0][2])[0])).n_frames == 2


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
    assert text.count(f"Replay (1 frame, one per activation)\n\nPicture: {pictures / REPLAY_FILE}") == 2
    assert "The battle's story: 1 turn played, 1 activation." in text
    assert Image.open(pictures / REPLAY_FILE).n_frames == 1


async def test_a_window_closed_by_its_timer_that_ends_the_game_posts_the_game_over_card(
    tmp_path, monkeypatch
):
    """The last turn's last token spent on a move, the allies' last one ruled spent by the referee
    while its reaction window is open: nobody answers the window, its timer closes it, the move is
    carried out, the turn ends and with it the battle (pp. 27-28). The
    card posted to the channel is the game-over card: the picture and no buttons; the story and
    its replay follow it."""
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
    await bot.stories.close()
    (post, story) = [e for e in discord.sent[before:] if e["route"] == "POST /channels/{channel_id}/messages"]
    body = callback_payload(post)
    assert body["flags"] & COMPONENTS_V2
    (container,) = body["components"]
    parts = container["components"]
    assert [part["type"] for part in parts] == [10, 12]  # the text and the gallery; no buttons
    assert [item["media"]["url"] for item in parts[1]["items"]] == ["attachment://battlefield.png"]
    text = parts[0]["content"]
    assert text.startswith("The reaction window closed.") and "Game over" in text
    (picture,) = files_of(post)
    assert picture.startswith(b"\x89PNG")
    assert "1 activation" in callback_payload(story)["components"][0]["components"][0]["content"]
    (gif,) = files_of(story)
    assert Image.open(io.BytesIO(gif)).n_frames == 1
    await close_bot(bot)


async def test_the_console_table_stands_when_the_replay_runs_out_of_memory(tmp_path, monkeypatch):
    def out_of_memory(log):
        raise MemoryError

    monkeypatch.setattr("bot.services.replay_service.live_history", out_of_memory)
    url = f"sqlite+aiosqlite:///{tmp_path / 'console.db'}"
    lines = "/start\n/initiative first\n/act gruppe-3 move:50,39\n/noreact\n/concede\n/status\n"
    out = io.StringIO()
    await play_console(io.StringIO(lines), out, url, dice=lambda: SeededDice(1), pictures=tmp_path)
    text = out.getvalue()
    assert "Game over: the Allies win (the Axis conceded)" in text
    assert "The battle's story could not be made (/game replay tries again)." in text
    assert text.count("Result: the Allies win (the Axis conceded)") == 2  # /status after it answers
    assert not (tmp_path / REPLAY_FILE).exists()


def test_a_long_game_is_replayed_in_at_most_its_frames_several_activations_to_each(monkeypatch):
    """Past MOST_FRAMES activations, each frame shows several: the GIF still holds the whole
    battle, to its last activation, in as many frames as the cap (here 4)."""
    monkeypatch.setattr(animation, "MOST_FRAMES", 4)
    start = quick_battle()
    _, history = play_random_game(start, 3)
    made, gif = replayed(start, history)
    moments = moments_of(start, history)
    assert made.activations == len(moments) > 50
    assert made.frames == 4 == Image.open(io.BytesIO(gif)).n_frames
    assert f"in 4 frames ({len(moments)} activations, several to a frame, turns 1 to" in made.description
    shown = list(animation.frame_moments(moments, len(moments)))
    assert shown[-1].state == moments[-1].state and shown[0].before == moments[0].before
    assert sum(len(m.events) for m in shown) == sum(len(m.events) for m in moments)
    last = next(iter(replay_frames(shown[-1:], header_lines(moments[-1].state))))
    mapped = last.image.quantize(palette=last.palette, dither=Image.Dither.NONE).convert("RGB")
    assert frames_of(gif)[-1].crop((0, 0, *mapped.size)).tobytes() == mapped.tobytes()


def test_frames_of_any_size_are_written_as_drawn_padded_with_the_margin():
    """Frames that grow and shrink: each frame of the GIF shows its picture at the top left, the
    rest of the largest frame's size in the margin's colour; a frame like the one before adds
    to its time; the first frame's time, the later ones' and the last's are as set."""
    palette = palette_for(Image.new("RGB", (8, 8), (90, 140, 60)))
    sizes = [(40, 30), (60, 30), (60, 30), (50, 50), (40, 30)]
    drawn = []
    for n, size in enumerate(sizes):
        image = Image.new("RGB", size, (90, 140, 60))
        ImageDraw.Draw(image).rectangle((n * 3, 2, n * 3 + 9, 12), fill=pal.INK)
        drawn.append(Canvas(image, palette))
    drawn[2] = Canvas(drawn[1].image.copy(), palette)  # the same as the one before
    movie = io.BytesIO()
    with animation.GifWriter(movie) as gif:
        for canvas in drawn:
            gif.add(canvas)
        gif.finish()
    frames = frames_of(movie.getvalue())
    assert len(frames) == gif.frames == 4
    for canvas, frame in zip([drawn[0], drawn[1], drawn[3], drawn[4]], frames, strict=True):
        whole = Image.new("RGB", (60, 50), pal.MARGIN_BG)
        whole.paste(canvas.image.quantize(palette=palette, dither=Image.Dither.NONE).convert("RGB"))
        assert frame.tobytes() == whole.tobytes()
    movie.seek(0)
    shown = Image.open(movie)
    times = []
    for n in range(shown.n_frames):
        shown.seek(n)
        times.append(shown.info["duration"])
    step, last = animation.FRAME_MS, animation.LAST_FRAME_MS
    assert times == [step, 2 * step, step, last]
