"""The offline console table: the slash commands typed as text, one game, hot-seat.

Lines look like the Discord commands: ``/act unit:"Sherman 1" move:20,14 fire:panzer-iv``.
Until players join, each command acts for the side the game is waiting for (or for its unit's
side), as two players sharing a keyboard would; ``as <player>`` speaks for a joined player.
"""

from __future__ import annotations

import asyncio
import logging
import shlex
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

from bot.app import Notices, Services
from bot.console_campaign import CampaignDesk
from bot.console_grammar import Line, subcommands
from bot.console_help import command_list
from bot.console_next import next_line
from bot.console_owed import OwedDesk
from bot.console_team import bonus_pairs, discord_options
from bot.game_status import game_status
from bot.handlers import FORM_FILE, HANDLERS, PASTED
from bot.handlers.ask import Answer, Ask, Person, Picture, ServerRole, ServiceChange, SetUp, TextFile, Upload
from bot.handlers.games import game_replay
from bot.handlers.teams import bonus_given
from bot.plain_text import plain_refusal, plain_reply
from bot.play_orders import PLAY_ORDERS
from bot.reply import Reply
from bot.services.deadline_loop import DeadlineLoop
from bot.services.game_service import (
    GameError,
    Outcome,
)
from bot.services.limits import (
    bounded_text,
    quoted,
)
from bot.services.next_steps import waits_for
from bot.services.rules_service import MAX_BYTES
from bot.services.stand_in_service import PLAYS
from bot.set_up_done import ConfirmFirst
from bot.set_up_steps import how_to_join, set_up_steps
from bot.storage.in_use import bot_running_on
from bot.storage.store import GameStore
from bot.text_orders import (
    find_unit,
)
from engine.commands import (
    Command,
)
from engine.dice import DiceSource, SeededDice
from engine.errors import IllegalCommand
from engine.events import Event
from engine.game import awaiting
from engine.game_state import GameState
from engine.state import STAND_IN, Phase
from engine.view import REFEREE, SPECTATORS, audience_of, events_for, kept_from_spectators, names_for, sees
from engine.wording import counted, side_name
from renderer import render

log = logging.getLogger(__name__)
FINISHED_KEPT = (
    "The last game is over: /game replay tells its story, /stats its dice; /game new starts another."
)
CONSOLE_PAGE = 100_000  # a terminal takes the chart list in one piece
NAMED_LINE = 60  # the longest line a refusal repeats with a player's name before it


def typed_file(typed: str) -> Path:
    """The file a console line names, there and no larger than the rules library takes."""
    path = Path(bounded_text("A file name", typed, 1000)).expanduser()
    try:
        size = path.stat().st_size if path.is_file() else None
    except OSError:
        size = None
    if size is None:
        raise IllegalCommand(f"There is no file {quoted(str(path))}")
    if size > MAX_BYTES:
        raise IllegalCommand(f"{path.name} is {size / 1e6:.1f} MB; the limit is {MAX_BYTES / 1e6:.0f} MB")
    return path


