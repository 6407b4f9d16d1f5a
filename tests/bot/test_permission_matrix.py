"""Every command, button and form that changes a channel's game, sent by every role, in every
phase of a refereed team game (p. 25), through the real discord.py command tree; and the same for
a Red Barricades campaign's sealed orders.

The matrix is data: a row per command, saying who may send it (``may``, the users by their seat)
and in which phases it changes the game as written here (``when``). A cell is expected to change
the store exactly when both say so. Each phase is built once and its database file copied; every
cell runs on that copy and the whole database (every row of every table, of every channel) is
compared before and after. A cell that may not change it is refused privately and leaves it
byte-identical; one that may must change it (so the table cannot pass by refusing everything),
after which the copy is put back for the next cell.
"""

from __future__ import annotations

import asyncio
import itertools
import shutil
import sqlite3
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot.discord_adapter import common
from bot.discord_adapter.answers import STUB
from engine.deployment import whose_turn
from engine.dice import ScriptedDice, SeededDice, d6
from engine.game_state import GameState
from engine.state import Phase
from tests.bot.discord_harness import (
    ANN,
    EVE,
    MANAGE_GUILD,
    OTTO,
    Harness,
    Pick,
    buttons,
    callback_payload,
    close_bot,
    form,
    open_bot,
    role,
    text_of,
)
from tests.bot.test_discord_forces import make_force
from tests.bot.test_discord_team_referee import BOB, BOSS, DAN, FORCES, POOL, RUTH, SHERMAN, UMPIRES

REF, PAT = "309", "310"  # the game's named referee; a player of another channel's game
CHANNEL, ELSEWHERE = "7", "8"
USERS = {  # each role, by the seat its user holds
    "allied CO": ANN,
    "allied player": BOB,  # a plain team member
    "axis CO": OTTO,
    "axis player holding the referee role": DAN,  # given it after joining: no referee (p. 25)
    "spectator": EVE,
    "referee": REF,
    "referee role holder": RUTH,  # takes a referee's seat with their first referee's command
    "server admin": BOSS,  # Manage Server
    "player of another channel": PAT,
}
ALLIES, AXIS = {ANN, BOB}, {OTTO, DAN}
REFEREES = {REF, RUTH}
PHASES = ("set-up", "ready", "initiative", "turn start", "running", "window open", "game over")
DECK = "\n".join(f"Card {n} | {n % 3} | any time | does thing {n}" for n in range(1, 21))  # 4 left to draw
EVERY_PHASE_BUT_OVER = frozenset(PHASES) - {"game over"}
SET_UP_DONE = EVERY_PHASE_BUT_OVER - {"set-up"}
PLAYING = {"turn start", "running"}  # the allies hold the initiative, no window open


@dataclass(frozen=True)
class Cell:
    """One way of changing the game: a slash command with its options (computed from the
    phase's game), a button or a form; who may send it, and in which phases it changes the game."""

    name: str
    may: frozenset[str]
    when: frozenset[str]
    options: Callable[[GameState], dict[str, Any]]
    kind: str  # "slash", "button" (the name is its label) or "form" (the setting's form)
    but: tuple[tuple[str, frozenset[str]], ...]  # phases where fewer may: (phase, who)
    answer: str  # what it does for those who may: "changed" the store, or opened a "form"
    command: str  # the slash command, when the name is a label

    def may_in(self, phase: str) -> frozenset[str]:
        """Who changes the game with it in ``phase``."""
        if phase not in self.when:
            return frozenset()
        return dict(self.but).get(phase, self.may)


def cell(
    name, may, when=EVERY_PHASE_BUT_OVER, options=None, kind="slash", but=(), answer="changed", command=""
) -> Cell:
    """A row of the matrix; ``when`` a phase or several, ``options`` computed from the phase's
    game (or ``fixed``)."""
    when = frozenset([when] if isinstance(when, str) else when)
    but = tuple((phase, frozenset(who)) for phase, who in but)
    return Cell(name, frozenset(may), when, options or (lambda state: {}), kind, but, answer, command or name)


