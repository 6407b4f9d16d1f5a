"""Every slash command's options, declared once for every front end.

A :class:`Spec` names a command by its path (``"game new"``, ``"ref clock pause"``), says what it
does, and lists its options: each with a kind (text, a whole number, a position on the table, a
unit, a choice...), whether it is required, its bounds and its choices. The Discord command tree
is checked against these declarations when the bot builds it (the play commands are built from
them), and the console reads its lines with them (:mod:`bot.console_grammar`), so a command
cannot take an option in one front end that the other refuses.

The options of ``/act`` are the ones the actions declare (:func:`engine.actions.registry.order_options`):
a new action's option reaches both front ends from its own module, and ``/react`` too if it
declares that a reaction may be given it (:func:`engine.actions.registry.reaction_options`).

The console types without Discord's form, so a spec also says which options bare words fill, in
order (``/chart show CHART``), which option takes the rest of the line (``/rule smoke
dissipate``), and the few console-only options a keyboard needs (a file to read instead of an
upload, a side to look with when nobody has joined).

The commands of a message's menu (:mod:`bot.command_schema.menus`) are declared here too:
Discord alone has them.
"""

from __future__ import annotations

from bot.command_schema.campaigns import CAMPAIGN_SPECS
from bot.command_schema.forces import FORCE_SPECS
from bot.command_schema.lobbies import LOBBY_SPECS
from bot.command_schema.lookups import LOOKUP_SPECS
from bot.command_schema.menus import MENUS
from bot.command_schema.options import (
    ALLIED_FORCES,
    DEPLOYMENT_AREAS,
    RULE_SET_NAMES,
    SCENARIOS,
    TABLES,
    Option,
    Spec,
)
from bot.command_schema.oversight import OVERSIGHT_SPECS
from bot.command_schema.play import PLAY_SPECS
from bot.command_schema.tables import TABLE_SPECS

__all__ = [
    "ALLIED_FORCES",
    "COMMANDS",
    "DEPLOYMENT_AREAS",
    "MENUS",
    "RULE_SET_NAMES",
    "SCENARIOS",
    "TABLES",
    "Option",
    "Spec",
]

SPECS: tuple[Spec, ...] = (
    *PLAY_SPECS,
    *LOOKUP_SPECS,
    *FORCE_SPECS,
    *CAMPAIGN_SPECS,
    *TABLE_SPECS,
    *OVERSIGHT_SPECS,
    *LOBBY_SPECS,
)
COMMANDS: dict[str, Spec] = {s.path: s for s in SPECS}
