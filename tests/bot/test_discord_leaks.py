"""The leak test: a Capture game played through the real discord.py command tree, where the
defender (allies) sets up hidden under numbered markers with dummies and a sniper team (p. 26),
with a referee and private threads. Everything each player can read is collected: the channel's
messages, the replies only they see, and their own side's thread (not the other side's, nor the
referees'). None of it may name an enemy unit still hidden, or carry the text of any event the
player's side is not told (an enemy's secret, a referee-only note, a side-only briefing); every
picture they see is exactly the one drawn for their own side or for spectators, and so is its
description (alt text): an enemy's dummy is never told from a unit in it."""

import random
import re
from dataclasses import dataclass, field
from functools import cache
from itertools import count

from bot.storage.thread_store import side_threads
from engine.commands import (
    CallReserves,
    ChooseInitiative,
    ChooseTarget,
    Command,
    Declare,
    DeclineReaction,
    FallBackOrder,
    Fire,
    MoraleTestOrder,
    Move,
    PassInitiative,
    React,
    RemoveMarkers,
)
from engine.deployment.placing import whose_turn
from engine.dice import SeededDice
from engine.events import Event
from engine.game import awaiting
from engine.game_state import GameState
from engine.profiles import Special
from engine.scenarios.quick_battle import scenario_battle
from engine.state import Phase
from engine.view import REFEREE, told
from renderer import render
from renderer.description import describe
from tests.bot.discord_harness import (
    ANN,
    OTTO,
    THREADS,
    answers_in,
    callback_payload,
    close_bot,
    described,
    files_of,
    open_bot,
    posts_in,
    reply,
    text_of,
)
from tests.engine.random_play import random_command

REF = "309"
CHANNEL = "1"
PLAYERS = {"allies": ANN, "axis": OTTO}
SIDE_OF = {user: side for side, user in PLAYERS.items()}
# labels no other word of the game uses, so that a leak cannot hide behind a common name
ALLIED = [
    ("Infantry Detachment", "Alder"),
    ("Infantry Detachment", "Birch"),
    ("Infantry Detachment", "Cedar"),
    ("Sherman 75mm", "Dogwood"),
    ("Sniper Team", "Elm"),
]
GERMAN = [
    ("Infantry Detachment", "Anton"),
    ("Infantry Detachment", "Berta"),
    ("Infantry Detachment", "Caesar"),
    ("Panzer IV G (late) to J", "Dora"),
    # Capture: at least twice what the defender's 138 points cost (p. 30)
    ("Panther", "Emil"),
    ("Infantry Detachment", "Friedrich"),
    ("PaK40 Anti-tank Gun", "Gustav"),
]
STEPS = 80  # set-up, start and play
SIDE_ONLY_PREPARATION = (  # the referee's rules, briefing and objective for one side (or none)
    ("ref prep special", {"to": "axis", "text": "Kampfgruppe Ostwind may call one air strike"}),
    ("ref prep special", {"to": "referee", "text": "Reinforcements Zephyr arrive on turn four"}),
    ("ref prep brief", {"side": "allies", "text": "Partisans report Panzer Wolfsschanze near the mill"}),
    ("ref prep objective", {"id": "Quarry", "at": "20,20", "side": "axis"}),
)


@dataclass
class Read:
    """One message a player could read: when, its text, its pictures and their descriptions."""

    step: int
    text: str
    pictures: list[bytes] = field(default_factory=list)
    descriptions: list[str] = field(default_factory=list)

    @property
    def words(self) -> list[str]:
        """Everything read in it: its text and its pictures' descriptions."""
        return [self.text, *self.descriptions]


class Table:
    """The game in channel 1 and what each player has been able to read of it."""

    def __init__(self, bot, discord) -> None:
        self.bot, self.discord = bot, discord
        self.step = 0
        self.read: dict[str, list[Read]] = {ANN: [], OTTO: [], REF: []}
        self.threads: dict[str, str] = {}
        self.before: GameState | None = None  # the game as the last step found it (the trails drawn)

    async def slash(self, command: str, user: str, /, **options) -> str:
        """Send the command as ``user``; file what it sent under each reader. Returns the reply."""
        sent = await self.discord.slash(command, user=user, channel=CHANNEL, **options)
        self.threads = self.threads or await side_threads(self.bot.games.store, CHANNEL)
        readers_of = {thread: self._audience(name) for name, thread in self.threads.items()}
        for body, private, entry in answers_in(sent):
            self._file([user] if private else list(self.read), text_of(body), entry)
        for where, entry in posts_in(sent):
            readers = list(self.read) if where == CHANNEL else readers_of[where]
            self._file(readers, text_of(callback_payload(entry)), entry)
        return reply(sent)[0]

    def _audience(self, name: str) -> list[str]:
        return [REF] if name == REFEREE else [PLAYERS[name]]

    def _file(self, readers: list[str], text: str, entry: dict) -> None:
        descriptions = [words or "" for _, words in described(entry)]
        for reader in readers:
            self.read[reader].append(Read(self.step, text, files_of(entry), descriptions))


