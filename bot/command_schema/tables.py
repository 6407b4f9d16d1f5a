"""/table: build, generate and share this server's tables; the battlefield a game is fought on."""

from __future__ import annotations

from bot.command_schema.options import (
    PIECE_KINDS,
    attachment,
    choice,
    flag,
    integer,
    number,
    spec,
    table_name,
    table_size,
    text,
)
from bot.services.limits import MOST_SEED

BATTLEFIELD = text(
    "table",
    "A built-in table (default village, 6' x 4'), one of /table list, or random",
    default="village",
    suggest=True,
)
BATTLEFIELD_SEED = integer(
    "seed",
    "With table:random, its seed (the same seed, the same table)",
    low=0,
    high=MOST_SEED,
)

TABLE_SPECS = (
    spec(
        "table new",
        "An empty table to build on",
        text("name", "Its name in this server", required=True),
        table_size("width", "Inches (72 for 6')", 72.0),
        table_size("depth", "Inches (48 for 4')", 48.0),
    ),
    spec(
        "table random",
        "A balanced table laid out from a seed",
        text("name", "Its name in this server", required=True),
        integer("seed", "The same seed and size give the same table", required=True, low=0, high=MOST_SEED),
        table_size("width", "Inches", 72.0),
        table_size("depth", "Inches", 48.0),
    ),
    spec(
        "table add",
        "Put a terrain piece on one of your tables",
        table_name("One of your tables"),
        text("piece", "Its name on the table, e.g. church", required=True),
        choice("kind", "What it is", PIECE_KINDS, required=True),
        text("at", "Its centre: a grid square (D3) or inches (30,18)"),
        text(
            "size", "Width x depth in inches (12x9); for a hedge, wall, wire, road or stream: length x width"
        ),
        text("points", "Instead of at and size: inches x,y;x,y;... (an outline, or a line's path)"),
        number("turn", "Degrees counter-clockwise", low=-360.0, high=360.0, default=0.0),
        number("width", "A line's, road's or stream's width, with points", low=0.1, high=12.0),
        integer("storeys", "A building's floors", low=1, high=6, default=1),
        choice("height", "A hill's height (House Rules s. 8)", ("low", "medium", "high")),
    ),
    spec(
        "table move",
        "Move a piece of one of your tables",
        table_name("One of your tables"),
        text("piece", "The piece to move", required=True),
        text("to", "Its new centre: a grid square (D3) or inches (30,18)", required=True),
    ),
    spec(
        "table turn",
        "Turn a piece about its middle",
        table_name("One of your tables"),
        text("piece", "The piece to turn", required=True),
        number(
            "degrees", "Counter-clockwise; negative turns clockwise", required=True, low=-360.0, high=360.0
        ),
    ),
    spec(
        "table remove",
        "Take a piece off one of your tables",
        table_name("One of your tables"),
        text("piece", "The piece to take off", required=True),
    ),
    spec("table show", "A table of this server, for everyone here", table_name("A table of this server")),
    spec("table list", "This server's tables"),
    spec(
        "table copy",
        "Copy a table under a new name, yours to change",
        table_name("The table to copy"),
        text("name", "The copy's name", required=True),
    ),
    spec("table export", "The table as a YAML file to edit and share", table_name("A table of this server")),
    spec(
        "table import",
        "A table from a YAML file (/table export)",
        attachment("file", "The .yaml file", required=True),
        flag("replace", "Replace your own table of the same name"),
        words=("file",),
    ),
    spec("table delete", "Delete one of your tables", table_name("One of your tables")),
)
