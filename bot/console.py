"""The offline console table: the slash commands typed as text, one game, hot-seat.

Every command acts for the side the game is waiting for, as two players sharing a keyboard
would. Lines look like the Discord commands: ``/act sherman-1 move:20,14 fire:panzer-iv``.
"""

from __future__ import annotations

import asyncio
import logging
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from bot.services.game_service import GameError, GameService, Outcome
from bot.storage.store import GameStore
from bot.text_orders import find_unit, parse_move, parse_path, parse_point
from engine.commands import (
    ChooseInitiative,
    ChooseTarget,
    Command,
    Concede,
    Declare,
    DeclineReaction,
    Disembark,
    Embark,
    FallBackOrder,
    Fire,
    LaySmoke,
    MoraleTestOrder,
    Move,
    Order,
    PassInitiative,
    React,
    RemoveMarkers,
    StartGame,
    UnitOrder,
)
from engine.dice import DiceSource, SeededDice
from engine.errors import IllegalCommand
from engine.game import awaiting
from engine.game_state import GameState
from engine.state import Phase
from renderer import render

log = logging.getLogger(__name__)

HELP = """\
Commands (they act for the side the game is waiting for):
  /start                         roll initiative and begin
  /initiative first|pass         the initiative winner chooses
  /act UNIT [move:X,Y[;X,Y]] [rapid] [road] [reverse] [fire:TARGET] [smoke]
       [embark:TRANSPORT] [disembark:X,Y] [then:fire]  (actions in the order written)
  /cmt                           Company Morale Test
  /fallback UNIT to:X,Y [reverse]
  /pass                          pass the initiative
  /react UNIT ...   /react cmt   /react fallback UNIT to:X,Y   /noreact
  /choose UNIT|none              answer a choice (markers to remove, new target)
  /status   /units   /log   /concede   /new (after a game ends)   /help   /quit
Units and targets are named by id (shown in /units). Positions are table inches x,y."""