async def build_forces(table: Table) -> None:
    for user, nation, name, units, points in (
        (ANN, "us", "Easy", ALLIED, 150),
        (OTTO, "german", "KG", GERMAN, 300),
    ):
        await table.slash("force new", user, nation=nation, name=name, points=points)
        for profile, label in units:
            await table.slash("force add", user, force=name, unit=profile, label=label)
        await table.slash("force upgrade", user, force=name, unit=units[0][1], command=True)


async def set_up_one(table: Table, state: GameState, rng: random.Random) -> None:
    """The side whose turn it is puts its next waiting unit at a random legal point (a sniper
    team with its decoy), or says it is done when nothing more may go down."""
    side = whose_turn(state.deployment)
    plan = state.deployment.sides[side]
    for _ in range(300 if plan.waiting else 0):
        unit = state.units[plan.waiting[0]]
        x, y = rng.uniform(1, state.table.width - 1), rng.uniform(1, state.table.depth - 1)
        decoy = {"decoy": f"{x / 2:.1f},{y / 2:.1f}"} if unit.profile.has(Special.SNIPER) else {}
        if re.search(
            r"(Allies|Axis) set up ",
            await table.slash("deploy", PLAYERS[side], unit=unit.id, at=f"{x:.1f},{y:.1f}", **decoy),
        ):
            return
    await table.slash("deploy", PLAYERS[side], done=True)


def path(points) -> str:
    return ";".join(f"{p.x},{p.y}" for p in points)


def order_options(order) -> dict:
    if isinstance(order, MoraleTestOrder):
        return {"cmt": True}
    options: dict = {"unit": order.unit}
    for action in order.actions:
        if isinstance(action, Move):
            options.update(move=path(action.path), rapid=action.rapid)
        elif isinstance(action, Fire):
            options["fire"] = action.target
    if isinstance(order.actions[0], Fire) and len(order.actions) > 1:
        options["first"] = "fire"
    return options


def as_slash(command: Command) -> tuple[str, dict] | None:
    """The slash command and options a player would use for ``command``, or None if none says it."""
    match command:
        case ChooseInitiative(go_first=first):
            return "initiative", {"choice": "start" if first else "pass"}
        case CallReserves(units=units):
            return "reserves", {"units": ",".join(units)}
        case Declare(order=MoraleTestOrder()):
            return "cmt", {}
        case Declare(order=FallBackOrder() as order):
            return "fallback", {"unit": order.unit, "to": path(order.path)}
        case Declare(order=order):
            return "act", order_options(order)
        case PassInitiative():
            return "pass", {}
        case React(order=FallBackOrder()):
            return None  # /react has no fall back
        case React(order=order):
            return "react", order_options(order)
        case DeclineReaction():
            return "noreact", {}
        case RemoveMarkers(unit=unit):
            return "choose", {"unit": unit}
        case ChooseTarget(target=target):
            return "choose", {"unit": target} if target else {}
    raise AssertionError(command)


def aims_at_hidden(state: GameState, command: Command) -> bool:
    """Whether the command names an enemy the player cannot know (the random player sees all)."""
    order = getattr(command, "order", None)
    named = [a.target for a in getattr(order, "actions", ()) if isinstance(a, Fire)]
    named += [command.target] if isinstance(command, ChooseTarget) and command.target else []
    return any(state.units[u].hidden and state.units[u].side != awaiting(state) for u in named)


async def random_step(table: Table, rng: random.Random) -> None:
    """The awaited player sends a random legal order (up to 40 tries), else declines or tests morale."""
    for _attempt in range(40):
        state = await table.bot.games.game(CHANNEL)
        command = random_command(state, rng)
        slash = as_slash(command)
        if aims_at_hidden(state, command) or slash is None:
            continue
        name, options = slash
        before = (await table.bot.games.store.load(CHANNEL)).version
        await table.slash(name, PLAYERS[awaiting(state)], **options)
        if (await table.bot.games.store.load(CHANNEL)).version > before:
            return
    state = await table.bot.games.game(CHANNEL)
    await table.slash("noreact" if state.phase is Phase.REACTION else "cmt", PLAYERS[awaiting(state)])


def hidden_from(state: GameState, side: str) -> list[str]:
    """The names and ids of the enemy's units ``side`` may not know: true names of units under
    markers and of dummies, hidden sniper teams, plotted set-up."""
    hidden = [u for u in state.units.values() if u.side != side and u.hidden and not u.destroyed]
    return [word for u in hidden for word in (u.true_name or u.name, u.id)]


def untold(events: list[Event], side: str) -> list[str]:
    """The texts of every event ``side`` is not told as it is (enemy secrets, referee-only notes,
    briefings for the other side)."""
    return [e.text for e in events if told(e, side) != e.text and e.text.strip()]


def said(word: str, text: str) -> bool:
    return re.search(rf"\b{re.escape(word)}\b", text) is not None


def drawings(state: GameState, events: list[Event], before: GameState | None):
    """This moment drawn (``render``) or described (``describe``) for a viewer, with the last
    action and its trails from the game ``before`` it, with the last action alone, or without
    it (/game map): each drawn once, however many checks of the step ask for it."""

    @cache
    def drawn(draw, viewer: str | None, last: bool, trails: bool):
        return draw(state, viewer, last_events=events if last else (), before=before if trails else None)

    return drawn


