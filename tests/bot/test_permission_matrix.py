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

The action cards' buttons and menus (a game played by taps) are rows of the same matrix in
tests/bot/test_permission_matrix_taps.py, which shares this module's fixtures.
"""

from __future__ import annotations

import asyncio
import itertools
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot import picture_pool
from bot.command_schema import COMMANDS
from bot.discord_adapter.answers import STUB
from engine.deployment.placing import whose_turn
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
    Upload,
    buttons,
    callback_payload,
    close_bot,
    form,
    menus,
    open_bot,
    role,
    text_of,
    walk,
)
from tests.bot.test_discord_forces import make_force
from tests.bot.test_discord_team_referee import BOB, BOSS, DAN, FORCES, POOL, RUTH, SHERMAN, UMPIRES
from tests.conftest import BACKENDS
from tests.storage.copies import Copies, PostgresCopies, Rows, SqliteCopies
from tests.storage.databases import seed_sqlite

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
PHASES = ("new", "set-up", "ready", "initiative", "turn start", "running", "window open", "game over")
DECK = "\n".join(f"Card {n} | {n % 3} | any time | does thing {n}" for n in range(1, 21))  # 4 left to draw
EVERY_PHASE_BUT_OVER = frozenset(PHASES) - {"game over", "new"}  # once the sides have joined
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
    kind: str  # "slash", "button" (by its label), "menu" (by its placeholder, ``options`` giving
    # the ``values`` picked) or "form" (the setting's form)
    but: tuple[tuple[str, frozenset[str]], ...]  # phases where fewer may: (phase, who)
    answer: str  # what it does for those who may: "changed" the store, opened a "form" or a "step"
    command: str  # the slash command, button or menu, when the name says more

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
    """Bob's Sherman a step on (anywhere, before he joins with it)."""
    at = state.units[SHERMAN].position if SHERMAN in state.units else None
    return {"unit": SHERMAN, "move": f"{at.x},{at.y + 1}" if at else "36,2"}