def fixed(**options) -> Callable[[GameState], dict[str, Any]]:
    return lambda state: options


def next_to_set_up(state: GameState) -> dict[str, Any]:
    """The unit whose turn it is to set up, somewhere in its side's zone (once all are set up,
    Bob's Sherman)."""
    side = state.deployment and whose_turn(state.deployment)
    if side is None:
        return {"unit": SHERMAN, "at": "36,2"}
    unit = state.deployment.sides[side].waiting[0]
    return {"unit": unit, "at": "36,2" if side == "allies" else "36,46"}


def allied_card(state: GameState) -> dict[str, Any]:
    """The allies' first card, once dealt."""
    return {"action": "exchange", "card": state.cards.hands["allies"][0].name if state.cards else "Ambush"}


def nudge_sherman(state: GameState) -> dict[str, Any]:
    at = state.units[SHERMAN].position
    return {"unit": SHERMAN, "move": f"{at.x},{at.y + 1}"}


NOT_HERE = ()  # no phase of this game where the command, as written, applies
A_PLAYER = fixed(referee=Pick(BOB))  # a player referees no game of theirs (p. 25)
TO_THE_REFEREE = fixed(player=Pick(BOB), to=Pick(REF), reason="r")  # a referee plays no side (p. 25)
EVERYONE = set(USERS.values())
MATRIX = (  # who may send it (the permission table), and in which phases it changes the game
    cell("game new", EVERYONE, "game over"),  # a finished game is replaced by anyone
    cell("game join", EVERYONE - REFEREES, NOT_HERE, fixed(side="allies")),  # seats go at set-up
    cell("game start", ALLIES | AXIS | REFEREES, "ready"),
    cell("game concede", ALLIES | AXIS),
    cell("initiative", ALLIES, "initiative", fixed(choice="start")),  # the allies won it
    cell("act", {BOB}, PLAYING, nudge_sherman),  # his own unit (p. 25)
    cell("cmt", ALLIES, PLAYING),
    cell("fallback", ALLIES, NOT_HERE, fixed(unit=SHERMAN, to="1,1")),  # no morale to fall back on
    cell("pass", ALLIES | REFEREES, "running"),  # once a token is spent; a referee for the absent
    cell("react", AXIS, "window open", fixed(cmt=True)),
    cell("noreact", AXIS | REFEREES, "window open"),
    cell("choose", ALLIES, NOT_HERE, fixed(unit=SHERMAN)),  # nothing to choose
    cell("reserves", ALLIES, NOT_HERE, fixed(units="Infantry Detachment 2")),  # none called for
    cell("deploy", {ANN}, "set-up", next_to_set_up),  # her unit sets up next
    cell("React", AXIS, "window open", kind="button", answer="form"),
    cell("No reaction", AXIS | REFEREES, "window open", kind="button"),
    cell("React form", AXIS, "window open", kind="form"),
    cell("team give", {ANN}, {"initiative", "turn start"}, fixed(player=BOB, tokens=1)),  # CO's bonus (p. 25)
    cell("team request", ALLIES, options=fixed(unit=POOL["allies"])),
    cell("team grant", {OTTO}, SET_UP_DONE, fixed(unit=POOL["axis"])),  # Dan's request
    cell("team refuse", {OTTO}, SET_UP_DONE, fixed(unit=POOL["axis"])),
    cell("cards deal", ALLIES | AXIS, "set-up", fixed(deck="Generic")),  # dealt by turn start
    cell("cards use", ALLIES, SET_UP_DONE, allied_card),  # dealt during set-up
    cell("games delay", ALLIES | AXIS | REFEREES, options=fixed(minutes=5)),
    cell("ref move", REFEREES, options=fixed(unit=SHERMAN, at="30,20", reason="r")),
    cell("ref markers", REFEREES, options=fixed(unit=SHERMAN, count=1, reason="r")),
    cell("ref tokens", REFEREES, options=fixed(side="allies", player=Pick(BOB), count=1, reason="r")),
    cell("ref turn", REFEREES, options=fixed(number=3, reason="r")),
    cell("ref initiative", REFEREES, PLAYING, fixed(side="axis", reason="r")),
    cell("ref reveal", REFEREES, NOT_HERE, fixed(unit=SHERMAN, reason="r")),  # nothing hidden
    cell("ref hide", REFEREES, options=fixed(unit=SHERMAN, reason="r")),
    cell("ref destroy", REFEREES, options=fixed(unit=SHERMAN, reason="r")),
    cell("ref restore", REFEREES, NOT_HERE, fixed(unit=SHERMAN, reason="r")),  # nothing destroyed
    cell("ref give_units", REFEREES, options=fixed(player=Pick(BOB), to=Pick(EVE), reason="r")),
    cell("ref give_units to:referee", REFEREES, NOT_HERE, TO_THE_REFEREE, command="ref give_units"),
    cell("ref ruling", REFEREES, options=fixed(text="the ford is deep")),
    # a finished game can be taken back, but takes no new referee's seat
    cell("ref undo", REFEREES, PHASES, fixed(count=1, reason="r"), but=[("game over", {REF})]),
    cell("ref appoint", REFEREES | {BOSS}, options=fixed(referee=Pick(EVE))),
    cell("ref appoint referee:player", REFEREES | {BOSS}, NOT_HERE, A_PLAYER, command="ref appoint"),
    cell("ref dismiss", REFEREES | {BOSS}, options=fixed(referee=Pick(REF))),
    cell("ref clock pause", REFEREES),
    cell("ref clock resume", REFEREES, NOT_HERE),  # the clock runs
    cell("ref clock extend", REFEREES, "window open", fixed(minutes=5)),
    cell("ref clock close", REFEREES, "window open"),
    cell("ref clock deadline", REFEREES, PLAYING, fixed(side="allies", hours=2)),
    cell("ref prep objective", REFEREES, options=fixed(id="ford", at="30,20", side="allies")),
    cell("ref prep special", REFEREES, options=fixed(to="allies", text="the ford is deep")),
    cell("ref prep brief", REFEREES, options=fixed(side="axis", text="tanks to the north")),
    cell("ref prep force", REFEREES, NOT_HERE, fixed(side="allies", points=400)),  # before forces join
    cell("ref prep zone", REFEREES, "set-up", fixed(side="allies", x1=0, y1=0, x2=20, y2=10)),
)


