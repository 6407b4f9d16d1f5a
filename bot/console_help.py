"""The console's list of commands, made from the command schema: every command as Discord has
it, each option written as it is typed (``[...]`` when it may be left out), and what it does."""

from __future__ import annotations

import textwrap

from bot.command_schema import COMMANDS, Option, Spec

WIDTH, INDENT = 96, " " * 7  # a terminal's line; the indent of an entry's later lines

PLACEHOLDERS = {  # what a value of each kind looks like
    "text": "TEXT",
    "integer": "N",
    "number": "N",
    "flag": "true",
    "position": "X,Y",
    "path": "X,Y[;X,Y]",
    "unit": "UNIT",
    "user": "NAME",
    "role": "ROLE",
    "attachment": "FILE",
}
CONSOLE_ONLY = (  # the console's own commands, which no spec declares
    "/units   the forces, unit by unit",
    "/quit    leave the table (the game is kept)",
)
HOW_TO_TYPE = """\
The same commands as in Discord, typed as text: a value runs to the next option the command has
(/act unit:Sherman 1 move:C6 fire:Panzer IV); quotes around a value are allowed and left out.
A group may be left out (/new for /game new, /ref pause for /ref clock pause), and some options
may be given by bare words before the first option (/rule smoke dissipate, /chart show CHART,
/act sherman-1 rapid move:12,14). A yes/no option is name:true, or its bare name where no value
runs on (before the first option, after a quoted value or a number)."""
HOT_SEAT = """\
Hot-seat: nobody needs to join; each line acts for the side the game waits for (or its
unit's side). Players who have joined prefix their lines with their name: as ann /pass
Positions: inches x,y (30,18), a 6" grid square (D3 or D3+1,-2), or "6 toward panzer-iv"."""


def typed_option(option: Option) -> str:
    """One option as it is typed: ``name:VALUE``, in brackets when it may be left out."""
    value = "|".join(option.choices) if option.choices else PLACEHOLDERS[option.kind]
    return f"{option.name}:{value}" if option.required else f"[{option.name}:{value}]"


def usage(spec: Spec) -> str:
    """A command as it is typed, then what it does."""
    typed = " ".join([f"/{spec.path}", *map(typed_option, spec.options)])
    lines = textwrap.wrap(typed, WIDTH, break_long_words=False, break_on_hyphens=False)
    return "\n".join([f"  {lines[0]}", *(f"{INDENT}{line}" for line in [*lines[1:], spec.description])])


def command_list() -> str:
    """Every command of the schema, then the console's own, and how a hot-seat table plays."""
    commands = [usage(spec) for spec in COMMANDS.values()]
    return "\n".join([HOW_TO_TYPE, *commands, *(f"  {line}" for line in CONSOLE_ONLY), HOT_SEAT])