# No phase kept here where the command, as written, applies: each row below says why. Such a row
# still checks that every role is refused privately and nothing is stored; the engine's and the
# services' own tests play the command where it applies.
NOT_HERE = ()
ZONE = fixed(side="allies", x1=0, y1=0, x2=20, y2=10)
A_PLAYER = fixed(referee=Pick(BOB))  # a player referees no game of theirs (p. 25)
TO_THE_REFEREE = fixed(player=Pick(BOB), to=Pick(REF), reason="r")  # a referee plays no side (p. 25)
EVERYONE = set(USERS.values())
UNSEATED = REFEREES | {DAN}  # before anyone joins, Dan (who holds the referee role) referees too
BEFORE_OVER = PHASES[:-1]
MATRIX = (  # who may send it (the permission table), and in which phases it changes the game
    # a finished game is replaced by anyone; one set up with referees, by its named referee alone
    cell("game new", EVERYONE, {"new", "game over"}, but=[("new", {REF})]),
    # seats go before set-up, each with a force of one's own: Ann's, Bob's and Otto's "F" (Dan
    # holds the referee role by then; the others keep no force)
    cell("game join", {ANN, BOB, OTTO}, "new", fixed(side="allies", force="F")),
    cell("game start", ALLIES | AXIS | REFEREES, "ready"),
    cell("game concede", ALLIES | AXIS),
    # never here: the matrix's sides are teams, and the bot plays for no team's side (a player's
    # own hand-over and its refusals are played in test_stand_in_games.py)
    cell("game stand_in", ALLIES | AXIS, NOT_HERE, fixed(play="on")),
    cell("initiative", ALLIES, "initiative", fixed(choice="start")),  # the allies won it
    cell("act", {BOB}, PLAYING, nudge_sherman),  # his own unit (p. 25)
    cell("cmt", ALLIES, PLAYING),
    # a fall back answers a failed morale test or close combat: no such result in these phases
    cell("fallback", ALLIES, NOT_HERE, fixed(unit=SHERMAN, to="1,1")),
    cell("pass", ALLIES | REFEREES, "running"),  # once a token is spent; a referee for the absent
    cell("react", AXIS, "window open", fixed(cmt=True)),
    cell("noreact", AXIS | REFEREES, "window open"),
    # the engine asks for a choice (markers lost, a new target) only after fire: none is pending
    cell("choose", ALLIES, NOT_HERE, fixed(unit=SHERMAN)),
    # a team's reserves are its CO's pool, sent on request (p. 25): a team game's sides call none
    # at a turn's start (a quick battle's calls are played in test_permission_matrix_taps.py)
    cell("reserves", ALLIES, NOT_HERE, fixed(units="Infantry Detachment 2")),
    cell("deploy", {ANN}, "set-up", next_to_set_up),  # her unit sets up next
    cell("React", AXIS, "window open", kind="button", answer="step"),  # the reaction by taps
    cell("No reaction", AXIS | REFEREES, "window open", kind="button"),
    cell("team give", {ANN}, {"initiative", "turn start"}, fixed(player=BOB, tokens=1)),  # CO's bonus (p. 25)
    cell("team request", ALLIES, options=fixed(unit=POOL["allies"])),
    cell("team grant", {OTTO}, SET_UP_DONE, fixed(unit=POOL["axis"])),  # Dan's request
    cell("team refuse", {OTTO}, SET_UP_DONE, fixed(unit=POOL["axis"])),
    cell("cards deal", ALLIES | AXIS, "set-up", fixed(deck="Generic")),  # dealt by turn start
    cell("cards use", ALLIES, SET_UP_DONE, allied_card),  # dealt during set-up
    cell("games delay", ALLIES | AXIS | REFEREES, BEFORE_OVER, fixed(minutes=5), but=[("new", UNSEATED)]),
    cell("ref move", REFEREES, options=fixed(unit=SHERMAN, at="30,20", reason="r")),
    cell("ref markers", REFEREES, options=fixed(unit=SHERMAN, count=1, reason="r")),
    cell("ref tokens", REFEREES, options=fixed(side="allies", player=Pick(BOB), count=1, reason="r")),
    cell(
        "ref turn", REFEREES, options=fixed(number=3, reason="r"), when=BEFORE_OVER, but=[("new", UNSEATED)]
    ),
    cell("ref initiative", REFEREES, PLAYING, fixed(side="axis", reason="r")),
    # the Sherman is never hidden when a phase is kept (``ref hide`` hides it only in a cell)
    cell("ref reveal", REFEREES, NOT_HERE, fixed(unit=SHERMAN, reason="r")),
    cell("ref hide", REFEREES, options=fixed(unit=SHERMAN, reason="r")),
    cell("ref destroy", REFEREES, options=fixed(unit=SHERMAN, reason="r")),
    # nor is it ever destroyed when a phase is kept (``ref destroy`` only in a cell)
    cell("ref restore", REFEREES, NOT_HERE, fixed(unit=SHERMAN, reason="r")),
    cell("ref give_units", REFEREES, options=fixed(player=Pick(BOB), to=Pick(EVE), reason="r")),
    # never: a referee plays no side (p. 25), so nobody may hand one a player's units
    cell("ref give_units to:referee", REFEREES, NOT_HERE, TO_THE_REFEREE, command="ref give_units"),
    # never here either: the matrix's sides are teams, and the bot plays for no team's side
    cell("ref stand_in", REFEREES, NOT_HERE, fixed(side="axis", play="on", reason="r")),
    cell(
        "ref ruling",
        REFEREES,
        options=fixed(text="the ford is deep"),
        when=BEFORE_OVER,
        but=[("new", UNSEATED)],
    ),
    # a finished game can be taken back, but takes no new referee's seat
    cell(
        "ref undo", REFEREES, PHASES[1:], fixed(count=1, reason="r"), but=[("game over", {REF})]
    ),  # once acted
    cell(
        "ref appoint",
        REFEREES | {BOSS},
        BEFORE_OVER,
        fixed(referee=Pick(EVE)),
        but=[("new", UNSEATED | {BOSS})],
    ),
    # Bob may be appointed only before he joins (and may then join no side)
    cell("ref appoint referee:player", UNSEATED | {BOSS}, "new", A_PLAYER, command="ref appoint"),
    cell(
        "ref dismiss",
        REFEREES | {BOSS},
        BEFORE_OVER,
        fixed(referee=Pick(REF)),
        but=[("new", UNSEATED | {BOSS})],
    ),
    cell("ref clock pause", REFEREES, when=BEFORE_OVER, but=[("new", UNSEATED)]),
    # the clock runs in every kept phase (``ref clock pause`` stops it only in a cell); resuming is
    # tested in tests/bot/test_discord_referee_clock.py and test_resent_interactions.py
    cell("ref clock resume", REFEREES, NOT_HERE),
    cell("ref clock extend", REFEREES, "window open", fixed(minutes=5)),
    cell("ref clock close", REFEREES, "window open"),
    cell("ref clock deadline", REFEREES, PLAYING, fixed(side="allies", hours=2)),
    cell(
        "ref prep objective",
        REFEREES,
        options=fixed(id="ford", at="30,20", side="allies"),
        when=BEFORE_OVER,
        but=[("new", UNSEATED)],
    ),
    cell(
        "ref prep special",
        REFEREES,
        options=fixed(to="allies", text="the ford is deep"),
        when=BEFORE_OVER,
        but=[("new", UNSEATED)],
    ),
    cell(
        "ref prep brief",
        REFEREES,
        options=fixed(side="axis", text="tanks to the north"),
        when=BEFORE_OVER,
        but=[("new", UNSEATED)],
    ),
    cell("ref prep force", UNSEATED, "new", fixed(side="allies", points=400)),  # before forces join
    cell("ref prep zone", REFEREES, {"new", "set-up"}, ZONE, but=[("new", UNSEATED)]),
)


