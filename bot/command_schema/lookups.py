"""Dice, charts, odds, measuring, help and the rules library."""

from __future__ import annotations

from bot.command_schema.options import (
    HELP_TOPICS,
    attachment,
    choice,
    flag,
    integer,
    number,
    spec,
    text,
    unit,
)

LOOKUP_SPECS = (
    spec(
        "roll",
        "Roll dice: 3d6+1, 4d6kh3, 2d10 5+ label, DR +1, dr; 'log' lists rolls",
        text(
            "dice",
            "e.g. 2d10 5+ Panther at Sherman; DR +2; 1d6. Type log for the channel's roll log",
            required=True,
        ),
        flag("secret", "Only you (and the channel's referees, in /roll log) see the result"),
        rest="dice",
    ),
    spec(
        "chart roll",
        "Roll on a chart",
        text("chart", "The chart (type to search)", required=True, suggest=True),
        text(
            "choices",
            "Parameters and modifiers, comma separated: side=german, date=2 Nov, depleted",
            default="",
        ),
        flag("secret", "Only you (and the channel's referees, in /roll log) see the result"),
        words=("chart",),
        rest="choices",
    ),
    spec(
        "chart list",
        "Every chart, by book",
    ),
    spec(
        "chart show",
        "What a chart takes and gives",
        text("chart", "The chart (type to search)", required=True, suggest=True),
        words=("chart",),
    ),
    spec(
        "odds shot",
        "Any Iron Cross shot: firer, target, range and modifiers",
        text("firer", "Unit firing (type to search the orders of battle)", required=True, suggest=True),
        text("target", "Unit fired at", required=True, suggest=True),
        number("range", "Inches, edge to edge (0 is contact)", required=True, low=0, high=200),
        choice("aspect", "The vehicle's side facing the firer", ("front", "side"), default="front"),
        choice("cover", "The target's cover", ("open", "cover", "fortification"), default="open"),
        flag("firer_moved", "The firer moves in this activation"),
        flag("target_moved", "The target moved this turn"),
        flag("smoke", "The target is behind smoke"),
        flag("hull_down", "The target vehicle is hull down"),
        integer("firer_markers", "Morale markers on the firer", low=0, high=10, default=0),
        integer("target_markers", "Morale markers on the target", low=0, high=10, default=0),
        flag("infantry_close", 'Unscreened enemy infantry within 12" of the firing vehicle'),
        integer("ranged_in", "A mortar's earlier shots at this spot this turn", low=0, high=10, default=0),
        flag("in_building", "The target is in a building"),
        flag("flamethrower", "The firer uses its flamethrower"),
        flag("iaw", "The infantry firer has its anti-tank weapon"),
    ),
    spec(
        "odds fire",
        "A shot in this channel's game, measured on the table",
        text("unit", "Your unit", required=True),
        text("target", "The unit it would fire at", required=True),
        flag("moving", "It also moves first"),
    ),
    spec(
        "measure",
        "Distance, line of sight (and what blocks it) and cover, from your unit",
        unit("unit", "Your unit", required=True, suggest=True),
        text("to", "A unit, or a spot: x,y in inches or a grid square like D3", required=True, suggest=True),
        words=("unit", "to"),
    ),
    spec(
        "help",
        "How to play here: a page per topic",
        choice("topic", "The page to open (default: getting started)", HELP_TOPICS, default=HELP_TOPICS[0]),
        words=("topic",),
    ),
    spec(
        "odds test",
        "Any test: needs 4+ on a d6, with a re-roll, several dice",
        integer("needs", "The score each die needs", required=True, low=1, high=1000),
        integer("sides", "Sides of each die", low=2, high=1000, default=6),
        integer("dice", "How many dice", low=1, high=50, default=1),
        choice(
            "reroll",
            "Roll failed dice again: none, every failed die once, or one failed die",
            ("none", "failed", "one"),
            default="none",
        ),
        integer("at_least", "Successes wanted", low=1, high=50, default=1),
    ),
    spec(
        "rule",
        "Look up a rule: a section number (63.22, IC12.6) or words",
        text(
            "query",
            "A section number such as IC12.6, 63.22, RB9, or words such as smoke dissipate",
            required=True,
            suggest=True,
        ),
        flag("private", "Only you see the answer"),
        rest="query",
    ),
    spec(
        "library",
        "The documents /rule searches here: the bot's own and this server's",
    ),
    spec(
        "rules import",
        "Index a text or Markdown document for this server",
        attachment(
            "document",
            "A .txt or .md file the server owns, with headings or numbered sections (63.22, A10.51)",
            required=True,
        ),
        text("name", "The name it is listed under (default: the file name); importing it again replaces it"),
        words=("document",),
    ),
    spec(
        "rules remove",
        "Take one of this server's documents out of the library",
        text("name", "The document's name, as /library lists it", required=True),
    ),
)