class ConsoleTable:
    """The console's game: one channel ("console") in the same store and service as Discord."""

    CHANNEL = "console"
    PLAYER = "console"

    def __init__(self, services: Services, state: GameState, pictures: Path | None = None) -> None:
        self.services = services
        self.service = services.games
        self.dice, self.rules, self.forces = services.dice, services.rules, services.forces
        self.decks = services.cards
        self.campaigns = CampaignDesk(services, on_battle=self.new_battle)
        self.owed = OwedDesk(services, self.CHANNEL)
        self.state = state
        self.log: list[Event] = []
        self.pictures = pictures
        self.out: TextIO | None = None  # where what happens between lines is written as it comes
        self.stood_in: list[str] = []  # what the stand-in did since the line typed, to tell with it
        self.played: Outcome | None = None  # the stand-in's last turn since then, drawn with it
        self.speaker = self.PLAYER  # who typed the last line read: that turn is drawn for them
        campaigns = self.campaigns
        services.tell(
            Notices(
                window_closed=self.window_closed,
                deadline_passed=self.deadline_passed,
                ping=self.owed.ping,
                reminder=campaigns.remind,
                reveal=campaigns.reveal,
                carried=campaigns.carried,
                battle=campaigns.battle,
                stand_in_acted=self.stand_in_acted,
            )
        )

    @classmethod
    async def open(cls, services: Services) -> tuple[ConsoleTable, bool]:
        """Resume the console's game, finished or not (a finished one stays to be read, its log,
        replay and dice, until /game new replaces it), or set up a new quick battle."""
        service = services.games
        try:
            state = await service.game(cls.CHANNEL)
        except GameError:
            return cls(services, (await service.new_game(cls.CHANNEL)).state), False
        table = cls(services, state)
        _, history = await service.history(cls.CHANNEL)
        table.log = [event for _, events in history for event in events]
        return table, True

    async def window_closed(self, channel_id: str, outcome: Outcome) -> None:
        """A reaction window closed by its timer: what it did, and the game's status."""
        self.state = outcome.state
        self.log.extend(outcome.events)
        lines = self.news(self.reader(None), outcome.events)
        self.write(
            "\n[the reaction window closed]\n" + "\n".join([*lines, "", self.status(self.reader(None))])
        )

    async def stand_in_acted(self, channel_id: str, heading: str, outcome: Outcome) -> None:
        """The stand-in played a turn: told with the line that led to it, as everyone sees it, the
        table drawn after its last for whoever typed that line (:meth:`handle`). A side it took
        over or handed back by itself is written as it comes, with a line of its own (before the
        answer to the returning player's line)."""
        self.state = outcome.state
        self.log.extend(outcome.events)
        lines = self.news(self.reader(None), outcome.events)
        if heading == PLAYS:
            self.stood_in.extend(lines)
            self.played = outcome
        else:
            self.write("\n".join([f"\n[{heading[:-1].lower()}]", *lines]))

    async def deadline_passed(self, channel_id: str, text: str, outcome: Outcome | None) -> None:
        """A referee's deadline fell: said, with what the game did."""
        lines = []
        if outcome is not None:
            self.state = outcome.state
            self.log.extend(outcome.events)
            lines = self.news(self.reader(None), outcome.events)
        self.write("\n".join([f"\n[{text}]", *lines]))

    def write(self, notice: str) -> None:
        """A notice written as it comes (none before the table has somewhere to write it)."""
        if self.out is not None:
            self.out.write(notice + "\n")
            self.out.flush()

    def new_battle(self, outcome: Outcome) -> None:
        """A battle set up elsewhere (a linked campaign's) becomes the table's game."""
        self.state, self.log = outcome.state, []

    # -- parsing ---------------------------------------------------------------------------

    def acting_side(self, line: Line) -> str:
        """The side the player joined, else (hot-seat) the side of the unit named, else the one
        awaited."""
        joined = [name for name, side in self.state.sides.items() if line.player in side.players]
        if joined:
            return joined[0]
        named = line.named_unit()
        if line.verb in ("act", "fallback", "react") and named:
            return self.state.units[find_unit(self.state, named, first=awaiting(self.state))].side
        return awaiting(self.state) or ""

    def reader(self, player: str | None) -> str | None:
        """Who reads a reply: the player's side once joined; the referee at a hot-seat table that
        nobody has joined (one keyboard plays both sides); otherwise the channel at large."""
        audience = audience_of(self.state, player) if player is not None else SPECTATORS
        if audience is SPECTATORS and not any(side.players for side in self.state.sides.values()):
            return REFEREE
        return audience

    def news(self, reader: str | None, events: Sequence[Event]) -> list[str]:
        """What ``reader`` is told of these events, then, the table being a trusted hot seat, what
        each other side alone was told, under a header naming it (its hidden units, its hand of
        cards, its commanding officer's bonus tokens): nothing is lost for want of a thread."""
        lines = events_for(reader, events)
        if reader == REFEREE:
            return lines  # the referee was told everything
        for side in self.state.sides:
            if side != reader and (theirs := events_for(side, kept_from_spectators(side, events))):
                lines += [f"[for {side_name(side)} only]", *theirs]
        return lines

    def parse(self, line: Line) -> Command:
        verb, side = line.verb, self.acting_side(line)
        if verb in PLAY_ORDERS and side not in self.state.sides:
            raise IllegalCommand(how_to_join(self.state))
        if verb in PLAY_ORDERS and line.spec is not None and line.spec.path == verb:  # as the slash command
            return PLAY_ORDERS[verb](self.state, side, player=line.player, **line.typed())
        raise IllegalCommand(f"Unknown command /{verb}: see /help")

    # -- handled commands ------------------------------------------------------------------

    def ask(self, line: Line) -> Ask:
        """Who asks, as the console knows them: the line's player, in the console's channel, with
        the console's own forces, tables, decks and library (which the player manages); the
        game's referees referee its dice."""
        return Ask(
            services=self.services,
            channel=self.CHANNEL,
            user=line.player,
            owner=self.CHANNEL,
            page=CONSOLE_PAGE,
            written=plain_reply,
            seat=lambda state: self.seat(state, line.player),
            acting=lambda state: self.acting(state, line),
            eyes=lambda state: self.eyes(state, line),
            name_of=lambda player: player,
            users_in=lambda typed: [name.strip() for name in typed.split(",") if name.strip()],
            moderator=line.player in self.state.referees,
            manager=True,
        )

    def seat(self, state: GameState, player: str) -> str | None:
        """The side whose units ``player`` names and looks with: their own once joined; any for
        the referee, or the one keyboard of a hot-seat table nobody has joined."""
        reader = self.reader(player)
        if reader in state.sides:
            return reader
        if reader == REFEREE:
            return None
        raise IllegalCommand(how_to_join(state))

    def eyes(self, state: GameState, line: Line) -> str | None:
        """Whose eyes the line's player reads the game with (:meth:`reader`); one who has joined
        no side may name one to look with (``side:``, the console's own option)."""
        looking = line.options.get("side")
        if looking is None or audience_of(state, line.player) is not SPECTATORS:
            return self.reader(line.player)
        if looking not in state.sides:
            raise IllegalCommand(f"There is no side {quoted(looking)}: allies or axis")
        return looking

    def acting(self, state: GameState, line: Line) -> str:
        """The side the line gives orders for (:meth:`acting_side`), refusing one who plays none."""
        side = self.acting_side(line)
        if side not in state.sides:
            raise IllegalCommand(how_to_join(state))
        return side

    async def handled(self, line: Line) -> str:
        """A command carried out by its handler (:mod:`bot.handlers`), as the slash command is:
        its options read as Discord reads them (the console's shorthands written out as
        Discord's options), a file named where Discord takes an upload, a player by name where it
        takes a user; a picture of its answer written to the pictures folder (when pictures are
        on), a text file printed."""
        assert line.spec is not None
        line = discord_options(line)
        if (shares := bonus_pairs(line)) is not None:  # /team give ann:1 bob:3, given at once
            return await self.answered(line, bonus_given(self.ask(line), shares))
        handler, options = HANDLERS[line.spec.path], line.typed()
        for option in line.spec.shared():
            if option.kind == "attachment" and options[option.name] is not None:
                path = typed_file(str(options[option.name]))
                options[option.name] = Upload(path.name, path.read_bytes())
            if option.kind == "user" and options[option.name] is not None:
                options[option.name] = Person(str(options[option.name]))
            if option.kind == "role" and options[option.name] is not None:
                options[option.name] = ServerRole(str(options[option.name]))
        if (file := line.spec.option(FORM_FILE)) is not None and file.console_only:
            if FORM_FILE not in line.options:
                raise IllegalCommand(f"Name the file to read: /{line.spec.path} file:FILE")
            options[PASTED] = typed_file(line.options[FORM_FILE]).read_text(encoding="utf-8")
        return await self.answered(line, await handler(self.ask(line), **options))

    async def answered(self, line: Line, answer: Answer) -> str:
        """A handler's answer, as the console shows it: a change to the game made as the line's
        player and its outcome shown; replies in plain text, pictures written to their files, text
        files printed."""
        if isinstance(answer, ServiceChange):
            return await self.shown(line, await answer.make(None))
        if isinstance(answer, SetUp):
            outcome = await answer.make(None)
            self.state, self.log = outcome.state, []
            return f"{plain_reply(answer.announced)}\n{set_up_steps(self.state)}"
        if callable(answer):
            return await self.shown(line, await self.service.act(self.CHANNEL, line.player, answer))
        waiting = [*self.owed.waiting_pings(), *self.campaigns.waiting_notices()]  # what waited for a reply
        return "\n\n".join([*waiting, *self.written(answer), *self.afterword(line)])

    def written(self, answer: Reply | tuple[Reply | Picture | TextFile, ...]) -> list[str]:
        """Replies in plain text, pictures written to their files (when pictures are on), text
        files printed."""
        written = []
        for part in answer if isinstance(answer, tuple) else (answer,):
            if isinstance(part, Picture):
                if self.pictures is not None:  # else pictures are off at this table
                    written.append(f"Picture: {self._write(part.name, part.image)}")
            elif isinstance(part, TextFile):
                written.append(part.text)
            else:
                written.append(plain_reply(part, self.service.clock.now()))
        return written

    def afterword(self, line: Line) -> list[str]:
        """What the console adds to an answer, having no buttons or command picker: after the
        status, the commands that take the game on; after the first help page, every command."""
        assert line.spec is not None
        if line.spec.path == "game status":
            steps = next_line(waits_for(self.state))
            return [steps] if steps else []
        if line.spec.path == "help" and not line.gives("topic"):
            return [command_list()]
        return []

    # -- views -----------------------------------------------------------------------------

    def status(self, reader: str | None = None) -> str:
        """The game's status, then the commands that take the game on (its "Next:" line)."""
        steps = next_line(waits_for(self.state))
        return plain_reply(game_status(self.state, reader)) + (f"\n{steps}" if steps else "")

    def units(self, reader: str | None) -> str:
        """Every unit the reader may know; an enemy hidden marker only by its number and place."""
        rows = []
        for unit in sorted(self.state.units.values(), key=lambda u: (u.side, u.marker or 0, u.id)):
            if not sees(unit, reader):
                for label in names_for(unit, reader):
                    rows.append(f"  {unit.side:7} {label:22} {'hidden marker':28} at {unit.position}")
                continue
            if unit.dummy and unit.destroyed:
                continue
            status = (
                "destroyed"
                if unit.destroyed
                else "off the table"
                if unit.in_reserve
                else (
                    f"at {unit.position} facing {unit.facing:.0f}, {counted(unit.morale_markers, 'marker')}, "
                    f"{counted(unit.tokens, 'token')}" + (" [command]" if unit.is_command else "")
                )
            )
            what = unit.profile.name + (f" ({unit.true_name}, {unit.name})" if unit.true_name else "")
            rows.append(f"  {unit.side:7} {unit.id:22} {what:28} {status}")
        return "\n".join(rows)

    # -- the loop --------------------------------------------------------------------------

    async def handle(self, text: str) -> str:
        """The answer to a typed line, and then what the stand-in played after it, if it plays a
        side."""
        said = await self._answer(text)
        await self.services.stand_ins.settled()
        if not self.stood_in:
            return said
        told, self.stood_in = self.stood_in, []
        played, self.played = self.played, None
        picture = [] if played is None else await self.save_picture(played, self.speaker)
        return "\n".join(
            [said, "", "[the stand-in plays]", *told, "", self.status(self.reader(None)), *picture]
        )

    async def _answer(self, text: str) -> str:
        self.speaker = self.PLAYER
        line = None
        try:
            line = Line.read(text, self.PLAYER)
            if line is None:
                return ""
            self.speaker = line.player
            if line.spec is not None and line.spec.path in HANDLERS:
                return await self.handled(line)
            group = subcommands(line.verb) if line.spec is None else {}
            if group and all(spec.path in HANDLERS for spec in group.values()):
                *most, last = group
                raise IllegalCommand(f"Try {', '.join(most)} or {last}")
            if line.verb == "units":
                return self.units(self.reader(line.player))
            outcome = await self.service.act(self.CHANNEL, line.player, self.parse(line))
        except ConfirmFirst as asked:  # the second step to type, not a refusal
            return asked.question
        except (IllegalCommand, GameError, ValueError) as problem:
            return f"Not allowed: {plain_refusal(problem)}" + self._name_first(line, text)
        except Exception:
            log.exception("console command failed: %s", text)
            return "Something went wrong on our side; the game was not changed."
        return await self.shown(line, outcome)

    def _name_first(self, line: Line | None, text: str) -> str:
        """For a known command refused that named nobody, at a table where people have joined
        (so the table's own player is neither a player nor a referee): how they type it, under
        the names of the players (of the referees, for a ``/ref`` command)."""
        if line is None or line.spec is None or line.player != self.PLAYER:
            return ""
        referees = self.state.referees
        players = [p for side in self.state.sides.values() for p in side.players if p != STAND_IN]
        if self.PLAYER in players or self.PLAYER in referees:
            return ""
        names = referees if line.spec.path.split()[0] == "ref" else players
        if not names:
            return ""
        typed = text.strip() if len(text.strip()) <= NAMED_LINE else "..."
        named = " or ".join(f"as {shlex.quote(name)} {typed}" for name in names)
        return f"\nAt this table each line starts with who types it: {named}"

    async def shown(self, line: Line, outcome: Outcome) -> str:
        """What the line's player is told of an action: the news, the status, the picture, and at
        the game's end its story."""
        self.state = outcome.state
        self.log.extend(outcome.events)
        reader = self.reader(line.player)
        lines = self.news(reader, outcome.events)
        over = outcome.state.phase is Phase.OVER and outcome.before and outcome.before.phase is not Phase.OVER
        story = [await self.told_story(line)] if over else []
        picture = await self.save_picture(outcome, line.player)
        return "\n".join(lines + ["", self.status(reader)] + picture + story)

    async def save_picture(self, outcome: Outcome, player: str) -> list[str]:
        """Draw the table after the action (off the event loop) to ``pictures/latest.png``, as the
        outcome pictures it for the player's audience (their side's, a referee's; the spectators'
        at a hot-seat table that nobody has joined)."""
        if self.pictures is None:
            return []
        viewer = outcome.picture_for(audience_of(outcome.state, player))
        png = await asyncio.to_thread(
            render, outcome.state, viewer, last_events=tuple(outcome.events), before=outcome.before
        )
        return [f"Picture: {self._write('latest', png)}"]

    async def told_story(self, line: Line) -> str:
        """The story at the game's end, as ``/game replay`` tells it (its replay written to the
        pictures folder): the game stands whatever becomes of it."""
        try:
            return "\n\n".join(self.written(await game_replay(self.ask(line))))
        except Exception:
            log.exception("could not make the story of the game")
            return "The battle's story could not be made (/game replay tries again)."

    def _write(self, name: str, picture: bytes) -> Path:
        """Write a picture to the pictures folder (``name``: with its suffix, else a PNG)."""
        assert self.pictures is not None
        self.pictures.mkdir(parents=True, exist_ok=True)
        target = self.pictures / (name if "." in name else f"{name}.png")
        target.write_bytes(picture)
        return target