@dataclass
class Snapshot:
    """A phase's kept database (by the phase's name); the buttons and menus of the card that
    reached it (by label, a menu by its placeholder), and a setting's form once one is open."""

    name: str
    buttons: dict[str, dict[str, Any]] = field(default_factory=dict)
    form: dict[str, Any] | None = None


def unpictured(state, viewer, last_events=(), before=None) -> bytes:
    """Pictures are not what this test is about: a blank one is drawn at once."""
    return b"\x89PNG\r\n\x1a\n"


async def open_table(url: str, monkeypatch) -> tuple[Any, Harness]:
    monkeypatch.setattr(picture_pool, "render", unpictured)
    bot, discord = await open_bot(url, monkeypatch)
    discord.roles.update({RUTH: [UMPIRES], DAN: [UMPIRES]})
    discord.permissions[BOSS] = MANAGE_GUILD
    bot.games.dice = lambda: SeededDice(2)
    return bot, discord


async def build(copies: Copies, monkeypatch) -> dict[str, Snapshot]:
    """The refereed team game of tests/bot/test_discord_team_referee.py, with a named referee and
    a player of another channel's game, kept at each phase."""
    await copies.restore("empty")
    bot, discord = await open_table(copies.url, monkeypatch)
    kept: dict[str, Snapshot] = {}

    async def snapshot(phase: str, card: list[dict[str, Any]] | None = None) -> Snapshot:
        kept[phase] = Snapshot(phase, buttons=card_items(card) if card else {})
        await copies.keep(phase)
        return kept[phase]

    await discord.slash("game new", user=PAT, channel=ELSEWHERE)
    await discord.slash("game join", user=PAT, channel=ELSEWHERE, side="allies")
    deck = form(await discord.slash("cards deck", user=BOSS, channel="1", name="Generic"))
    await discord.submit(deck, {"Cards": DECK}, user=BOSS, channel="1")
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
    await snapshot("new")
    del discord.roles[DAN]  # a referee role's holder may not join: Dan gets it once he plays
    for player, (side, _, _) in FORCES.items():
        await discord.slash("game join", user=player, channel=CHANNEL, side=side, force="F")
    discord.roles[DAN] = [UMPIRES]
    await snapshot("set-up")

    await discord.slash("cards deal", user=ANN, channel=CHANNEL, deck="Generic")
    spots = {  # inside each side's zone, 12" of its own edge (Meeting Engagement)
        "allies": [f"{x},{y}" for y in (3, 9) for x in range(6, 72, 12)],
        "axis": [f"{x},{y}" for y in (45, 39) for x in range(6, 72, 12)],
    }

    async def set_up(unit: str, owner: str, side: str) -> None:
        """The unit goes to the next of its side's spots that takes it."""
        while True:
            sent = await discord.slash("deploy", user=owner, channel=CHANNEL, unit=unit, at=spots[side].pop())
            if "Allies set up" in answer(sent)[0] or "Axis set up" in answer(sent)[0]:
                return

    while (state := await bot.games.game(CHANNEL)).deployment and (side := whose_turn(state.deployment)):
        waiting = [u for u in state.deployment.sides[side].waiting if u != POOL[side]]
        if not waiting:
            await discord.slash("deploy", user=state.sides[side].team.co, channel=CHANNEL, done=True)
            continue
        await set_up(waiting[0], state.units[waiting[0]].player, side)
    await discord.slash("team request", user=DAN, channel=CHANNEL, unit=POOL["axis"])
    await snapshot("ready")
    bot.games.dice = lambda: ScriptedDice([d6(6), d6(1)])  # the allies win the initiative 6-1
    started = await discord.slash("game start", user=ANN, channel=CHANNEL)
    bot.games.dice = lambda: SeededDice(2)
    await snapshot("initiative", started)
    await snapshot("turn start", await discord.slash("initiative", user=ANN, channel=CHANNEL, choice="start"))

    state = await bot.games.game(CHANNEL)
    declared = await discord.slash("act", user=BOB, channel=CHANNEL, **nudge_sherman(state))
    await snapshot("window open", declared)
    await snapshot("running", await discord.slash("noreact", user=OTTO, channel=CHANNEL))

    await discord.slash("game concede", user=ANN, channel=CHANNEL)
    assert (await bot.games.game(CHANNEL)).phase is Phase.OVER
    await snapshot("game over")

    house = "# House\n## H1 Fords\nDeep.\n"
    await discord.slash(
        "rules import", user=BOSS, channel=LINKED, document=Upload("house.md", house.encode())
    )
    await discord.slash(
        "campaign linked new",
        user=ANN,
        channel=LINKED,
        name="Normandy",
        allies=f"<@{ANN}>",
        allies_force="F",
        axis=f"<@{OTTO}>",
        axis_force="F",
    )
    await discord.slash("lfg post", user=ANN, channel=LINKED, side="allies")
    await discord.slash("table new", user=ANN, channel=LINKED, name="T", width=48.0, depth=48.0)
    await discord.slash(
        "table add", user=ANN, channel=LINKED, table="T", piece="wood", kind="woods", at="B2", size="9x9"
    )
    await snapshot("server")
    await close_bot(bot)
    await copies.close()
    return kept


