"""A table of two players who play a whole battle by taps alone, through the real command tree:
every card's buttons and menus, every order and reaction built step by step in private.

It keeps count of what a phone player would meet: each Confirm the engine refused (the menus
should never lead to one), each dead end (a private step with nothing to tap and no reason
given), and which kinds of order and reaction were declared. Its choices are random, seeded, with
an optional list of reactions to try first, so a test can ask for every kind at least once.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from bot.discord_adapter.action_card import next_steps
from bot.discord_adapter.client import IronCrossBot
from bot.discord_adapter.tap_orders import ORDER_BUTTONS
from engine.game_state import GameState
from engine.rulesets import with_rule_set
from engine.scenarios.quick_battle import quick_battle
from engine.state import Phase
from engine.tables.layout import BattleTable
from tests.bot.discord_harness import ANN, OTTO, Harness, answers_in, buttons, menus, reply

ACTIONS = tuple(action.label for action in ORDER_BUTTONS.values())  # the buttons of what a unit does
CMT = "CMT"
Sent = list[dict[str, Any]]


def unpictured(state, viewer, last_events=(), before=None) -> bytes:
    """The pictures are not what these battles are about: a blank one is drawn at once."""
    return b"\x89PNG\r\n\x1a\n"


def small_battle(ruleset: str, table: str | BattleTable = "crossroads", units: int = 3) -> GameState:
    """The quick battle with its first ``units`` units a side, under ``ruleset``: a whole battle
    in a few hundred taps."""
    state = with_rule_set(quick_battle(table), ruleset)  # which fields the rule set's own units
    kept = {unit.id for side in state.sides for unit in state.units_of(side)[:units]}
    state.units = {unit_id: unit for unit_id, unit in state.units.items() if unit_id in kept}
    return state


async def joined_and_started(bot: IronCrossBot, discord: Harness, battle: GameState) -> Sent:
    """The battle set up in channel 1 (as /game new sets one up), then both sides join and
    start by taps on its card's buttons: the card after the start."""
    outcome = await bot.games.new_game("1", battle)
    new = {item.label: item.to_component_dict() for item in next_steps(outcome, 1)}
    await discord.click(new["Join the Allies"], user=ANN, channel="1")
    joined = buttons(await discord.click(new["Join the Axis"], user=OTTO, channel="1"))
    return await discord.click(joined["Start"], user=OTTO, channel="1")


def public(sent: Sent) -> bool:
    """Whether the channel could read the answer (a result card, not a private step or refusal)."""
    return any(not private for _, private, _ in answers_in(sent))


def side_named(label: str, sides: list[str]) -> str | None:
    """The side a label names first (``Activate (Axis)``, ``Axis: go first``), if any."""
    named = {label.casefold().find(side): side for side in sides if side in label.casefold()}
    return named[min(named)] if named else None


