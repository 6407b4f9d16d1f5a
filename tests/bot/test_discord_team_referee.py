"""A two-against-two team game with a referee role, through the real discord.py command tree
(2015 rulebook p. 25): the COs hand out bonus tokens and answer reserve requests, refusals come
privately and change nothing, a correction to a hidden unit is told without naming it, an undo
rebuilds the game, the referee sees the true picture, and a server admin appoints referees."""

import random

import pytest

from engine.deployment.placing import whose_turn
from engine.dice import ScriptedDice, SeededDice, d6
from engine.state import Phase
from engine.view import REFEREE
from engine.wording import counted
from renderer import picture
from tests.bot.discord_harness import (
    ANN,
    EVE,
    MANAGE_GUILD,
    OTTO,
    Pick,
    attachments,
    buttons,
    channel_posts,
    close_bot,
    messages,
    open_bot,
    reply,
    role,
)
from tests.bot.test_discord_forces import make_force

BOB, DAN, RUTH, BOSS = "305", "306", "307", "308"  # an allied player, an axis player, a referee, an admin
UMPIRES = "900"  # the server role whose holders referee the game
CHANNEL = "7"
FORCES = {  # player: (side, nation, units); the first of a side to join is its CO
    ANN: ("allies", "us", ("Infantry Detachment", "Infantry Detachment")),
    BOB: ("allies", "us", ("Sherman 75mm", "Infantry Detachment")),
    OTTO: ("axis", "german", ("Infantry Detachment", "Infantry Detachment")),
    DAN: ("axis", "german", ("Panzer IV G (late) to J", "Infantry Detachment")),
}
POOL = {"allies": "allies-infantry-detachment-2", "axis": "axis-infantry-detachment-2"}  # the COs' reserves
SHERMAN = "allies-sherman-75mm-1"  # Bob's
# to one who plays no side
WATCH = "You are not playing in this game, and no side can be joined now: watch with /game status"


