"""Every console example in README.md works as written: each is typed into the offline console
on a fresh SQLite database, and no line of it is refused ("Not allowed: ..." or "Something went
wrong ...", the console's answers to a line it cannot apply).

How the examples are read from the README (kept simple on purpose):

- An example is a fenced block, outside the "In Discord" section (whose blocks show Discord's
  own options, names unquoted), whose every non-blank line starts with ``/`` or ``as ``.
- On each line the command ends at the first run of three or more spaces; what follows is its
  explanation and is not typed.
- ``[...]`` marks an optional option: it is typed, without its brackets. ``a|b`` offers
  choices: the first is typed.
- An explanation reading ``... or: COMMAND`` offers an alternative to its line: the block is run
  a second time with that command in the line's place.
- Some blocks suppose what the README says before them (saved forces to bring): PRELUDES types
  those lines first, and they must not be refused either.
- Dice are seeded (``SeededDice(1)`` for each command): the first two d6 are 2 for the allies and
  5 for the axis, so the axis wins the initiative, as the quick battle's example supposes.

The Discord lines (the blocks of "In Discord", and of dice, charts and rules) are typed both
through the real Discord command tree, as Discord's client sends them, and at the console as
written (``as ann``, ``as otto``: the player Discord saw); each answer's first line at the
console must be said in Discord's answer too (Markdown and mentions aside), refusals included.
"""

import io
import re
from pathlib import Path

import pytest

from bot.app import Services
from bot.command_schema import COMMANDS
from bot.console import ConsoleTable, play_console
from bot.services.game_service import GameError, GameService
from bot.storage.store import GameStore
from engine.dice import SeededDice
from engine.game import awaiting
from engine.game_state import GameState
from tests.bot.discord_harness import ANN, OTTO, answers_in, close_bot, open_bot, text_of
from tests.storage.databases import seed_sqlite

README = Path(__file__).resolve().parent.parent / "README.md"
REFUSALS = ("Not allowed:", "Something went wrong")  # the console's two answers to a refused line


def force(player: str, nation: str, name: str, units: list[str]) -> list[str]:
    """The lines that build a saved force of these units, the first one in command."""
    return [
        f"as {player} /force new nation:{nation} name:{name} points:200",
        *[f'as {player} /force add force:{name} unit:"{unit}"' for unit in units],
        f'as {player} /force upgrade force:{name} unit:"{units[0]} 1" command',
    ]


DETACHMENTS = ["Infantry Detachment"] * 3  # the linked campaign's forces, Able and KG
TEAM_FORCES = [  # player, nation, units: each brings a force named F to the team game's example,
    # team-mates the same force, so every name is shared (each player means their own unit)
    ("ann", "us", ["Infantry Detachment", "Infantry Detachment", "Sherman 75mm"]),
    ("bob", "us", ["Infantry Detachment", "Infantry Detachment", "Sherman 75mm"]),
    ("cat", "german", ["Infantry Detachment", "Infantry Detachment", "Panzer IV G (late) to J"]),
    ("dan", "german", ["Infantry Detachment", "Infantry Detachment", "Panzer IV G (late) to J"]),
]
PRELUDES = {
    "/campaign linked new": [
        *force("ann", "us", "Able", DETACHMENTS),
        *force("otto", "german", "KG", DETACHMENTS),
    ],
    "/game new scenario:meeting table:village teams:2": [
        line for player, nation, units in TEAM_FORCES for line in force(player, nation, "F", units)
    ],
}


def typed(line: str) -> tuple[str, str | None]:
    """The command a README line types, and the alternative its explanation offers, if any."""
    command, explanation = (re.split(r" {3,}", line, maxsplit=1) + [""])[:2]
    command = re.sub(r"\[([^\]]*)\]", r"\1", command)
    command = re.sub(r"([\w,.-]+)(\|[\w,.-]+)+", r"\1", command)
    alternative = re.search(r"\.\.\. or: (/.*)$", explanation.strip())
    return command.strip(), alternative and typed(alternative.group(1))[0]


def examples() -> list[tuple[str, list[str]]]:
    """Each console example as (its first line, the lines to type), alternatives as runs of their own."""
    text = README.read_text()
    discord = text.index("\n## In Discord")
    discord_end = text.index("\n## ", discord + 1)
    runs = []
    for block in re.finditer(r"^```[^\n]*\n(.*?)^```", text, re.S | re.M):
        lines = [line for line in block.group(1).splitlines() if line.strip()]
        if discord <= block.start() < discord_end or not lines:
            continue
        if not all(line.startswith(("/", "as ")) for line in lines):
            continue
        parsed = [typed(line) for line in lines]
        prelude = next((p for start, p in PRELUDES.items() if lines[0].startswith(start)), [])
        runs.append((lines[0], prelude + [command for command, _ in parsed]))
        for at, (_, alternative) in enumerate(parsed):
            if alternative:
                swapped = [command for command, _ in parsed]
                swapped[at] = alternative
                runs.append((f"{lines[0]} (or: {alternative})", prelude + swapped))
    return runs


def test_the_readme_examples_are_found_with_their_alternatives():
    firsts = [first for first, _ in examples()]
    assert firsts[:2] == ["/game start", '/game start (or: /react unit:"Sherman 1" fire:"Panzer IV")']
    assert [first.split()[:3] for first in firsts[2:]] == [
        ["/campaign", "new", "name:Barrikady"],
        ["/campaign", "linked", "new"],
        ["/game", "new", "scenario:meeting"],
    ]