class ConsoleTable:
    """The console's game: one channel ("console") in the same store and service as Discord."""

    CHANNEL = "console"
    PLAYER = "console"

    def __init__(self, service: GameService, state: GameState, pictures: Path | None = None) -> None:
        self.service = service
        self.state = state
        self.log: list[str] = []
        self.pictures = pictures

    @classmethod
    async def open(cls, service: GameService) -> tuple[ConsoleTable, bool]:
        """Resume the unfinished console game, or set up a new quick battle."""
        try:
            state = await service.game(cls.CHANNEL)
            resumed = state.phase is not Phase.OVER
        except GameError:
            resumed = False
        if not resumed:
            state = (await service.new_game(cls.CHANNEL)).state
        table = cls(service, state)
        if resumed:
            _, history = await service.store.history(cls.CHANNEL)
            table.log = [event.text for _, events in history for event in events]
        return table, resumed

    # -- parsing ---------------------------------------------------------------------------

    def unit_id(self, name: str) -> str:
        return find_unit(self.state, name)

    def unit_order(self, words: list[str]) -> UnitOrder:
        if not words:
            raise IllegalCommand("Name the unit: /act UNIT move:X,Y fire:TARGET")
        unit = self.unit_id(words[0])
        flags = {w for w in words[1:] if ":" not in w}
        actions = []
        for word in words[1:]:
            key, _, value = word.partition(":")
            if key == "move":
                actions.append(
                    Move(
                        path=parse_move(self.state, unit, value),
                        rapid="rapid" in flags,
                        road="road" in flags,
                        reverse="reverse" in flags,
                    )
                )
            elif key == "fire":
                actions.append(Fire(target=self.unit_id(value)))
            elif key == "embark":
                actions.append(Embark(transport=self.unit_id(value)))
            elif key == "disembark":
                actions.append(Disembark(to=parse_point(value)))
            elif key == "smoke" or word == "smoke":
                actions.append(LaySmoke())
            elif word not in ("rapid", "road", "reverse"):
                raise IllegalCommand(f"I don't understand {word!r} (see /help)")
        return UnitOrder(unit=unit, actions=tuple(actions))

    def fall_back(self, words: list[str]) -> FallBackOrder:
        if not words:
            raise IllegalCommand("Name the unit: /fallback UNIT to:X,Y")
        to = [w.partition(":")[2] for w in words[1:] if w.startswith("to:")]
        if not to:
            raise IllegalCommand("Say where to: /fallback UNIT to:X,Y")
        return FallBackOrder(unit=self.unit_id(words[0]), path=parse_path(to[0]), reverse="reverse" in words)

    def parse(self, line: str) -> Command | None:
        words = shlex.split(line)
        if not words:
            return None
        verb, args = words[0].lstrip("/").casefold(), words[1:]
        side = awaiting(self.state) or ""
        if verb in ("act", "fallback", "react") and args and args[0] not in ("cmt", "fallback"):
            side = self.state.units[self.unit_id(args[0])].side
        elif verb == "react" and args[1:] and args[0] == "fallback":
            side = self.state.units[self.unit_id(args[1])].side
        if verb == "start":
            return StartGame()
        if verb == "initiative":
            return ChooseInitiative(side=side, go_first=bool(args) and args[0] == "first")
        if verb == "act":
            return Declare(side=side, order=self.unit_order(args))
        if verb == "cmt":
            return Declare(side=side, order=MoraleTestOrder())
        if verb == "fallback":
            return Declare(side=side, order=self.fall_back(args))
        if verb == "pass":
            return PassInitiative(side=side)
        if verb == "concede":
            return Concede(side=side)
        if verb in ("react", "noreact"):
            pending = self.state.pending
            if pending is None or self.state.phase is not Phase.REACTION:
                raise IllegalCommand("No reaction window is open")
            if verb == "noreact":
                return DeclineReaction(side=side, window=pending.window)
            order: Order
            if args[:1] == ["cmt"]:
                order = MoraleTestOrder()
            elif args[:1] == ["fallback"]:
                order = self.fall_back(args[1:])
            else:
                order = self.unit_order(args)
            return React(side=side, window=pending.window, order=order)
        if verb == "choose":
            choice = self.state.pending.choice if self.state.pending else None
            if choice is None:
                raise IllegalCommand("Nothing is waiting to be chosen")
            target = None if not args or args[0] == "none" else self.unit_id(args[0])
            if choice.kind == "remove_markers":
                if target is None:
                    raise IllegalCommand("Choose the unit that loses its markers")
                return RemoveMarkers(side=side, unit=target)
            return ChooseTarget(side=side, target=target)
        raise IllegalCommand(f"Unknown command /{verb}: see /help")

    # -- views -----------------------------------------------------------------------------

    def status(self) -> str:
        s = self.state
        sides = ", ".join(f"{name} ({side.nation}) {side.tokens} tokens" for name, side in s.sides.items())
        lines = [f"Turn {s.turn}, phase {s.phase.value}; {sides}"]
        if s.active_side:
            lines.append(f"Active: {s.active_side}")
        waiting = awaiting(s)
        if waiting:
            lines.append(f"Waiting for: {waiting}")
        if s.pending and s.pending.choice:
            lines.append(f"Choose one of: {', '.join(s.pending.choice.options)} (/choose)")
        if s.result:
            lines.append(f"Result: {s.result.winner or 'draw'} ({s.result.reason})")
        return "\n".join(lines)

    def units(self) -> str:
        rows = []
        for unit in sorted(self.state.units.values(), key=lambda u: (u.side, u.id)):
            status = (
                "destroyed"
                if unit.destroyed
                else (
                    f"at {unit.position} facing {unit.facing:.0f}, {unit.morale_markers} markers, "
                    f"{unit.tokens} tokens" + (" [command]" if unit.is_command else "")
                )
            )
            rows.append(f"  {unit.side:7} {unit.id:22} {unit.profile.name:28} {status}")
        return "\n".join(rows)

    # -- the loop --------------------------------------------------------------------------

    async def handle(self, line: str) -> str:
        verb = line.strip().split(" ", 1)[0].lstrip("/").casefold()
        views: dict[str, Callable[[], str]] = {
            "help": lambda: HELP,
            "status": self.status,
            "units": self.units,
            "log": lambda: "\n".join(self.log[-30:]) or "Nothing has happened yet",
        }
        if verb in views:
            return views[verb]()
        if verb == "new":
            try:
                self.state = (await self.service.new_game(self.CHANNEL)).state
            except GameError as problem:
                return f"Not allowed: {problem}"
            self.log = []
            return "A new quick battle is set up: /start to roll for the initiative"
        try:
            command = self.parse(line)
            if command is None:
                return ""
            outcome = await self.service.act(self.CHANNEL, self.PLAYER, command)
        except (IllegalCommand, GameError) as problem:
            return f"Not allowed: {problem}"
        except Exception:
            log.exception("console command failed: %s", line)
            return "Something went wrong on our side; the game was not changed."
        self.state = outcome.state
        lines = [event.text for event in outcome.events]
        self.log.extend(lines)
        return "\n".join(lines + ["", self.status()] + await self.save_picture(outcome))

    async def save_picture(self, outcome: Outcome) -> list[str]:
        """Draw the table after the action (off the event loop) to ``pictures/latest.png``."""
        if self.pictures is None:
            return []
        png = await asyncio.to_thread(render, outcome.state, None, last_events=tuple(outcome.events))
        self.pictures.mkdir(parents=True, exist_ok=True)
        target = self.pictures / "latest.png"
        target.write_bytes(png)
        return [f"Picture: {target}"]


async def play_console(
    stdin: TextIO,
    stdout: TextIO,
    database_url: str,
    dice: Callable[[], DiceSource] = SeededDice,
    pictures: Path | None = None,
) -> int:
    store = await GameStore.open(database_url)

    async def window_closed(channel_id: str, outcome: Outcome) -> None:
        table.state = outcome.state
        lines = [event.text for event in outcome.events]
        table.log.extend(lines)
        stdout.write("\n[the reaction window closed]\n" + "\n".join(lines + ["", table.status()]) + "\n")
        stdout.flush()

    service = GameService(store, dice, on_window_closed=window_closed)
    try:
        table, resumed = await ConsoleTable.open(service)
        table.pictures = pictures
        await service.resume()
        stdout.write("Iron Cross console table: a quick battle, US (allies) against German (axis).\n")
        if resumed:
            stdout.write(f"Resuming the game in progress.\n{table.status()}\n")
        stdout.write("Type /help for the commands, /units for the forces, /start to begin.\n")
        prompt = stdin.isatty()
        if prompt:
            stdout.write("> ")
            stdout.flush()
        while line := await asyncio.to_thread(stdin.readline):
            line = line.strip()
            if line in ("/quit", "/exit", "quit", "exit"):
                break
            if line:
                stdout.write(await table.handle(line) + "\n")
            if prompt:
                stdout.write("> ")
            stdout.flush()
    finally:
        await service.close()
        await store.close()
    return 0


def run_console(stdin: TextIO, stdout: TextIO, database_url: str, pictures: Path | None = None) -> int:
    return asyncio.run(play_console(stdin, stdout, database_url, pictures=pictures))