@pytest.fixture
async def bot_and_discord(tmp_path, monkeypatch):
    bot, discord = await open_bot(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", monkeypatch)
    discord.roles[RUTH] = [UMPIRES]
    discord.permissions[BOSS] = MANAGE_GUILD
    yield bot, discord
    await close_bot(bot)


async def slash(discord, command, user, **options):
    return reply(await discord.slash(command, user=user, channel=CHANNEL, **options))


async def set_up(bot, discord) -> None:
    """Forces, /game new with teams and the referee role, the four joins, and each side setting
    up in turn with its CO's second detachment held back as the reserve pool."""
    for player, (_, nation, units) in FORCES.items():
        await make_force(discord, player, nation, "F", *units)
    text, _ = await slash(discord, "game new", ANN, scenario="meeting", teams=2, referee_role=role(UMPIRES))
    assert "A team game: 2 players a side" in text and f"Refereed by holders of <@&{UMPIRES}>" in text
    for player, (side, _, _) in FORCES.items():
        await slash(discord, "game join", player, side=side, force="F")
    rng = random.Random(4)
    while (state := await bot.games.game(CHANNEL)).deployment and (side := whose_turn(state.deployment)):
        waiting = [u for u in state.deployment.sides[side].waiting if u != POOL[side]]
        owner = waiting and state.units[waiting[0]].player
        if not waiting:
            await slash(discord, "deploy", state.sides[side].team.co, done=True)
            continue
        for _ in range(300):
            at = f"{rng.uniform(1, 71):.1f},{rng.uniform(1, 47):.1f}"
            text, _ = await slash(discord, "deploy", owner, unit=waiting[0], at=at)
            if "Allies set up" in text or "Axis set up" in text:
                break
    bot.games.dice = lambda: ScriptedDice([d6(6), d6(1)])  # allies win the initiative 6-1
    await slash(discord, "game start", ANN)
    bot.games.dice = lambda: SeededDice(2)


async def refused(bot, discord, command, user, why, **options) -> None:
    """Refused privately, saying why, and the stored game is byte-identical."""
    before = await bot.games.store.load(CHANNEL)
    text, private = await slash(discord, command, user, **options)
    assert private and why in text, text
    after = await bot.games.store.load(CHANNEL)
    assert after.version == before.version
    assert after.state.model_dump_json() == before.state.model_dump_json()


async def test_without_threads_each_sides_private_news_still_reaches_it(bot_and_discord):
    """The bot may not open threads here: when Ann starts the turn, the axis CO's bonus tokens
    (news for the axis alone) reach both axis players by direct message, her teammate Bob reads
    the allies' own news the same way, and Ann hers in a reply only she sees; the channel reads
    none of it."""
    bot, discord = bot_and_discord
    discord.app_permissions = 0
    await set_up(bot, discord)
    direct = dict(discord.direct_messages(discord.sent))
    axis_news = f"<@{OTTO}>, the Axis' commanding officer, has 4 bonus tokens to hand out (/team give)"
    assert sorted(direct) == sorted([BOB, OTTO, DAN])  # not Ann, who started the turn
    assert direct[OTTO] == direct[DAN] and direct[OTTO].startswith(f"In <#{CHANNEL}>, for the Axis only:\n")
    assert axis_news in direct[OTTO] and direct[BOB].startswith(f"In <#{CHANNEL}>, for the Allies only:\n")
    assert "axis" not in direct[BOB]
    posts = [t for where, t, _ in channel_posts(discord.sent) if where not in discord.dm_channels]
    assert [t for t in posts if "bonus tokens to hand out" in t] == []


async def test_the_cos_hand_out_bonus_tokens_and_answer_reserve_requests(bot_and_discord):
    bot, discord = bot_and_discord
    await set_up(bot, discord)
    assert await discord.autocomplete("team give", "player", "", user=ANN, channel=CHANNEL) == [ANN, BOB]
    assert await discord.autocomplete("team give", "player", "", user=EVE, channel=CHANNEL) == []
    await refused(bot, discord, "team give", BOB, "Only the Allies' commanding officer", player=BOB, tokens=4)
    await refused(
        bot, discord, "team give", ANN, f"<@{DAN}> is not one of the Allies' players", player=DAN, tokens=1
    )
    drawn = (await bot.games.game(CHANNEL)).sides["allies"].team.tokens[BOB]
    text, private = await slash(discord, "team give", ANN, player=BOB, tokens=3)
    assert not private and f"<@{ANN}> hands out bonus tokens: 3 to <@{BOB}> (1 left)" in text
    assert (await bot.games.game(CHANNEL)).sides["allies"].team.tokens[BOB] == drawn + 3
    await refused(
        bot, discord, "team give", ANN, "has 1 bonus token to hand out, not 2", player=ANN, tokens=2
    )

    # requests: offered from the side's own pool, told to the side alone
    assert await discord.autocomplete("team request", "unit", "", user=BOB, channel=CHANNEL) == [
        POOL["allies"]
    ]
    assert await discord.autocomplete("team request", "unit", "", user=DAN, channel=CHANNEL) == [POOL["axis"]]
    sent = await discord.slash("team request", user=BOB, channel=CHANNEL, unit=POOL["allies"])
    # both COs have an Infantry Detachment 2, so each says whose it is
    ann_2, otto_2 = f"Infantry Detachment 2 (user{ANN})", f"Infantry Detachment 2 (user{OTTO})"
    assert reply(sent) == (f"<@{BOB}> asks the commanding officer for {ann_2}", True)
    assert len(messages(sent)) == 1  # nothing to the channel
    await slash(discord, "team request", DAN, unit="Infantry Detachment 2")
    shown, private = await slash(discord, "team show", ANN)
    assert private and f"<@{BOB}> asks for {ann_2} (/team grant or /team refuse)" in shown
    assert f"<@{DAN}> asks for" not in shown  # the other side's requests stay with it
    public, private = await slash(discord, "team show", EVE)
    assert not private and "asks for" not in public and f"<@{ANN}> (CO)" in public
    assert await discord.autocomplete("team grant", "unit", "", user=ANN, channel=CHANNEL) == [POOL["allies"]]
    assert await discord.autocomplete("team grant", "unit", "", user=EVE, channel=CHANNEL) == []

    await refused(bot, discord, "team grant", DAN, "Only the Axis' commanding officer", unit=POOL["axis"])
    await refused(bot, discord, "team grant", EVE, "You are not playing in this game", unit=POOL["axis"])
    text, private = await slash(discord, "team grant", ANN, unit=POOL["allies"])
    assert private and f"<@{ANN}> sends {ann_2} to <@{BOB}>" in text
    text, private = await slash(discord, "team refuse", OTTO, unit=POOL["axis"])
    assert private and text == f"<@{OTTO}> refuses <@{DAN}> {otto_2}"
    state = await bot.games.game(CHANNEL)
    assert state.units[POOL["allies"]].player == BOB and state.units[POOL["allies"]].reserve_available
    assert state.units[POOL["axis"]].player == OTTO and not state.sides["axis"].team.requests


async def test_a_correction_to_a_hidden_unit_is_told_without_naming_it_and_undone(bot_and_discord):
    bot, discord = bot_and_discord
    await set_up(bot, discord)
    await refused(bot, discord, "ref hide", EVE, "Only the game's referees", unit=SHERMAN, reason="x")
    await refused(bot, discord, "ref map", BOB, "Only the game's referees")
    assert await discord.autocomplete("ref hide", "unit", "sherman", user=BOB, channel=CHANNEL) == []
    state = await bot.games.game(CHANNEL)
    every = await discord.autocomplete("ref destroy", "unit", "", user=RUTH, channel=CHANNEL)
    assert sorted(every) == sorted(state.units)

    # refused before the role's holder has a seat: no seat is taken either
    await refused(bot, discord, "ref reveal", RUTH, "Sherman 75mm 1 is not hidden", unit=SHERMAN, reason="x")
    await refused(bot, discord, "ref undo", RUTH, "actions to take back; choose 1 to", count=99, reason="x")

    sent = await discord.slash("ref hide", user=RUTH, channel=CHANNEL, unit=SHERMAN, reason="in the woods")
    truth, private = reply(sent)
    assert private and f"<@{RUTH}> is a referee of this game (by <@{RUTH}>)" in truth
    assert "Referee: Sherman 75mm 1 is hidden again, as Marker 1 (in the woods)" in truth
    private_truth, told = messages(sent)  # then the channel's version
    assert private_truth == truth
    assert "Referee: a unit of the Allies is hidden again, as Marker 1 (in the woods)" in told
    assert "Sherman" not in told
    assert RUTH in (await bot.games.game(CHANNEL)).referees
    hidden = await bot.games.game(CHANNEL)

    sent = await discord.slash(
        "ref markers", user=RUTH, channel=CHANNEL, unit=SHERMAN, count=2, reason="a hit"
    )
    assert "Referee sets Sherman 75mm 1's morale markers to 2 (a hit)" in reply(sent)[0]
    assert "Referee sets Marker 1's morale markers to 2 (a hit)" in messages(sent)[1]
    assert all("Sherman" not in text for text in messages(sent)[1:])
    text, private = await slash(discord, "game log", DAN)
    assert private and "Marker 1's morale markers to 2" in text and "Sherman 75mm 1's" not in text
    text, private = await slash(discord, "ref log", RUTH)
    assert private and "Sherman 75mm 1 is hidden again" in text

    await refused(bot, discord, "ref undo", BOB, "Only the game's referees", count=1, reason="no")
    text, private = await slash(discord, "ref undo", RUTH, count=1, reason="the hit was a miss")
    assert not private and "The referee takes back the last 1 action: the hit was a miss" in text
    undone = await bot.games.game(CHANNEL)
    assert undone.units == hidden.units and undone.units[SHERMAN].morale_markers == 0

    text, _ = await slash(discord, "ref ruling", RUTH, text="the stream is fordable")
    assert "Referee's ruling: the stream is fordable" in text


async def clicked(bot, discord, button, user) -> tuple[str, bool]:
    """A click's answer: its text and whether it is private. A private answer (a refusal, or the
    first step of a reaction built by taps) leaves the stored game byte-identical."""
    before = await bot.games.store.load(CHANNEL)
    sent = await discord.click(button, user=user, channel=CHANNEL)
    text, private = reply(sent)
    after = await bot.games.store.load(CHANNEL)
    if private:
        assert after.version == before.version
        assert after.state.model_dump_json() == before.state.model_dump_json()
    return text, private


async def test_the_reaction_buttons_as_each_role(bot_and_discord):
    """React and No reaction as every role: only the reacting side's players are shown the units
    that may react; they and a referee (passing for an absent side, p. 25) may let the action go
    ahead."""
    bot, discord = bot_and_discord
    await set_up(bot, discord)
    await slash(discord, "initiative", ANN, choice="start")
    at = (await bot.games.game(CHANNEL)).units[SHERMAN].position
    sent = await discord.slash("act", user=BOB, channel=CHANNEL, unit=SHERMAN, move=f"{at.x},{at.y - 1}")
    shown = buttons(sent)
    assert set(shown) == {"React", "No reaction"}

    react = {user: await clicked(bot, discord, shown["React"], user) for user in (ANN, BOB, EVE, BOSS, RUTH)}
    assert react == {
        ANN: ("Only the Axis may react now", True),
        BOB: ("Only the Axis may react now", True),
        EVE: (WATCH, True),
        BOSS: (WATCH, True),
        RUTH: ("Only the Axis' players may act for the Axis", True),
    }
    step = "**The Axis**: choose the unit to react with (the score its test needs shown)."
    assert await clicked(bot, discord, shown["React"], OTTO) == (step, True)
    assert await clicked(bot, discord, shown["React"], DAN) == (step, True)
    declined = {
        user: await clicked(bot, discord, shown["No reaction"], user) for user in (ANN, BOB, EVE, BOSS)
    }
    assert declined == {user: react[user] for user in (ANN, BOB, EVE, BOSS)}  # the same refusals
    text, private = await clicked(bot, discord, shown["No reaction"], RUTH)
    assert not private and text.startswith(f"<@{RUTH}> (referee) answers for axis:\nThe Axis do not react")
    text, private = await clicked(bot, discord, shown["No reaction"], DAN)
    assert (text, private) == ("No reaction window is open", True)

    # the referee passes the initiative for the absent allies, as /pass
    text, private = await slash(discord, "pass", RUTH)
    assert not private and text.startswith(
        f"<@{RUTH}> (referee) answers for allies:\nThe Axis take the initiative"
    )
    assert (await bot.games.game(CHANNEL)).active_side == "axis"
    await refused(bot, discord, "pass", EVE, "You are not playing in this game")
    await refused(
        bot,
        discord,
        "act",
        RUTH,
        "Only the Axis' players may act for the Axis",
        unit="axis-infantry-detachment-1",
        move="1,1",
    )


async def test_a_referee_plays_no_side_at_a_table_nobody_has_joined(bot_and_discord):
    bot, discord = bot_and_discord
    await slash(discord, "game new", ANN, referee_role=role(UMPIRES))
    await slash(discord, "game start", RUTH)
    await refused(bot, discord, "initiative", RUTH, "You are not playing in this game", choice="start")
    await refused(bot, discord, "pass", RUTH, "You are not playing in this game")


async def test_the_referee_sees_the_true_picture_privately(bot_and_discord):
    bot, discord = bot_and_discord
    await set_up(bot, discord)
    await slash(discord, "ref hide", RUTH, unit=SHERMAN, reason="in the woods")
    sent = await discord.slash("ref map", user=RUTH, channel=CHANNEL)
    assert reply(sent) == ("Turn 1, the referees' view", True) and attachments(sent)
    sent = await discord.slash("game map", user=RUTH, channel=CHANNEL)
    assert reply(sent) == (f"Turn 1, {REFEREE} view", True)
    assert (await bot.games.game(CHANNEL)).phase is not Phase.SETUP


async def test_a_server_admin_appoints_and_dismisses_referees(bot_and_discord):
    bot, discord = bot_and_discord
    await set_up(bot, discord)
    await refused(bot, discord, "ref appoint", EVE, "referees or a server admin", referee=Pick(EVE))
    await refused(bot, discord, "ref appoint", BOSS, f"<@{DAN}> plays axis", referee=Pick(DAN))
    text, private = await slash(discord, "ref appoint", BOSS, referee=Pick(EVE))
    assert not private and f"<@{EVE}> is a referee of this game (by {BOSS})" in text
    text, _ = await slash(discord, "ref ruling", EVE, text="night falls early")
    assert "Referee's ruling: night falls early" in text
    text, _ = await slash(discord, "ref dismiss", BOSS, referee=Pick(EVE))
    assert f"{EVE} is no longer a referee of this game (by {BOSS})" in text
    await refused(bot, discord, "ref ruling", EVE, "Only the game's referees", text="again")


async def test_a_team_game_is_a_scenario_game(bot_and_discord):
    _, discord = bot_and_discord
    text, private = await slash(discord, "game new", ANN, teams=2)
    assert private and text == "A team game is a scenario game: choose a scenario as well as teams"


async def test_a_seat_taken_before_a_command_that_failed_is_told_as_the_seat_alone(
    bot_and_discord, monkeypatch
):
    """The referee role's holder takes a seat, then their ruling fails to be stored: they read
    that the ruling was not stored (and that the seat was), never "do not send it again"."""
    bot, discord = bot_and_discord
    await set_up(bot, discord)
    appending, writes = bot.games.store.appending, []

    def disk_full(connection):
        raise OSError("disk full")

    def second_write_fails(*args, **kwargs):
        writes.append(args[2].kind)
        return disk_full if len(writes) == 2 else appending(*args, **kwargs)

    monkeypatch.setattr(bot.games.store, "appending", second_write_fails)
    text, private = await slash(discord, "ref ruling", RUTH, text="the stream is fordable")
    assert writes == ["appoint_referee", "referee_ruling"]
    assert private and "your command was not stored" in text and "Do not send it again" not in text
    assert "You took your referee's seat (action" in text


async def test_an_undo_refused_for_want_of_a_reason_takes_no_seat(bot_and_discord):
    bot, discord = bot_and_discord
    await set_up(bot, discord)
    before = await bot.games.store.load(CHANNEL)
    text, private = await slash(discord, "ref undo", RUTH, count=1, reason="   ")
    assert private and "Give a reason" in text
    after = await bot.games.store.load(CHANNEL)
    assert (after.version, after.state.referees) == (before.version, before.state.referees)


async def test_an_undo_sent_twice_takes_back_once(bot_and_discord):
    bot, discord = bot_and_discord
    await set_up(bot, discord)
    await slash(discord, "ref ruling", RUTH, text="the stream is fordable")
    await slash(discord, "ref ruling", RUTH, text="the bridge holds one tank")
    await slash(discord, "ref undo", RUTH, count=1, reason="said twice")
    version = (await bot.games.store.load(CHANNEL)).version
    text, private = reply(await discord.resend())
    assert private and text.startswith(f"Already done (action {version})")
    assert (await bot.games.store.load(CHANNEL)).version == version


async def test_the_picture_names_the_players_as_they_go_by_on_the_server(bot_and_discord):
    """Each player's server name is taken as they join, bounded and cleaned (a nickname full of
    Markdown and mentions, or too long for the picture), kept with the game, and drawn over the
    units they hold; a player who never set one is named by their user name."""
    bot, discord = bot_and_discord
    discord.nicks[ANN] = "**Ann** <@&900> @everyone"
    discord.nicks[BOB] = "Bob the Builder of Bridges Across the Rhine"
    await set_up(bot, discord)
    state = await bot.games.game(CHANNEL)
    assert state.player_names == {
        ANN: "Ann everyone",
        BOB: "Bob the Builder of…",
        OTTO: f"user{OTTO}",
        DAN: f"user{DAN}",
    }
    texts = [text for _, text in picture(state, REFEREE).texts]
    tokens = state.sides["allies"].team.tokens
    ann = texts.index("Ann everyone")  # a name, the CO's mark and the tokens take two lines
    assert texts[ann + 1] == f"CO, {counted(tokens[ANN], 'token')}"
    bob = next(at for at, text in enumerate(texts) if text.startswith("Bob the Builder"))
    assert texts[bob] != "Bob the Builder of…" and texts[bob + 1] == counted(tokens[BOB], "token")
    assert f"user{DAN}: {counted(state.sides['axis'].team.tokens[DAN], 'token')}" in texts
    assert not any(ANN in text or "@" in text or "*" in text for text in texts)  # no raw id, no marks