@dataclass
class TapPlayers:
    """Both sides' players (side -> user) at one channel's table."""

    discord: Harness
    players: dict[str, str]
    game: Callable[[], Awaitable[GameState]]
    rng: random.Random
    channel: str = "1"
    wanted: list[str] = field(default_factory=list)  # reactions to try first: action labels, or CMT
    closing_in: bool = False  # moves go toward the enemy, assaults first: for close combat
    declared: Counter = field(default_factory=Counter)  # (activation|reaction, action label)
    refused: list[str] = field(default_factory=list)
    dead_ends: list[str] = field(default_factory=list)
    taps: int = 0

    async def tap(self, item: dict[str, Any], user: str, value: str | None = None) -> Sent:
        self.taps += 1
        if value is None:
            return await self.discord.click(item, user=user, channel=self.channel)
        return await self.discord.choose(item, [value], user=user, channel=self.channel)

    async def play(self, card: Sent, most_taps: int) -> Sent:
        """Answer each public card until the game is over (or ``most_taps`` were tapped): the
        last public answer."""
        while self.taps < most_taps:
            state = await self.game()
            if state.phase is Phase.OVER:
                return card
            card = await self.answer(state, card)
        raise AssertionError(f"the battle was not over after {self.taps} taps")

    async def answer(self, state: GameState, card: Sent) -> Sent:
        """One public answer to the card: whatever the game waits for, by the side it waits for."""
        shown, sides = buttons(card), list(state.sides)
        first = [label for label in shown if label.endswith("go first") or ": let " in label]
        if first:
            label = self.rng.choice(first)
            return await self.tap(shown[label], self.players[side_named(label, sides)])
        for menu in menus(card):  # a choice the game waits for, on the card
            side = side_named(menu["placeholder"], sides)
            return await self.tap(menu, self.players[side], self.rng.choice(menu["options"])["value"])
        if "React" in shown:
            reactor = state.pending.reactor_side
            built = await self.order(reactor, shown["React"], reacting=True)
            return built or await self.tap(shown["No reaction"], self.players[reactor])
        calls = [label for label in shown if label.startswith("No reserves")]
        if calls:
            return await self.tap(shown[calls[0]], self.players[side_named(calls[0], sides)])
        activate = next(label for label in shown if label.startswith("Activate"))
        side = side_named(activate, sides)
        built = await self.order(side, shown[activate], reacting=False)
        if built:
            return built
        other = activate.replace("Activate", "Pass" if state.spent_since_initiative else "CMT")
        return await self.tap(shown[other], self.players[side])

    def actions(self, offered: list[str], reacting: bool) -> list[str]:
        """The actions to try, in order: the wanted reactions first, then the others at random
        (closing in: assaults, then moves)."""
        rest = self.rng.sample(offered, len(offered))
        if self.closing_in:
            rest.sort(key=lambda label: ("assault" not in label.casefold(), "Move" not in label))
        wanted = [label for label in self.wanted if label in offered] if reacting else []
        return wanted + [label for label in rest if label not in wanted]

    async def order(self, side: str, opener: dict[str, Any], reacting: bool) -> Sent | None:
        """An order (or reaction) built by taps from the private unit step and confirmed: its
        public result, or None if no unit found one the side's player would give."""
        user = self.players[side]
        step = await self.tap(opener, user)
        if reacting and CMT in self.wanted:
            cmt = next((b for label, b in buttons(step).items() if label.startswith(CMT)), None)
            if cmt is not None:
                sent = await self.tap(cmt, user)
                if public(sent):
                    self.wanted.remove(CMT)
                    self.declared["reaction", CMT] += 1
                    return sent
        if self.rng.random() < (0.5 if reacting and not self.wanted else 0.1):
            return None  # now and then a side lets the moment go
        units = menus(step)
        if not units:
            return None
        for unit in self.rng.sample(units[0]["options"], min(3, len(units[0]["options"]))):
            chosen = await self.tap(units[0], user, unit["value"])
            offered = [label for label in buttons(chosen) if label in ACTIONS]
            for label in self.actions(offered, reacting)[:3]:
                sent = await self.follow(await self.tap(buttons(chosen)[label], user), user)
                if sent is not None:
                    self.declared["reaction" if reacting else "activation", label] += 1
                    if reacting and label in self.wanted:
                        self.wanted.remove(label)
                    return sent
        return None

    async def follow(self, sent: Sent, user: str) -> Sent | None:
        """The menus of an order's steps, each answered, up to its Confirm: the public result;
        None where a step offers other actions instead (it says why)."""
        while True:
            shown, text = buttons(sent), reply(sent)[0]
            if "Confirm" in shown:
                result = await self.tap(shown["Confirm"], user)
                if public(result):
                    return result
                self.refused.append(f"{text} -> {reply(result)[0]}")
                return None
            found = menus(sent)
            if found:
                options = found[0]["options"]
                toward = [o for o in options if o["value"].startswith("~")]
                pick = self.rng.choice(toward if self.closing_in and toward else options)
                sent = await self.tap(found[0], user, pick["value"])
                continue
            if not any(label in ACTIONS for label in shown):
                self.dead_ends.append(text)
            return None