def entitled_pictures(drawn, side: str, draw=render) -> set:
    """Every picture ``side``'s player may see of this moment (``drawn``: its :func:`drawings`):
    their side's or the spectators', with the last action drawn (its trails, or none) or without;
    with ``draw=describe``, every description of them."""
    ways = ((True, True), (True, False), (False, False))
    return {drawn(draw, viewer, last, trails) for viewer in (side, None) for last, trails in ways}


async def check_step(table: Table) -> int:
    """What each player read during the last step names no enemy unit still hidden, and every
    picture is one drawn for them or for spectators. Returns how many of the referee's and the
    enemies' pictures of this moment would not have passed (so the check has teeth)."""
    state = await table.bot.games.game(CHANNEL)
    _, history = await table.bot.games.store.history(CHANNEL)
    events = history[-1][1]
    drawn = drawings(state, events, table.before)
    would_fail = 0
    for user, side in SIDE_OF.items():
        now = [r for r in table.read[user] if r.step == table.step]
        secrets = hidden_from(state, side)
        assert [(text, word) for r in now for text in r.words for word in secrets if said(word, text)] == []
        allowed = entitled_pictures(drawn, side)
        assert [p in allowed for r in now for p in r.pictures] == [True for r in now for _ in r.pictures]
        told = entitled_pictures(drawn, side, draw=describe)
        assert [d for r in now for d in r.descriptions if d not in told] == []
        others = {drawn(render, v, True, False) for v in (REFEREE, state.other_side(side))}
        would_fail += len(others - allowed)
        others = {drawn(describe, v, True, False) for v in (REFEREE, state.other_side(side))}
        would_fail += len(others - told)
    table.before = state
    return would_fail


async def test_no_player_reads_anything_their_side_may_not_know(tmp_path, monkeypatch):
    bot, discord = await open_bot(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", monkeypatch)
    discord.app_permissions = THREADS
    seeds = count(1)
    bot.games.dice = lambda: SeededDice(next(seeds))
    table = Table(bot, discord)
    await build_forces(table)
    battle = scenario_battle("capture", "village", attacker="axis")
    battle.referees = [REF]
    await bot.games.new_game(CHANNEL, battle, 120, ANN)
    await table.slash("game join", ANN, side="allies", force="Easy")
    await table.slash("game join", OTTO, side="axis", force="KG")
    assert set(table.threads) == {"allies", "axis", REFEREE}  # opened as the set-up begins
    for what, options in SIDE_ONLY_PREPARATION:
        await table.slash(what, REF, **options)
    for user in (ANN, OTTO):
        await table.slash("ref prep list", user)
    rng = random.Random(7)
    hidden_pictures = 0  # pictures of the referee or the enemy that would have been caught
    while (state := await bot.games.game(CHANNEL)).phase is not Phase.OVER and table.step < STEPS:
        table.step += 1
        if state.deployment is not None and whose_turn(state.deployment):
            await set_up_one(table, state, rng)
        elif state.turn == 0:
            await table.slash("game start", OTTO)
        else:
            await random_step(table, rng)
        if table.step % 10 == 0:
            for user in (ANN, OTTO):
                for view in ("game map", "game log", "game status"):
                    await table.slash(view, user)
        hidden_pictures += await check_step(table)

    _, history = await bot.games.store.history(CHANNEL)
    every_event = [event for _, events in history for event in events]
    final = await bot.games.game(CHANNEL)
    for user, side in SIDE_OF.items():
        texts = [text for r in table.read[user] for text in r.words]
        assert [(t, w) for t in texts for w in hidden_from(final, side) if said(w, t)] == []
        assert [(t, secret) for t in texts for secret in untold(every_event, side) if secret in t] == []
    # the allies' dummies are told apart from their units in their own pictures' descriptions only
    dummies_told = {
        user: any("Dummy markers" in d for r in table.read[user] for d in r.descriptions)
        for user in (ANN, OTTO, REF)
    }
    assert dummies_told == {ANN: True, OTTO: False, REF: True}
    # the test has teeth: allies hid things from axis, and allies' player and the referee read them
    kept_from_axis = untold([e for e in every_event if e.side == "allies"], "axis")
    assert final.turn >= 2 and len(kept_from_axis) >= 5 and hidden_pictures > 0
    for reader in (ANN, REF):
        everything_read = "\n".join(r.text for r in table.read[reader])
        assert [secret for secret in kept_from_axis if secret not in everything_read] == []
    # the referee's side-only preparation reached its side and no one else
    read_by = {user: "\n".join(r.text for r in table.read[user]) for user in (ANN, OTTO, REF)}
    for word, readers in (("Ostwind", {OTTO, REF}), ("Zephyr", {REF}), ("Wolfsschanze", {ANN, REF})):
        assert {user for user, text in read_by.items() if word in text} == readers
    assert said("Quarry", read_by[OTTO]) and not said("Quarry", read_by[ANN])
    await close_bot(bot)