@pytest.fixture(scope="module", params=BACKENDS)
def copies(request, tmp_path_factory) -> Copies:
    """The module's one working database, migrated and kept as "empty", on SQLite and on the
    run's PostgreSQL server. SQLite's lives in a memory-backed file where the system has one
    (each commit then costs no disk flush; the file is as real), else in the test's tmp dir."""
    if request.param == "postgresql":
        server = request.getfixturevalue("postgres_server")
        made: Copies = PostgresCopies(
            server.create_database(template=request.getfixturevalue("postgres_template"))
        )
    elif Path("/dev/shm").is_dir():
        folder = tempfile.TemporaryDirectory(dir="/dev/shm", prefix="matrix-")
        request.addfinalizer(folder.cleanup)
        made = SqliteCopies(Path(folder.name))
    else:
        made = SqliteCopies(tmp_path_factory.mktemp("matrix"))
    seed_sqlite(made.url)

    async def keep_empty() -> None:
        await made.keep("empty")
        await made.close()

    asyncio.run(keep_empty())
    return made


@pytest.fixture(scope="module")
def phases(copies) -> dict[str, Snapshot]:
    with pytest.MonkeyPatch.context() as monkeypatch:
        return asyncio.run(build(copies, monkeypatch))


def card_items(sent: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The buttons (by label) and menus (by placeholder) of the interaction's answer."""
    return buttons(sent) | {menu["placeholder"]: menu for menu in menus(sent)}


def answer(sent: list[dict[str, Any]]) -> tuple[str, str]:
    """What the user was shown, and how: "form" (a form opened), "private" (only to them),
    "step" (only to them, with buttons or menus for what comes next: a step of an order built by
    taps), "public" (anything the channel could read) or "nothing" (a form no bot has open is not
    answered). A first response deferred privately keeps its follow-ups private; so does one
    that updates the clicked message in place, which only an order's private steps do
    (bot.discord_adapter.tap_orders.step_card)."""
    texts, how, deferred_private, steps = [], "nothing", False, False
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
            if body.get("type") in (5, 6):
                deferred_private = private or body["type"] == 6
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
        steps = steps or any(item["type"] in (2, 3) for item in walk(data.get("components") or []))
        how = "public" if how == "public" or not private else "private"
    return "\n".join(texts), "step" if how == "private" and steps else how


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
    opened_with: dict[str, Any] = field(default_factory=dict)  # the opening slash command's options


async def send(discord: Harness, setting: Setting, extras: Snapshot, state: Any, entry: Cell, user: str):
    """Send a cell's command as ``user``. Buttons and menus are those of ``extras``, clicked in
    every phase as a stale message's would be; a form is opened by the setting's opener (a stale
    one when it cannot be) and sent by ``user``."""
    channel = setting.channel
    if entry.kind == "button":
        return await discord.click(extras.buttons[entry.command], user=user, channel=channel)
    if entry.kind == "menu":
        return await discord.choose(
            extras.buttons[entry.command], **entry.options(state), user=user, channel=channel
        )
    if entry.kind == "form":
        opener = extras.buttons.get(setting.opened_by)
        if opener is not None and opener["type"] == 3:  # a menu that opens the form
            opened = await discord.choose(opener, **setting.opened_with, user=setting.opener, channel=channel)
        elif opener is not None:
            opened = await discord.click(opener, user=setting.opener, channel=channel)
        else:
            opened = await discord.slash(
                setting.opened_by, user=setting.opener, channel=channel, **setting.opened_with
            )
        filled = form(opened) if answer(opened)[1] == "form" else extras.form
        assert filled is not None
        return await discord.submit(filled, setting.typed, user=user, channel=channel)
    return await discord.slash(entry.command, user=user, channel=channel, **entry.options(state))


async def changed_tables(copies: Copies, pristine: Rows, before: Any) -> list[str]:
    """The tables whose rows differ from the phase's (an unchanged mark needs no reading)."""
    if await copies.mark() == before:
        return []
    after = await copies.rows()
    return [
        table for table in sorted(pristine.keys() | after.keys()) if after.get(table) != pristine.get(table)
    ]


SAMPLE = 3  # on PostgreSQL, a third of each phase's cells (see ``cells``)


def cells(setting: Setting, phase: str, every: bool) -> Iterator[tuple[Cell, str, str]]:
    """The cells of ``setting`` to send in ``phase``: every one, or (``every`` false) a fixed
    sample that still sends every row in every phase, by every role over the rows, and by the
    first user who may, where anyone may: on PostgreSQL the whole table would add half a minute
    to the suite, and the permissions are the services', the same on either database."""
    shift = PHASES.index(phase) if phase in PHASES else 0
    for row, entry in enumerate(setting.rows):
        first_who_may = next((user for user in setting.users.values() if user in entry.may_in(phase)), None)
        for seat, (role_name, user) in enumerate(setting.users.items()):
            if every or (row + seat + shift) % SAMPLE == 0 or user == first_who_may:
                yield entry, role_name, user


async def run_matrix(setting: Setting, phase: str, extras: Snapshot, copies: Copies, monkeypatch):
    """The rows of ``setting`` as every user (see ``cells``), on the phase's kept database; the
    store is put back after each cell that changed it (under the running bot: no timer runs, the
    clock is virtual). Returns the cells that went otherwise than the table says."""
    await copies.restore(phase)
    pristine = await copies.rows()
    bot, discord = await open_table(copies.url, monkeypatch)
    before = await copies.mark()
    stored = await bot.games.store.load(setting.channel)
    state = stored and stored.state  # the game's, where options are read from it
    wrong = []
    for entry, role_name, user in cells(setting, phase, every=isinstance(copies, SqliteCopies)):
        text, how = answer(await send(discord, setting, extras, state, entry, user))
        changed = await changed_tables(copies, pristine, before)
        if changed:
            await copies.restore(phase)
            before = await copies.mark()
        got = "changed" if changed else how
        if got not in expected(entry, user, phase) or "Something went wrong" in text:
            wrong.append(f"{entry.name} by the {role_name}: {got} {changed or ''}: {text[:150]!r}")
    await bot.campaigns.close()
    await close_bot(bot)
    await copies.close()
    return wrong


def expected(entry: Cell, user: str, phase: str) -> set[str]:
    """What a cell should do: change the store, open a form, or be refused privately (a stale
    form, which no bot has open, goes unanswered)."""
    if user in entry.may_in(phase):
        return {entry.answer}
    return {"private", "nothing"} if entry.kind == "form" else {"private"}


GAME = Setting(CHANNEL, USERS, MATRIX, opener=OTTO, opened_by="", typed={})


@pytest.mark.parametrize("phase", PHASES)
async def test_every_command_as_every_role(phase, phases, copies, monkeypatch):
    """Each cell of the game's matrix in ``phase``: the store changes exactly where the table says."""
    wrong = await run_matrix(GAME, phase, phases["window open"], copies, monkeypatch)
    assert not wrong, "\n".join(wrong)


async def axis_start_a_refereed_quick_battle(bot, discord: Harness, channel: str) -> None:
    """A quick battle in ``channel`` refereed by the matrix's referee, Ann the allies, Otto the
    axis; the axis win the initiative 5-2 and start."""
    await discord.slash("game new", user=ANN, channel=channel, referee=Pick(REF))
    await discord.slash("game join", user=ANN, channel=channel, side="allies")
    await discord.slash("game join", user=OTTO, channel=channel, side="axis")
    bot.games.dice = lambda: ScriptedDice([d6(2), d6(5)])
    await discord.slash("game start", user=OTTO, channel=channel)
    await discord.slash("initiative", user=OTTO, channel=channel, choice="start")


async def test_nobody_takes_over_a_side_of_a_running_quick_battle(copies, monkeypatch):
    """Issue 19's takeover through Discord: a spectator, a server admin and the referee ask to
    join the allies of a started quick battle; each is refused privately and nothing is stored,
    so the spectator's "no reaction" and concession that followed are refused as well."""
    await copies.restore("empty")
    bot, discord = await open_table(copies.url, monkeypatch)
    await axis_start_a_refereed_quick_battle(bot, discord, CHANNEL)
    bot.games.dice = lambda: SeededDice(2)
    await discord.slash("act", user=OTTO, channel=CHANNEL, unit="Gruppe 3", move="50,39")  # allies may react
    before = await copies.rows()
    for user in (EVE, BOSS, REF):
        text, how = answer(await discord.slash("game join", user=user, channel=CHANNEL, side="allies"))
        assert how == "private" and ("nobody joins a side now" in text or "plays no side" in text), text
    for command in ("noreact", "game concede"):
        text, how = answer(await discord.slash(command, user=EVE, channel=CHANNEL))
        assert how == "private" and "You are not playing in this game" in text, text
    assert await copies.rows() == before
    await close_bot(bot)
    await copies.close()


async def test_a_referee_never_holds_a_side(phases, copies, monkeypatch):
    """The named referee and a referee role's holder may not join, before the game starts or
    while the sides set up; a player holding the referee role reads the game with their own
    side's eyes only, and the referees' powers are not theirs."""
    await copies.restore("set-up")
    bot, discord = await open_table(copies.url, monkeypatch)
    await discord.slash("game new", user=EVE, channel="9", referee=Pick(REF), referee_role=role(UMPIRES))
    before = await copies.rows()
    for user, channel in itertools.product((REF, RUTH), (CHANNEL, "9")):
        text, how = answer(await discord.slash("game join", user=user, channel=channel, side="axis"))
        assert how == "private" and "a referee sees everything and plays no side" in text, text
    text, how = answer(await discord.slash("ref map", user=DAN, channel=CHANNEL))
    assert (text, how) == ("Only the game's referees may do that", "private")
    text, how = answer(await discord.slash("game map", user=DAN, channel=CHANNEL))
    assert (text, how) == ("Turn 0, axis view", "private")
    assert await copies.rows() == before
    await close_bot(bot)
    await copies.close()


async def test_a_refereed_game_nobody_has_joined_is_its_referees_not_anyones(phases, copies, monkeypatch):
    """The hole the "new" phase found: a game set up with a referee was, until a player joined,
    anyone's to replace (wiping the referee's preparation) or to re-time. Now a spectator, a
    server admin and a player of another channel are refused both privately, nothing stored;
    the named referee still may."""
    await copies.restore("new")
    bot, discord = await open_table(copies.url, monkeypatch)
    before = await copies.rows()
    for user in (EVE, BOSS, PAT):
        text, how = answer(await discord.slash("game new", user=user, channel=CHANNEL))
        assert (text, how) == (
            "The game set up here has referees: only they may replace it before it starts",
            "private",
        )
        text, how = answer(await discord.slash("games delay", user=user, channel=CHANNEL, minutes=5))
        assert how == "private" and "Only the game's players and referees may change" in text, text
    assert await copies.rows() == before
    text, how = answer(await discord.slash("game new", user=REF, channel=CHANNEL))
    assert how == "public" and text.startswith("A quick battle"), text
    await close_bot(bot)
    await copies.close()


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
    cell("campaign new", EVERYONE, NOT_HERE, ANOTHER),  # never: one campaign a channel, running here
    cell("campaign balance", {REF}, "open", fixed(side="german", drm=2)),  # RB 11.32
    cell("campaign cg2", {REF}, "open", fixed(on=True)),
    # no OBA module is bought in phase 1 yet, so there is no ledger entry to draw a chit for
    cell("campaign chit", {REF}, NOT_HERE, fixed(entry=1, colour="red")),
)
CAMPAIGN_SETTING = Setting(
    CAMPAIGN, CAMPAIGN_USERS, CAMPAIGN_ROWS, opener=ANN, opened_by="campaign submit", typed={"RG": "none"}
)