@dataclass
class Snapshot:
    """A phase's database file, and the window's buttons and form once one is open."""

    path: Path
    buttons: dict[str, dict[str, Any]] = field(default_factory=dict)
    form: dict[str, Any] | None = None


def keep(path: Path, to: Path) -> None:
    """Copy a database into another, page by page, while the bot has either open."""
    with sqlite3.connect(path) as source, sqlite3.connect(to) as copy:
        source.backup(copy)


def dump(path: Path) -> dict[str, list[str]]:
    """Every row of every table."""
    with sqlite3.connect(path) as db:
        tables = [name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {table: sorted(map(repr, db.execute(f'SELECT * FROM "{table}"'))) for table in tables}


def unpictured(state, viewer, last_events=()) -> bytes:
    """Pictures are not what this test is about: a blank one is drawn at once."""
    return b"\x89PNG\r\n\x1a\n"


async def open_table(path: Path, monkeypatch) -> tuple[Any, Harness]:
    monkeypatch.setattr(common, "render", unpictured)
    bot, discord = await open_bot(f"sqlite+aiosqlite:///{path}", monkeypatch)
    discord.roles.update({RUTH: [UMPIRES], DAN: [UMPIRES]})
    discord.permissions[BOSS] = MANAGE_GUILD
    bot.games.dice = lambda: SeededDice(2)
    return bot, discord


async def build(directory: Path, monkeypatch) -> dict[str, Snapshot]:
    """The refereed team game of tests/bot/test_discord_team_referee.py, with a named referee and
    a player of another channel's game, kept at each phase."""
    live = directory / "live.db"
    bot, discord = await open_table(live, monkeypatch)
    kept: dict[str, Snapshot] = {}

    def snapshot(phase: str) -> Snapshot:
        kept[phase] = Snapshot(directory / f"{phase}.db")
        keep(live, kept[phase].path)
        return kept[phase]

    await discord.slash("game new", user=PAT, channel=ELSEWHERE)
    await discord.slash("game join", user=PAT, channel=ELSEWHERE, side="allies")
    deck = form(await discord.slash("cards deck", user=BOSS, channel="1", name="Generic"))
    await discord.submit(deck, {"One card": DECK}, user=BOSS, channel="1")
    for player, (_, nation, units) in FORCES.items():
        await make_force(discord, player, nation, "F", *units)
    await discord.slash(
        "game new",
        user=ANN,
        channel=CHANNEL,
        scenario="meeting",
        teams=2,
        referee=Pick(REF),
        referee_role=role(UMPIRES),
    )
    del discord.roles[DAN]  # a referee role's holder may not join: Dan gets it once he plays
    for player, (side, _, _) in FORCES.items():
        await discord.slash("game join", user=player, channel=CHANNEL, side=side, force="F")
    discord.roles[DAN] = [UMPIRES]
    snapshot("set-up")

    await discord.slash("cards deal", user=ANN, channel=CHANNEL, deck="Generic")
    spots = {  # inside each side's zone, 12" of its own edge (Meeting Engagement)
        "allies": [f"{x},{y}" for y in (3, 9) for x in range(6, 72, 12)],
        "axis": [f"{x},{y}" for y in (45, 39) for x in range(6, 72, 12)],
    }

    async def set_up(unit: str, owner: str, side: str) -> None:
        """The unit goes to the next of its side's spots that takes it."""
        while True:
            sent = await discord.slash("deploy", user=owner, channel=CHANNEL, unit=unit, at=spots[side].pop())
            if "sets up" in answer(sent)[0]:
                return

    while (state := await bot.games.game(CHANNEL)).deployment and (side := whose_turn(state.deployment)):
        waiting = [u for u in state.deployment.sides[side].waiting if u != POOL[side]]
        if not waiting:
            await discord.slash("deploy", user=state.sides[side].team.co, channel=CHANNEL, done=True)
            continue
        await set_up(waiting[0], state.units[waiting[0]].player, side)
    await discord.slash("team request", user=DAN, channel=CHANNEL, unit=POOL["axis"])
    snapshot("ready")
    bot.games.dice = lambda: ScriptedDice([d6(6), d6(1)])  # the allies win the initiative 6-1
    await discord.slash("game start", user=ANN, channel=CHANNEL)
    bot.games.dice = lambda: SeededDice(2)
    snapshot("initiative")
    await discord.slash("initiative", user=ANN, channel=CHANNEL, choice="start")
    snapshot("turn start")

    state = await bot.games.game(CHANNEL)
    window = buttons(await discord.slash("act", user=BOB, channel=CHANNEL, **nudge_sherman(state)))
    snapshot("window open").buttons = window
    kept["window open"].form = form(await discord.click(window["React"], user=OTTO, channel=CHANNEL))
    await discord.slash("noreact", user=OTTO, channel=CHANNEL)
    snapshot("running")

    await discord.slash("game concede", user=ANN, channel=CHANNEL)
    assert (await bot.games.game(CHANNEL)).phase is Phase.OVER
    snapshot("game over")
    await close_bot(bot)
    return kept


@pytest.fixture(scope="module")
def scratch(tmp_path_factory) -> Iterator[Path]:
    """Where the databases live: in memory-backed files where the system has them (each
    SQLite commit then costs no disk flush; the files are as real), else the test's tmp dir."""
    if not Path("/dev/shm").is_dir():
        yield tmp_path_factory.mktemp("matrix")
        return
    with tempfile.TemporaryDirectory(dir="/dev/shm", prefix="matrix-") as directory:
        yield Path(directory)


@pytest.fixture(scope="module")
def phases(scratch) -> dict[str, Snapshot]:
    with pytest.MonkeyPatch.context() as monkeypatch:
        return asyncio.run(build(scratch, monkeypatch))


def answer(sent: list[dict[str, Any]]) -> tuple[str, str]:
    """What the user was shown, and how: "form" (a form opened), "private" (only to them),
    "public" (anything the channel could read) or "nothing" (a form no bot has open is not
    answered). A first response deferred privately keeps its follow-ups private."""
    texts, how, deferred_private = [], "nothing", False
    for entry in sent:
        route = entry["route"]
        body = (
            callback_payload(entry)
            if entry.get("payload") is None and entry.get("multipart")
            else entry.get("payload") or {}
        )
        if route.endswith("/callback"):
            data = body.get("data") or {}
            if body.get("type") == 9:
                return data.get("title", ""), "form"
            private = bool(data.get("flags", 0) & 64)
            if body.get("type") == 5:
                deferred_private = private
                continue
        elif "/webhooks/" in route and route.split()[0] in ("POST", "PATCH"):
            if body.get("content") == STUB:
                continue  # a stub with nothing to read stands over the "thinking..." for a moment
            data, private = body, bool(body.get("flags", 0) & 64) or deferred_private
        elif route == "POST /channels/{channel_id}/messages":
            data, private = body, False
        else:
            continue
        texts.append(text_of(data))  # a card's text too
        how = "public" if how == "public" or not private else "private"
    return "\n".join(texts), how


@dataclass(frozen=True)
class Setting:
    """What a matrix plays in: its channel, its roles' users and its rows; its form, opened
    anew for each cell by a user who may (``opener``, by a click on ``opened_by`` or by that
    slash command), and what is typed into it."""

    channel: str
    users: dict[str, str]
    rows: tuple[Cell, ...]
    opener: str
    opened_by: str
    typed: dict[str, str]


async def send(discord: Harness, setting: Setting, extras: Snapshot, state: Any, entry: Cell, user: str):
    """Send a cell's command as ``user``. Buttons are those of ``extras``, clicked in every
    phase as a stale message's would be; a form is opened by the setting's opener (a stale one
    when it cannot be) and sent by ``user``."""
    channel = setting.channel
    if entry.kind == "button":
        return await discord.click(extras.buttons[entry.name], user=user, channel=channel)
    if entry.kind == "form":
        if setting.opened_by in extras.buttons:
            opened = await discord.click(
                extras.buttons[setting.opened_by], user=setting.opener, channel=channel
            )
        else:
            opened = await discord.slash(setting.opened_by, user=setting.opener, channel=channel)
        filled = form(opened) if answer(opened)[1] == "form" else extras.form
        assert filled is not None
        return await discord.submit(filled, setting.typed, user=user, channel=channel)
    return await discord.slash(entry.command, user=user, channel=channel, **entry.options(state))


def restore(snap: Snapshot, path: Path) -> None:
    """A fresh copy of the phase's database (through SQLite, which keeps the write-ahead log of
    a copy made before consistent)."""
    if path.exists():
        keep(snap.path, path)
    else:
        shutil.copyfile(snap.path, path)


def fingerprint(path: Path) -> list[bytes]:
    """The database file's bytes, with its write-ahead log if it keeps one."""
    return [part.read_bytes() for part in (path, path.with_name(path.name + "-wal")) if part.exists()]


def changed_tables(path: Path, pristine: dict[str, list[str]], bytes_before: list[bytes]) -> list[str]:
    """The tables whose rows differ from the phase's (byte-identical files need no reading)."""
    if fingerprint(path) == bytes_before:
        return []
    after = dump(path)
    return [
        table for table in sorted(pristine.keys() | after.keys()) if after.get(table) != pristine.get(table)
    ]


def expected(entry: Cell, user: str, phase: str) -> set[str]:
    """What a cell should do: change the store, open a form, or be refused privately (a stale
    form, which no bot has open, goes unanswered)."""
    if user in entry.may_in(phase):
        return {entry.answer}
    return {"private", "nothing"} if entry.kind == "form" else {"private"}


async def run_matrix(setting: Setting, phase: str, snap: Snapshot, extras: Snapshot, path: Path, monkeypatch):
    """Every row of ``setting`` as every user, on the phase's copy; the store is put back after
    each cell that changed it (under the running bot: no timer runs, the clock is virtual).
    Returns the cells that went otherwise than the table says."""
    restore(snap, path)
    pristine = dump(path)
    bot, discord = await open_table(path, monkeypatch)
    bytes_before = fingerprint(path)
    stored = await bot.games.store.load(setting.channel)
    state = stored and stored.state  # the game's, where options are read from it
    wrong = []
    for entry in setting.rows:
        for role_name, user in setting.users.items():
            text, how = answer(await send(discord, setting, extras, state, entry, user))
            changed = changed_tables(path, pristine, bytes_before)
            if changed:
                keep(snap.path, path)
                bytes_before = fingerprint(path)
            got = "changed" if changed else how
            if got not in expected(entry, user, phase) or "Something went wrong" in text:
                wrong.append(f"{entry.name} by the {role_name}: {got} {changed or ''}: {text[:150]!r}")
    await bot.campaigns.close()
    await close_bot(bot)
    return wrong


GAME = Setting(CHANNEL, USERS, MATRIX, opener=OTTO, opened_by="React", typed={"Reacting unit": "cmt"})


@pytest.mark.parametrize("phase", PHASES)
async def test_every_command_as_every_role(phase, phases, scratch, monkeypatch):
    """Each cell of the game's matrix in ``phase``: the store changes exactly where the table says."""
    wrong = await run_matrix(
        GAME, phase, phases[phase], phases["window open"], scratch / "game.db", monkeypatch
    )
    assert not wrong, "\n".join(wrong)


async def test_nobody_takes_over_a_side_of_a_running_quick_battle(tmp_path, monkeypatch):
    """Issue 19's takeover through Discord: a spectator, a server admin and the referee ask to
    join the allies of a started quick battle; each is refused privately and nothing is stored,
    so the spectator's "no reaction" and concession that followed are refused as well."""
    bot, discord = await open_table(tmp_path / "games.db", monkeypatch)
    await discord.slash("game new", user=ANN, channel=CHANNEL, referee=Pick(REF))
    await discord.slash("game join", user=ANN, channel=CHANNEL, side="allies")
    await discord.slash("game join", user=OTTO, channel=CHANNEL, side="axis")
    bot.games.dice = lambda: ScriptedDice([d6(2), d6(5)])  # the axis win the initiative
    await discord.slash("game start", user=OTTO, channel=CHANNEL)
    await discord.slash("initiative", user=OTTO, channel=CHANNEL, choice="start")
    bot.games.dice = lambda: SeededDice(2)
    await discord.slash("act", user=OTTO, channel=CHANNEL, unit="Gruppe 3", move="50,39")  # allies may react
    before = dump(tmp_path / "games.db")
    for user in (EVE, BOSS, REF):
        text, how = answer(await discord.slash("game join", user=user, channel=CHANNEL, side="allies"))
        assert how == "private" and ("nobody joins a side now" in text or "plays no side" in text), text
    for command in ("noreact", "game concede"):
        text, how = answer(await discord.slash(command, user=EVE, channel=CHANNEL))
        assert how == "private" and "You are not playing in this game" in text, text
    assert dump(tmp_path / "games.db") == before
    await close_bot(bot)


async def test_a_referee_never_holds_a_side(phases, tmp_path, monkeypatch):
    """The named referee and a referee role's holder may not join, before the game starts or
    while the sides set up; a player holding the referee role reads the game with their own
    side's eyes only, and the referees' powers are not theirs."""
    path = tmp_path / "game.db"
    restore(phases["set-up"], path)
    bot, discord = await open_table(path, monkeypatch)
    await discord.slash("game new", user=EVE, channel="9", referee=Pick(REF), referee_role=role(UMPIRES))
    before = dump(path)
    for user, channel in itertools.product((REF, RUTH), (CHANNEL, "9")):
        text, how = answer(await discord.slash("game join", user=user, channel=channel, side="axis"))
        assert how == "private" and "a referee sees everything and plays no side" in text, text
    text, how = answer(await discord.slash("ref map", user=DAN, channel=CHANNEL))
    assert (text, how) == ("Only the game's referees may do that", "private")
    text, how = answer(await discord.slash("game map", user=DAN, channel=CHANNEL))
    assert (text, how) == ("Turn 0, axis view", "private")
    assert dump(path) == before
    await close_bot(bot)


CAMPAIGN, OTHER_CAMPAIGN = "11", "12"
CAMPAIGN_USERS = {
    "German player": ANN,
    "Russian player": OTTO,
    "referee": REF,
    "organiser": DAN,  # who set it up: with a referee named, no more than a spectator
    "spectator": EVE,
    "server admin": BOSS,
    "player of another channel's campaign": PAT,
}
PLAYERS = {ANN, OTTO}
FOR_GERMANS = fixed(buy="none", side="german")  # a player names their own side; the referee must name one
ANOTHER = fixed(name="B", german=f"<@{EVE}>", russian=f"<@{BOB}>", german_cpp=1, russian_cpp=1)
CAMPAIGN_ROWS = (  # Red Barricades, phase 1 open: one phase, so every row applies in it or never
    cell("campaign submit", PLAYERS, "open", fixed(buy="none")),  # each their own side's orders
    cell("campaign submit side:german", {ANN, REF}, "open", FOR_GERMANS, command="campaign submit"),
    cell("Submit orders", PLAYERS, "open", kind="button", answer="form"),
    cell("Sealed orders form", PLAYERS, "open", kind="form"),
    cell("campaign correct", {REF}, "open", fixed(entry=1, to="9", reason="r")),
    cell("campaign retain", {REF}, "open", fixed(side="german", units="9 x 4-6-7")),
    cell("campaign new", EVERYONE, NOT_HERE, ANOTHER),  # one campaign a channel
)
CAMPAIGN_SETTING = Setting(
    CAMPAIGN, CAMPAIGN_USERS, CAMPAIGN_ROWS, opener=ANN, opened_by="campaign submit", typed={"RG": "none"}
)


async def test_every_campaign_order_as_every_role(scratch, monkeypatch):
    """The sealed orders of a Red Barricades campaign: the slash command, the phase's button and
    the form, and the referee's ledger, by every role."""
    live = scratch / "campaign-live.db"
    bot, discord = await open_table(live, monkeypatch)
    for organiser, channel, german, russian, referee in (
        (PAT, OTHER_CAMPAIGN, PAT, BOB, {}),
        (DAN, CAMPAIGN, ANN, OTTO, {"referee": f"<@{REF}>"}),
    ):
        sent = await discord.slash(
            "campaign new",
            user=organiser,
            channel=channel,
            name=f"Barrikady {channel}",
            german=f"<@{german}>",
            russian=f"<@{russian}>",
            german_cpp=10,
            russian_cpp=12,
            **referee,
        )
    opened = Snapshot(scratch / "campaign-open.db", buttons=buttons(sent))
    opened.form = form(await discord.slash("campaign submit", user=ANN, channel=CAMPAIGN))
    keep(live, opened.path)
    await bot.campaigns.close()
    await close_bot(bot)
    wrong = await run_matrix(CAMPAIGN_SETTING, "open", opened, opened, scratch / "campaign.db", monkeypatch)
    assert not wrong, "\n".join(wrong)
