"""The commands that set up and fight a battle in a channel: /game, the orders and the reactions."""

from __future__ import annotations

from bot.command_schema.options import (
    ALLIED_FORCES,
    DEPLOYMENT_AREAS,
    EDGES,
    PATH,
    POSITION,
    RULE_SET_NAMES,
    SCENARIOS,
    choice,
    flag,
    integer,
    number,
    order_option,
    path,
    position,
    reaction_option,
    role,
    spec,
    text,
    unit,
    user,
)
from bot.command_schema.tables import BATTLEFIELD, BATTLEFIELD_SEED
from bot.services.limits import MOST_MISSED, PACES, REACTION_SECONDS, STAND_IN_POINTS, STAND_IN_POINTS_DEFAULT
from engine.actions.registry import order_options, reaction_options

PLAY_SPECS = (
    spec(
        "game new",
        "Set up a quick battle, or a book scenario, in this channel",
        BATTLEFIELD,
        BATTLEFIELD_SEED,
        choice(
            "edges", "Scenarios: the sides set up along the long edges (default) or the short ones", EDGES
        ),
        choice(
            "areas",
            "Scenarios: deployment areas along whole edges (default), opposite corners, roads, or flanks",
            DEPLOYMENT_AREAS,
            default="edges",
        ),
        choice(
            "forces",
            "The allied force of a quick battle, or the bot's nation when it plays the Allies (default: us)",
            ALLIED_FORCES,
            default="us",
        ),
        choice(
            "pace",
            "Played live at one sitting (2-minute reaction windows, the default) or daily, over days (24 h)",
            tuple(PACES),
            default="live",
        ),
        integer(
            "reaction_seconds",
            "How long the other side has to react (15 s to 48 h), instead of the pace's",
            low=REACTION_SECONDS.start,
            high=REACTION_SECONDS.stop - 1,
        ),
        choice(
            "scenario",
            "A scenario of the book, played with the forces the players bring (/force)",
            ("quick", *SCENARIOS),
            default="quick",
        ),
        choice("attacker", "Capture and Breakthrough: the attacking side", ("allies", "axis")),
        choice(
            "attacker_choice",
            "Breakthrough: the attacker's aggressive command or preliminary bombardment",
            ("aggressive_command", "preliminary_bombardment"),
        ),
        choice(
            "deployment",
            "Meeting and Escalating: set up turn about, or both at once in secret (plotted)",
            ("alternating", "plotted"),
            default="alternating",
        ),
        choice(
            "ruleset",
            "The Iron Cross 2015 rules, or the House Rules V1.0",
            RULE_SET_NAMES,
            default="core_2015",
        ),
        integer(
            "ping_minutes",
            "Minutes before the players the game waits for are told (0: never, default 10)",
            low=0,
            high=10080,
            default=10,
        ),
        integer(
            "teams",
            "A scenario for teams: players a side, each bringing a force (p. 25; default 1)",
            low=1,
            high=4,
            default=1,
        ),
        choice(
            "bonus",
            "Teams: the CO's bonus tokens not handed out go out evenly, or all to the CO",
            ("even", "co"),
            default="even",
        ),
        user("referee", "A referee, who sees and may correct everything (more: /ref appoint)"),
        role("referee_role", "A server role whose holders may referee this game"),
        choice(
            "stand_in",
            "The side the bot plays, to play it alone (in a scenario, with its own force)",
            ("allies", "axis"),
        ),
        integer(
            "stand_in_after",
            "Daily games: the bot plays a side whose player misses this many deadlines in a row (0: never)",
            low=0,
            high=MOST_MISSED,
            default=0,
        ),
        integer(
            "points",
            "A scenario against the bot: the points a side (the attacker's doubled in Capture; default 300)",
            low=STAND_IN_POINTS.start,
            high=STAND_IN_POINTS.stop - 1,
            default=STAND_IN_POINTS_DEFAULT,
        ),
    ),
    spec(
        "game join",
        "Take a side in this channel's game",
        choice("side", "The side you play", ("allies", "axis"), required=True),
        text("force", "In a scenario game, the force you bring (one of your /force list)", suggest=True),
    ),
    spec(
        "game start",
        "Roll for the initiative and begin",
    ),
    spec(
        "game status",
        "Show the state of this channel's game",
    ),
    spec(
        "game log",
        "The last things that happened, with every die",
        integer("page", "An earlier page of the log (1 is the latest)", low=1, high=1_000_000),
        words=("page",),
    ),
    spec(
        "game history",
        "This channel's finished games, and their logs",
        integer("number", "Show this game's whole log (1 is the latest)", low=1, high=1_000_000),
    ),
    spec(
        "game stand_in",
        "Hand your side to the bot to play for you (on), or take it back (off)",
        choice("play", "on: the bot plays your side; off: you play it again", ("on", "off"), required=True),
    ),
    spec(
        "game concede",
        "Concede the game for your side",
    ),
    spec(
        "game replay",
        "Once the game is over: its animated replay and its story, as spectators saw it",
    ),
    spec(
        "game map",
        "The battlefield as your side sees it (only you see it)",
        choice(
            "side",
            "At the console, the side to look with when you have joined none",
            ("allies", "axis"),
            console_only=True,
        ),
    ),
    spec(
        "initiative",
        "Having won the initiative, start or pass it over",
        choice("choice", "Go first (start), or let the other side", ("start", "pass"), required=True),
        words=("choice",),
    ),
    spec(
        "act",
        "Activate a unit: move and/or fire",
        unit("unit", "Your unit", required=True, suggest=True),
        *(order_option(option) for option in order_options().values()),
        words=("unit",),
    ),
    spec(
        "cmt",
        "Spend a token on a Company Morale Test",
    ),
    spec(
        "fallback",
        "Fall back with a unit, away from the enemy",
        unit("unit", "Your unit", required=True, suggest=True),
        path("to", f"Where to ({PATH})", required=True),
        flag("reverse", "Reverse (vehicles, normal rate)"),
        words=("unit",),
    ),
    spec(
        "pass",
        "Pass the initiative to the other side",
    ),
    spec(
        "react",
        "React to the enemy's declared action",
        unit("unit", "Your reacting unit (leave empty with cmt)", suggest=True),
        *(reaction_option(option) for option in reaction_options().values()),
        flag("cmt", "React with a Company Morale Test instead"),
        position("at", f"React as the enemy reaches this point of its move ({POSITION})"),
        flag("fallback", "React by falling back (with to:)"),
        path("to", f"With fallback: where to ({PATH})"),
        words=("unit",),
    ),
    spec(
        "noreact",
        "Let the enemy's declared action go ahead",
    ),
    spec(
        "choose",
        "Answer a choice: the unit that loses markers, or a new target",
        unit(
            "unit",
            "The unit chosen: loses markers, new target (empty wastes the shot) or defends your building",
        ),
        choice(
            "close_combat",
            "House rules: your vehicle attacked in close combat falls back, or fights on",
            ("fall_back", "fight_on"),
        ),
        words=("unit",),
    ),
    spec(
        "reserves",
        "Call reserves at the start of a turn: a d6 each, 3+ brings one",
        text(
            "units", "Reserve units, comma separated, most wanted first; leave empty to call none", default=""
        ),
        rest="units",
    ),
    spec(
        "deploy",
        "Set a unit up before a scenario game starts (again, to move it), or say you are done",
        unit(
            "unit", "A unit of yours still waiting, or one set up, to set it up again elsewhere", suggest=True
        ),
        position("at", f"Where ({POSITION})"),
        number(
            "facing",
            "Degrees: 90 faces the far edge, 270 the near one (default: toward the enemy's edge)",
            low=0,
            high=360,
        ),
        flag("done", "You have set up all you want; the rest wait in reserve"),
        position("decoy", "A sniper team only: where its dummy marker goes"),
        flag("confirm", "With done: yes, send every unit still waiting to reserve"),
        words=("unit",),
    ),
)