# The commands no matrix row sends: those that read and store nothing, and those that write only
# the sender's own record (its own dice log, its own way of being told, a force of its own).
READS_ONLY = {
    "campaign ledger", "campaign linked standings", "campaign orbat", "campaign status", "cards hand",
    "chart list", "chart show", "force export", "force list", "force show", "game history", "game log",
    "game map", "game status", "games mine", "odds fire", "odds shot", "odds test", "ref log", "ref map",
    "ref prep list", "game replay", "rule", "library", "stats", "team show", "table show", "table list",
    "table export", "help", "measure", "force orbat", "lfg list",
}  # fmt: skip
OWN_RECORDS = {
    "roll", "chart roll", "games ping", "force import", "table new", "table random", "table copy",
    "table import",
}  # fmt: skip


def test_every_command_is_in_a_matrix_or_changes_nothing_of_anyone_elses():
    """A command added to the schema fails here until a matrix row sends it by every role, or it
    is named above as changing nothing that another user or a game holds."""
    sent = {row.command for rows in (MATRIX, CAMPAIGN_ROWS, SERVER_ROWS) for row in rows}
    assert not sent & (READS_ONLY | OWN_RECORDS)
    assert sorted(set(COMMANDS) - sent - READS_ONLY - OWN_RECORDS) == []
    assert sorted((READS_ONLY | OWN_RECORDS) - set(COMMANDS)) == []