@pytest.mark.parametrize(("first", "lines"), [pytest.param(*run, id=run[0][:50]) for run in examples()])
async def test_every_readme_example_works_as_written(tmp_path, first, lines):
    out = io.StringIO()
    url = f"sqlite+aiosqlite:///{tmp_path / 'readme.db'}"
    await play_console(io.StringIO("\n".join(lines) + "\n"), out, url, dice=lambda: SeededDice(1))
    answers = out.getvalue()
    refused = [line for line in answers.splitlines() if line.startswith(REFUSALS)]
    assert not refused, f"{first}\n{answers}"


# -- the Discord lines, at the console ---------------------------------------------------------

PLAYERS = {ANN: "ann", OTTO: "otto"}  # the two players, by their Discord ids
FOLLOW_UPS = {  # what a Discord line's explanation has the players type next
    "/game join side:allies": ["/game join side:axis"],
    "/game start": ["/initiative choice:start"],
}
NOT_COMPARED = {  # Discord lines the console gives by other means: a file for a form or an upload
    "/cards deck name:Generic": "Discord takes the cards in a form, the console from a file (file:)",
    "/rules import document:<file.txt> name:ASL": "Discord takes an upload, the console a file name",
}
DISCORD_SECTIONS = ("In Discord", "Dice, charts, odds and rules, with or without a game")
DISCORD_PRELUDES = {  # what a block supposes the channel has already done
    "/roll dice:2d10 5+ Panther at Sherman": ["/game new", "/game join side:allies", "/game join side:axis"],
    "/act unit:1 Section assault:Gruppe 2": [
        "/game new ruleset:house_v1 forces:british",
        "/game join side:allies",
        "/game join side:axis",
        "/game start",
        "/initiative choice:start",
    ],
}
MARKDOWN = re.compile(r"\*\*|__|`|^#+ |^-# .*$", re.M)


def discord_blocks() -> list[tuple[str, list[str]]]:
    """Each block of Discord lines (the "In Discord" section's, and the dice, charts and rules
    block, written as Discord takes them) as (its first line, the lines to type)."""
    text = README.read_text()
    runs = []
    for section in DISCORD_SECTIONS:
        start = text.index(f"\n## {section}")
        end = text.index("\n## ", start + 1)
        for block in re.finditer(r"^```[^\n]*\n(.*?)^```", text[start:end], re.S | re.M):
            lines = [command for command, _ in map(typed, block.group(1).splitlines()) if command]
            typed_lines = [*DISCORD_PRELUDES.get(lines[0], [])]
            for line in lines:
                if line not in NOT_COMPARED:
                    typed_lines += [line, *FOLLOW_UPS.get(line, [])]
            runs.append((lines[0], typed_lines))
    return runs


def slash(line: str) -> tuple[str, dict[str, object]]:
    """A Discord line as Discord's client sends it: the command, and each option's value up to
    the next option the command has, typed as the option's kind."""
    words = line.removeprefix("/").split(" ")
    size = max(size for size in (1, 2, 3) if " ".join(words[:size]) in COMMANDS)
    spec = COMMANDS[" ".join(words[:size])]
    names = "|".join(option.name for option in spec.shared())
    parts = re.split(rf"(?:^|\s+)({names}):", " ".join(words[size:])) if names else [" ".join(words[size:])]
    assert not parts[0].strip(), f"Discord takes no bare words: {line}"
    kinds = {"flag": lambda value: value.casefold() == "true", "integer": int, "number": float}
    options = {
        name: kinds.get(spec.option(name).kind, str)(value.strip())
        for name, value in zip(parts[1::2], parts[2::2], strict=True)
    }
    return spec.path, options


def shown(text: str) -> list[str]:
    """The lines of an answer, as either front end words them: without Markdown, players by
    name, and a console refusal without its "Not allowed:"."""
    text = re.sub(r"~~([^~]+)~~", r"\1 dropped", text.removeprefix(REFUSALS[0]))  # a struck die
    text = MARKDOWN.sub("", text)
    for user, name in PLAYERS.items():
        text = text.replace(f"<@{user}>", name)
    return [line.strip() for line in text.splitlines() if line.strip()]


def typist(state: GameState | None, line: str) -> str:
    """Who types a line: the next player to join a side, else the one the game waits for."""
    if state is None:
        return ANN
    joined = {player for side in state.sides.values() for player in side.players}
    if line.startswith("/game join"):
        return next((user for user in PLAYERS if user not in joined), ANN)
    side = awaiting(state)
    players = state.sides[side].players if side in state.sides else []
    return players[0] if players else ANN


@pytest.mark.parametrize(("first", "lines"), [pytest.param(*run, id=run[0][:50]) for run in discord_blocks()])
async def test_every_discord_line_means_the_same_at_the_console(tmp_path, monkeypatch, first, lines):
    bot, discord = await open_bot(f"sqlite+aiosqlite:///{tmp_path / 'discord.db'}", monkeypatch)
    bot.games.dice = bot.dice.dice = lambda: SeededDice(1)
    store = await GameStore.open(seed_sqlite(f"sqlite+aiosqlite:///{tmp_path / 'console.db'}", shipped=True))
    service = GameService(store, dice=lambda: SeededDice(1))
    table, _ = await ConsoleTable.open(Services.around(service))
    await table.rules.ship()
    try:
        for line in lines:
            try:
                state = await bot.games.game("1")
            except GameError:
                state = None
            user = typist(state, line)
            path, options = slash(line)
            in_discord = answers_in(await discord.slash(path, user=user, channel="1", **options))
            at_console = shown(await table.handle(f"as {PLAYERS[user]} {line}"))
            discord_lines = shown("\n".join(text_of(body) for body, _, _ in in_discord))
            assert any(at_console[0] in said for said in discord_lines), (line, at_console, discord_lines)
    finally:
        await close_bot(bot)
        await service.close()
        await store.close()