async def play_console(
    stdin: TextIO,
    stdout: TextIO,
    database_url: str,
    dice: Callable[[], DiceSource] = SeededDice,
    pictures: Path | None = None,
) -> int:
    store = await GameStore.open(database_url)

    services = Services.start(store, dice)
    service = services.games
    # what fell due while the console was down, or was left by a process that died before
    # telling it, and what falls free while it runs: claimed and told as the Discord client does
    deadlines = DeadlineLoop(service, services.pings, services.campaigns)
    try:
        table, resumed = await ConsoleTable.open(services)
        table.pictures, table.out = pictures, stdout
        await table.rules.ship()
        await service.resume()
        await services.stand_ins.resume()
        await table.campaigns.open(stdout)
        await table.owed.open(stdout)
        stdout.write("Iron Cross console table.\n")
        await deadlines.caught_up()
        deadlines.start()
        if resumed and table.state.phase is Phase.OVER:
            stdout.write(f"{FINISHED_KEPT}\n{table.status(table.reader(None))}\n")
        elif resumed:
            stdout.write(f"Resuming the game in progress.\n{table.status(table.reader(None))}\n")
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
        await table.campaigns.close()
        await table.owed.close()
    finally:
        await deadlines.close()
        await services.stand_ins.close()
        await service.close()
        await store.close()
    return 0


def run_console(stdin: TextIO, stdout: TextIO, database_url: str, pictures: Path | None = None) -> int:
    """The console table until its input ends, marked as a bot running on its database (a
    restore is refused meanwhile)."""

    async def marked() -> int:
        async with bot_running_on(database_url):
            return await play_console(stdin, stdout, database_url, pictures=pictures)

    return asyncio.run(marked())