async def open_campaign(copies: Copies, monkeypatch) -> Snapshot:
    """Two Red Barricades campaigns (one in another channel), the matrix's with a referee, kept
    with phase 1 open: its Submit orders button and its form."""
    await copies.restore("empty")
    bot, discord = await open_table(copies.url, monkeypatch)
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
    opened = Snapshot("open", buttons=buttons(sent))
    opened.form = form(await discord.slash("campaign submit", user=ANN, channel=CAMPAIGN))
    await copies.keep("open")
    await bot.campaigns.close()
    await close_bot(bot)
    await copies.close()
    return opened


@pytest.fixture(scope="module")
def campaign(copies) -> Snapshot:
    with pytest.MonkeyPatch.context() as monkeypatch:
        return asyncio.run(open_campaign(copies, monkeypatch))


async def test_every_campaign_order_as_every_role(campaign, copies, monkeypatch):
    """The sealed orders of a Red Barricades campaign: the slash command, the phase's button and
    the form, and the referee's ledger, by every role."""
    wrong = await run_matrix(CAMPAIGN_SETTING, "open", campaign, copies, monkeypatch)
    assert not wrong, "\n".join(wrong)


LINKED = "13"  # a channel running a linked campaign between Ann's and Otto's forces "F"
OWNERS = ALLIES | AXIS  # each keeps a force "F" in this server (made before the game)
MORE_RULES = Upload("more.md", b"# More\n## M1 Mud\nSlow.\n")
LINK_AGAIN = fixed(name="N", allies=f"<@{BOB}>", allies_force="F", axis=f"<@{DAN}>", axis_force="F")
SERVER_ROWS = (  # what the server keeps apart from a channel's game: one phase, "server"
    cell("force new", EVERYONE, "server", fixed(nation="us", name="G", points=300)),  # one's own
    cell("force add", OWNERS, "server", fixed(force="F", unit="Infantry Detachment")),  # to one's own F
    cell("force remove", OWNERS, "server", fixed(force="F", unit="Infantry Detachment 1")),
    cell("force copy", OWNERS, "server", fixed(force="F", name="H")),
    cell("force delete", OWNERS, "server", fixed(force="F")),
    # Ann's and Otto's F have a second detachment to take the command (Bob's and Dan's have none)
    cell(
        "force upgrade", {ANN, OTTO}, "server", fixed(force="F", unit="Infantry Detachment 2", command=True)
    ),
    # Ann's table T, with a wood: only its maker changes it; anyone makes a table of their own
    cell("table add", {ANN}, "server", fixed(table="T", piece="barn", kind="building", at="D4", size="6x6")),
    cell("table move", {ANN}, "server", fixed(table="T", piece="wood", to="C3")),
    cell("table turn", {ANN}, "server", fixed(table="T", piece="wood", degrees=30.0)),
    cell("table remove", {ANN}, "server", fixed(table="T", piece="wood")),
    cell("Undo last piece", {ANN}, "server", kind="button"),  # under T's /table show card
    cell("table delete", {ANN}, "server", fixed(table="T")),
    cell("rules import", {BOSS}, "server", fixed(document=MORE_RULES)),  # Manage Server
    cell("rules remove", {BOSS}, "server", fixed(name="House")),
    cell("cards deck", {BOSS}, "server", fixed(name="Generic"), answer="form"),
    cell("Deck form", {BOSS}, "server", kind="form"),
    cell("campaign linked command", {ANN}, "server", fixed(side="allies", unit="Infantry Detachment 2")),
    cell("campaign linked retire", {ANN}, "server", fixed(side="allies", unit="Infantry Detachment 2")),
    cell("campaign linked battle", {ANN, OTTO}, "server", fixed(scenario="meeting")),
    cell("campaign linked end", {ANN, OTTO}, "server"),
    # no battle fought yet, so no reinforcement points to buy with; never a second campaign in
    # a channel running one
    cell("campaign linked buy", {ANN}, NOT_HERE, fixed(side="allies", unit="Infantry Detachment")),
    cell("campaign linked new", EVERYONE, NOT_HERE, LINK_AGAIN),
    # Ann's open game #1: anyone posts one; she (or a server admin) withdraws hers; anyone else
    # joins it, its game made in a thread of its own
    cell("lfg post", EVERYONE, "server", fixed(side="axis")),
    cell("lfg cancel", {ANN, BOSS}, "server", fixed(lobby=1)),
    cell("Join", EVERYONE - {ANN}, "server", kind="button"),
)
SERVER = Setting(
    LINKED,
    USERS,
    SERVER_ROWS,
    opener=BOSS,
    opened_by="cards deck",
    typed={"Cards": DECK},
    opened_with={"name": "Generic"},
)


