"""Games across channels (/games), dice statistics (/stats), the referee's /ref and the team's /team."""

from __future__ import annotations

from bot.command_schema.options import (
    choice,
    flag,
    integer,
    number,
    position,
    spec,
    text,
    unit,
    user,
)
from bot.services.limits import MAX_POINTS

OVERSIGHT_SPECS = (
    spec(
        "games mine",
        "Every game and campaign, in any channel, waiting for you",
    ),
    spec(
        "games ping",
        "How you are told that a game waits for you",
        choice(
            "how",
            "A mention in the game's channel, a direct message, or nothing (empty: what you chose)",
            ("mention", "dm", "off"),
        ),
        words=("how",),
    ),
    spec(
        "games delay",
        "How long this channel's game waits before a turn ping",
        integer(
            "minutes",
            "Minutes before the players the game waits for are told (0: never)",
            required=True,
            low=0,
            high=10080,
        ),
        words=("minutes",),
    ),
    spec(
        "stats",
        "Dice statistics of this channel's game or campaign: faces, luck of key rolls",
        flag("campaign", "Every battle of this channel's campaign instead of its game alone"),
    ),
    spec(
        "ref move",
        "Put a unit somewhere else (or on the table)",
        unit("unit", "Any unit", required=True, suggest=True),
        position("at", "x,y in inches or a grid square like D3", required=True),
        text("reason", "Why: it goes in the log and is shown to the players", required=True),
        number("facing", "Degrees", low=0, high=360),
    ),
    spec(
        "ref markers",
        "Set a unit's morale markers",
        unit("unit", "Any unit", required=True, suggest=True),
        integer("count", "Morale markers it has", required=True, low=0, high=20),
        text("reason", "Why: it goes in the log and is shown to the players", required=True),
        integer("value", "At the console, the same as count: (or number:)", console_only=True),
    ),
    spec(
        "ref tokens",
        "Set the tokens in a side's (or a team player's) hand",
        choice("side", "The side", ("allies", "axis"), required=True),
        integer("count", "Tokens in hand", required=True, low=0, high=50),
        text("reason", "Why: it goes in the log and is shown to the players", required=True),
        user("player", "In a team game: whose"),
        integer("value", "At the console, the same as count: (or number:)", console_only=True),
    ),
    spec(
        "ref turn",
        "Set the turn number",
        integer("number", "The turn it is", required=True, low=1, high=99),
        text("reason", "Why: it goes in the log and is shown to the players", required=True),
        integer("value", "At the console, the same as count: (or number:)", console_only=True),
    ),
    spec(
        "ref initiative",
        "Give a side the initiative, between actions",
        choice("side", "The side that has it", ("allies", "axis"), required=True),
        text("reason", "Why: it goes in the log and is shown to the players", required=True),
    ),
    spec(
        "ref reveal",
        "Reveal a hidden unit or marker",
        unit("unit", "A hidden unit", required=True, suggest=True),
        text("reason", "Why: it goes in the log and is shown to the players", required=True),
    ),
    spec(
        "ref hide",
        "Hide a unit under a marker again",
        unit("unit", "A unit in the open", required=True, suggest=True),
        text("reason", "Why: it goes in the log and is shown to the players", required=True),
    ),
    spec(
        "ref destroy",
        "Take a unit out of the game",
        unit("unit", "Any unit", required=True, suggest=True),
        text("reason", "Why: it goes in the log and is shown to the players", required=True),
    ),
    spec(
        "ref restore",
        "Bring a destroyed unit back into play",
        unit("unit", "A destroyed unit", required=True, suggest=True),
        text("reason", "Why: it goes in the log and is shown to the players", required=True),
    ),
    spec(
        "ref give_units",
        "Hand an absent player's units and seat to another",
        user("player", "The absent player", required=True),
        user("to", "Who takes over", required=True),
        text("reason", "Why: it goes in the log and is shown to the players", required=True),
    ),
    spec(
        "ref ruling",
        "Rule on a situation the rules do not cover (logged)",
        text("text", "The ruling", required=True),
        rest="text",
    ),
    spec(
        "ref undo",
        "Take back the last actions; the game is rebuilt",
        integer("count", "How many actions", required=True, low=1, high=50),
        text("reason", "Why: it goes in the log and is shown to the players", required=True),
    ),
    spec(
        "ref map",
        "The true picture: every unit, hidden or not (only you)",
    ),
    spec(
        "ref log",
        "The whole log as the referees read it (only you)",
    ),
    spec(
        "ref appoint",
        "Referees and server admins: make someone a referee",
        user("referee", "The new referee (not a player of this game)", required=True),
    ),
    spec(
        "ref dismiss",
        "Referees and server admins: end someone's refereeing",
        user("referee", "The referee who stops", required=True),
    ),
    spec(
        "ref clock pause",
        "Stop every timer of this game; the open window keeps its time",
    ),
    spec(
        "ref clock resume",
        "Start the timers again with the time they had left",
    ),
    spec(
        "ref clock extend",
        "Give the open reaction window more minutes",
        integer("minutes", "How many minutes more (1 to 2880)", required=True, low=1, high=2880),
    ),
    spec(
        "ref clock close",
        "Close the open reaction window now: no reaction",
    ),
    spec(
        "ref clock deadline",
        "Give an absent side hours to act; then the game passes for it",
        choice("side", "The side the game waits for", ("allies", "axis"), required=True),
        number("hours", "Hours they have (up to 168)", required=True, low=0.1, high=168),
    ),
    spec(
        "ref prep objective",
        "Set an objective for one side, or for both",
        text("id", "The objective's name", required=True),
        position("at", "Where: x,y in inches or a grid square like D3", required=True),
        choice("side", "Whose objective", ("allies", "axis", "both"), required=True),
    ),
    spec(
        "ref prep special",
        "A special rule read by one side, both, or the referees",
        choice("to", "Who may read it", ("allies", "axis", "both", "referee"), required=True),
        text("text", "The rule", required=True),
        rest="text",
    ),
    spec(
        "ref prep brief",
        "Send one side intelligence that only it reads",
        choice("side", "The side briefed", ("allies", "axis"), required=True),
        text("text", "The intelligence", required=True),
        rest="text",
    ),
    spec(
        "ref prep force",
        "The most a side's force may cost, before it joins",
        choice("side", "The side", ("allies", "axis"), required=True),
        integer("points", "Its points limit", required=True, low=1, high=MAX_POINTS),
        text("guideline", "A guideline only it reads", default=""),
        rest="guideline",
    ),
    spec(
        "ref prep zone",
        "The rectangle a side sets up in, before set-up begins",
        choice("side", "The side", ("allies", "axis"), required=True),
        number("x1", "One corner, inches across", required=True),
        number("y1", "One corner, inches deep", required=True),
        number("x2", "The opposite corner, across", required=True),
        number("y2", "The opposite corner, deep", required=True),
        text("area", "At the console, both corners at once: X1,Y1,X2,Y2", console_only=True),
    ),
    spec(
        "ref prep list",
        "The special rules and objectives you may see (only you)",
    ),
    spec(
        "team show",
        "Each side's players, their units and tokens",
    ),
    spec(
        "team give",
        "CO: hand bonus tokens to a player of your side",
        text("player", "The player who gets them", required=True, suggest=True),
        integer("tokens", "How many of your bonus tokens", required=True, low=1, high=4),
        pairs=True,
    ),
    spec(
        "team request",
        "Ask your CO for a unit of the reserve pool",
        unit("unit", "The reserve unit", required=True, suggest=True),
        rest="unit",
    ),
    spec(
        "team grant",
        "CO: send a player the reserve unit they asked for",
        unit("unit", "The unit asked for", required=True, suggest=True),
        rest="unit",
    ),
    spec(
        "team refuse",
        "CO: refuse a player the reserve unit they asked for",
        unit("unit", "The unit asked for", required=True, suggest=True),
        rest="unit",
    ),
)
