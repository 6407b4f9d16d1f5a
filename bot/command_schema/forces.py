"""/force (a side's units, bought by points) and /cards (the optional card decks)."""

from __future__ import annotations

from bot.command_schema.options import (
    RULE_SET_NAMES,
    choice,
    file,
    flag,
    integer,
    spec,
    text,
)

FORCE_SPECS = (
    spec(
        "force new",
        "Start a force from a nation's order of battle",
        choice("nation", "Its order of battle", ("german", "british", "us", "soviet"), required=True),
        text("name", "Your name for it", required=True),
        integer("points", "Its points limit", required=True, low=1, high=10000),
        text("date", "When it fights, e.g. 1944-09 or 1945 (checks 1945-only and late-1944 units)"),
        choice(
            "ruleset",
            "The rules it is built under: the 2015 lists, or the House Rules' quick reference too",
            RULE_SET_NAMES,
            default="core_2015",
        ),
    ),
    spec(
        "force add",
        "Add a unit from the force's order of battle",
        text("force", "One of your forces", required=True, suggest=True),
        text("unit", "The order of battle entry", required=True, suggest=True),
        text("label", "Its name"),
        text(
            "quality", "House rules: veteran or inexperienced, elite or weak, or one of each (veteran elite)"
        ),
    ),
    spec(
        "force orbat",
        "Every unit a nation's forces may add, with its points (find: narrows the list)",
        choice("nation", "Its order of battle", ("german", "british", "us", "soviet"), required=True),
        choice("ruleset", "The rules a force is built under", RULE_SET_NAMES, default="core_2015"),
        text("find", "Words of the unit's name, e.g. sherman"),
    ),
    spec(
        "force remove",
        "Take a unit (and its transport) out of a force",
        text("force", "Your force", required=True, suggest=True),
        text("unit", "The unit to take out", required=True, suggest=True),
    ),
    spec(
        "force upgrade",
        "IAW, transport, command unit or sub-commander for a unit",
        text("force", "Your force", required=True, suggest=True),
        text("unit", "The unit to upgrade", required=True, suggest=True),
        flag(
            "iaw",
            "The infantry detachment carries the nation's anti-tank weapon (false takes it away)",
            default=None,
        ),
        text("transport", "A transport bought for it (none sells it back)", suggest=True),
        flag("command", "Make it the command unit"),
        flag("subcommander", "Make it the German sub-commander"),
        text("quality", "House rules: its troop quality now, e.g. veteran elite (regular: back to none)"),
    ),
    spec(
        "force show",
        "A force with its points, break points and problems",
        text("force", "Your force", required=True, suggest=True),
    ),
    spec(
        "force list",
        "Your forces in this server",
    ),
    spec(
        "force copy",
        "Copy a force under a new name",
        text("force", "The force to copy", required=True, suggest=True),
        text("name", "The copy's name", required=True),
    ),
    spec(
        "force export",
        "The force as text to paste or keep",
        text("force", "Your force", required=True, suggest=True),
    ),
    spec(
        "force import",
        "Paste a force's text (opens a form)",
        flag("replace", "Replace your force of the same name"),
        file("file", "The force's text, read from this file (Discord opens a form)"),
        words=("file",),
    ),
    spec(
        "force delete",
        "Delete one of your forces",
        text("force", "The force to delete", required=True, suggest=True),
    ),
    spec(
        "cards deck",
        "Write one of this server's decks (Manage Server)",
        text("name", "The deck's name", required=True),
        file("file", "The deck, one card a line, read from this file (Discord opens a form)"),
        words=("file",),
    ),
    spec(
        "cards deal",
        "Deal a deck in this channel's game: 2 set aside, 7 each",
        text("deck", "One of this server's decks", required=True, suggest=True),
    ),
    spec(
        "cards hand",
        "Your side's cards (only you see them)",
    ),
    spec(
        "cards use",
        "Exchange, play, put a token on, or trigger one of your cards",
        choice(
            "action",
            "exchange (once), play (pays its cost), token (on a lasting card in play), trigger",
            ("exchange", "play", "token", "trigger"),
            required=True,
        ),
        text("card", "One of your cards", required=True, suggest=True),
    ),
)