# the building items under T's /table show card
TABLE_CARD = {
    "Undo last piece": {"type": 2, "style": 2, "label": "Undo last piece", "custom_id": "ictable:undo:T"},
    "Add a piece": {
        "type": 3,
        "custom_id": "ictable:add:T",
        "options": [{"label": "woods (10x8)", "value": "woods"}],
    },
}
LOBBY_POST = {"Join": {"type": 2, "style": 1, "label": "Join", "custom_id": "iclobby:join:1"}}  # Ann's
SERVER_ITEMS = TABLE_CARD | LOBBY_POST  # what the server-level rows click
TABLE_BUILDING = Setting(  # the piece menu opens a form for the table's maker alone
    LINKED,
    USERS,
    (
        cell("Add a piece", {ANN}, "server", fixed(values=["woods"]), kind="menu", answer="form"),
        cell("Piece form", {ANN}, "server", kind="form"),
    ),
    opener=ANN,
    opened_by="Add a piece",
    typed={"Grid square": "G7"},  # clear of the wood
    opened_with={"values": ["woods"]},
)


async def test_every_server_level_change_as_every_role(phases, copies, monkeypatch):
    """Forces, the rules library, the card decks, the tables, a linked campaign and the open
    games: only their owners (a force's or a table's maker, the server's admins, the campaign's
    players, a lobby's poster) change them; anyone but its poster joins an open game."""
    for setting in (SERVER, TABLE_BUILDING):
        wrong = await run_matrix(
            setting, "server", Snapshot("server", buttons=SERVER_ITEMS), copies, monkeypatch
        )
        assert not wrong, "\n".join(wrong)
