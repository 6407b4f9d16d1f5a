"""Every slash command's options, declared once for every front end.

A :class:`Spec` names a command by its path (``"game new"``, ``"ref clock pause"``), says what it
does, and lists its options: each with a kind (text, a whole number, a position on the table, a
unit, a choice...), whether it is required, its bounds and its choices. The Discord command tree
is checked against these declarations when the bot builds it (the play commands are built from
them), and the console reads its lines with them (:mod:`bot.console_grammar`), so a command
cannot take an option in one front end that the other refuses.

The options of ``/act`` are the ones the actions declare (:func:`engine.actions.registry.order_options`):
a new action's option reaches both front ends from its own module.

The console types without Discord's form, so a spec also says which options bare words fill, in
order (``/chart show CHART``), which option takes the rest of the line (``/rule smoke
dissipate``), and the few console-only options a keyboard needs (a file to read instead of an
upload, a side to look with when nobody has joined).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from bot.help_pages import PAGES
from bot.services.limits import MAX_DAYS, MAX_POINTS, MOST_SEED, PACES, REACTION_SECONDS
from engine.actions.base import OrderOption
from engine.actions.registry import order_options
from engine.deployment.areas import AREAS
from engine.rulesets import RULE_SETS
from engine.scenarios.book import load_scenarios
from engine.scenarios.quick_battle import allied_forces, quick_tables
from engine.tables.layout import LARGEST, SMALLEST
from engine.tables.pieces import PieceKind

Kind = Literal[
    "text", "integer", "number", "flag", "choice", "position", "path", "unit", "user", "role", "attachment"
]
POSITION = "x,y in inches or a grid square like D3"
PATH = f"{POSITION}; separate waypoints with ;"
# the choices the data and the rule sets' registry offer
SCENARIOS = tuple(load_scenarios())
RULE_SET_NAMES = tuple(RULE_SETS)
TABLES = tuple(quick_tables())
ALLIED_FORCES = tuple(allied_forces())
EDGES = ("long", "short")
DEPLOYMENT_AREAS = AREAS
PIECE_KINDS = tuple(kind.value for kind in PieceKind)
HELP_TOPICS = tuple(page.key for page in PAGES)


@dataclass(frozen=True)
class Option:
    """One option of a command."""

    name: str
    kind: Kind
    description: str = ""
    required: bool = False
    choices: tuple[str, ...] = ()
    low: float | None = None
    high: float | None = None
    default: object = None
    suggest: bool = False  # Discord offers values as they are typed (autocomplete)
    console_only: bool = False  # a keyboard's stand-in for what Discord gives by a form or upload


@dataclass(frozen=True)
class Spec:
    """One command: its path, what it does, its options, and how the console reads bare words."""

    path: str
    description: str
    options: tuple[Option, ...] = ()
    words: tuple[str, ...] = ()  # the options that bare words fill, in order, at the console
    rest: str | None = None  # the option that takes the rest of a console line
    pairs: bool = False  # the console also takes NAME:VALUE pairs for the first two options

    def option(self, name: str) -> Option | None:
        return next((o for o in self.options if o.name == name), None)

    def shared(self) -> tuple[Option, ...]:
        """The options both front ends take."""
        return tuple(o for o in self.options if not o.console_only)


def spec(
    path: str,
    description: str,
    *options: Option,
    words: tuple[str, ...] = (),
    rest: str | None = None,
    pairs: bool = False,
) -> Spec:
    return Spec(path, description, options, words, rest, pairs)


def text(name: str, description: str = "", **more) -> Option:
    return Option(name, "text", description, **more)


def integer(name: str, description: str = "", **more) -> Option:
    return Option(name, "integer", description, **more)


def number(name: str, description: str = "", **more) -> Option:
    return Option(name, "number", description, **more)


def flag(name: str, description: str = "", **more) -> Option:
    return Option(name, "flag", description, default=more.pop("default", False), **more)


def choice(name: str, description: str, choices: tuple[str, ...], **more) -> Option:
    return Option(name, "choice", description, choices=choices, **more)


def position(name: str, description: str = "", **more) -> Option:
    return Option(name, "position", description, **more)


def path(name: str, description: str = "", **more) -> Option:
    return Option(name, "path", description, **more)


def unit(name: str, description: str = "", **more) -> Option:
    return Option(name, "unit", description, **more)


def user(name: str, description: str = "", **more) -> Option:
    return Option(name, "user", description, **more)


def role(name: str, description: str = "", **more) -> Option:
    return Option(name, "role", description, **more)


def attachment(name: str, description: str = "", **more) -> Option:
    return Option(name, "attachment", description, **more)


def file(name: str, description: str) -> Option:
    """A console-only file name, read where Discord takes an upload or a form."""
    return Option(name, "text", description, console_only=True)


def _order_option(option: OrderOption) -> Option:
    """An option of ``/act`` as the action that reads it declares it (:mod:`engine.actions`)."""
    return Option(
        option.name,
        option.kind,
        option.description,
        choices=option.choices,
        default=option.default,
        suggest=option.kind == "unit",
    )


def _table(description: str) -> Option:
    return text("table", description, required=True, suggest=True)


def _size(name: str, description: str, default: float) -> Option:
    return number(name, description, low=SMALLEST, high=LARGEST, default=default)


TABLE_SPECS = (  # /table: build, generate and share this server's tables
    spec(
        "table new",
        "An empty table to build on",
        text("name", "Its name in this server", required=True),
        _size("width", "Inches (72 for 6')", 72.0),
        _size("depth", "Inches (48 for 4')", 48.0),
    ),
    spec(
        "table random",
        "A balanced table laid out from a seed",
        text("name", "Its name in this server", required=True),
        integer("seed", "The same seed and size give the same table", required=True, low=0, high=MOST_SEED),
        _size("width", "Inches", 72.0),
        _size("depth", "Inches", 48.0),
    ),
    spec(
        "table add",
        "Put a terrain piece on one of your tables",
        _table("One of your tables"),
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
        _table("One of your tables"),
        text("piece", "The piece to move", required=True),
        text("to", "Its new centre: a grid square (D3) or inches (30,18)", required=True),
    ),
    spec(
        "table turn",
        "Turn a piece about its middle",
        _table("One of your tables"),
        text("piece", "The piece to turn", required=True),
        number(
            "degrees", "Counter-clockwise; negative turns clockwise", required=True, low=-360.0, high=360.0
        ),
    ),
    spec(
        "table remove",
        "Take a piece off one of your tables",
        _table("One of your tables"),
        text("piece", "The piece to take off", required=True),
    ),
    spec("table show", "A table of this server, for everyone here", _table("A table of this server")),
    spec("table list", "This server's tables"),
    spec(
        "table copy",
        "Copy a table under a new name, yours to change",
        _table("The table to copy"),
        text("name", "The copy's name", required=True),
    ),
    spec("table export", "The table as a YAML file to edit and share", _table("A table of this server")),
    spec(
        "table import",
        "A table from a YAML file (/table export)",
        attachment("file", "The .yaml file", required=True),
        flag("replace", "Replace your own table of the same name"),
        words=("file",),
    ),
    spec("table delete", "Delete one of your tables", _table("One of your tables")),
)

BATTLEFIELD = text(
    "table",
    "The battlefield: a built-in one (default: village, 6' x 4'), one of /table list, or random",
    default="village",
    suggest=True,
)
BATTLEFIELD_SEED = integer(
    "seed",
    "With table:random, the seed it is laid out from (the same seed, the same table)",
    low=0,
    high=MOST_SEED,
)

SPECS: tuple[Spec, ...] = (
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
        ),
        choice(
            "forces",
            "Quick battle: the allied force facing the German one (default: us)",
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
    ),
    spec(
        "game history",
        "This channel's finished games, and their logs",
        integer("number", "Show this game's whole log (1 is the latest)"),
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
        *(_order_option(option) for option in order_options().values()),
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
        *(_order_option(order_options()[name]) for name in ("move", "fire", "first")),  # as /act's
        flag("cmt", "React with a Company Morale Test instead"),
        position("at", f"React as the enemy reaches this point of its move ({POSITION})"),
        unit("assault", 'House rules: the enemy within 3" to close with', suggest=True),
        flag("fallback", "At the console, react by falling back (with to:)", console_only=True),
        path("to", "Where the unit falls back to, with fallback", console_only=True),
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
        "Set a unit up before a scenario game starts, or say you are done",
        unit("unit", "A unit of yours still waiting", suggest=True),
        position("at", f"Where ({POSITION})"),
        number(
            "facing",
            "Degrees: 90 faces the far edge, 270 the near one (default: toward the enemy's edge)",
            low=0,
            high=360,
        ),
        flag("done", "You have set up all you want; the rest wait in reserve"),
        position("decoy", "A sniper team only: where its dummy marker goes"),
        words=("unit",),
    ),
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
        flag("iaw", "The infantry detachment carries the nation's anti-tank weapon"),
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
    spec(
        "campaign linked new",
        "Set up linked Iron Cross battles between two saved forces",
        text("name", "The campaign's name", required=True),
        text("allies", "The allied player (@mention)", required=True),
        text("allies_force", "The allied player's force (one of their /force list)", required=True),
        text("axis", "The axis player (@mention)", required=True),
        text("axis_force", "The axis player's force", required=True),
        integer(
            "winner",
            "Reinforcement points for a win (our campaign rule; default 50)",
            low=0,
            high=1000,
            default=50,
        ),
        integer("loser", "Reinforcement points for a loss (default 30)", low=0, high=1000, default=30),
        integer(
            "draw", "Reinforcement points for each side in a draw (default 40)", low=0, high=1000, default=40
        ),
        choice(
            "damaged",
            "Units left with morale markers: back for the next battle, or sitting it out",
            ("return", "sit_out"),
            default="return",
        ),
    ),
    spec(
        "campaign linked battle",
        "Set up the next battle here, both forces as they stand",
        choice(
            "scenario",
            "The book scenario to fight",
            SCENARIOS,
            required=True,
        ),
        BATTLEFIELD,
        BATTLEFIELD_SEED,
        choice("attacker", "Capture and Breakthrough: the attacking side", ("allies", "axis")),
        choice(
            "attacker_choice",
            "Breakthrough: the attacker's aggressive command or preliminary bombardment",
            ("aggressive_command", "preliminary_bombardment"),
        ),
        integer(
            "reaction_seconds",
            "How long the other side has to react (15 s to 48 h, default 120)",
            low=15,
            high=172800,
            default=120,
        ),
    ),
    spec(
        "campaign linked buy",
        "Buy a unit for your side with its reinforcement points",
        choice("side", "Your side", ("allies", "axis"), required=True),
        text("unit", "A unit of your force's order of battle", required=True),
        text("label", "What to call it"),
    ),
    spec(
        "campaign linked command",
        "Make another of your units the command unit",
        choice("side", "Your side", ("allies", "axis"), required=True),
        text("unit", "The new command unit", required=True),
    ),
    spec(
        "campaign linked retire",
        "Take a unit out of your force for good (no points back)",
        choice("side", "Your side", ("allies", "axis"), required=True),
        text("unit", "The unit to retire", required=True),
    ),
    spec(
        "campaign linked end",
        "End the campaign between battles: result and final standings",
    ),
    spec(
        "campaign linked standings",
        "Each side's results, points and force, and the history",
    ),
    spec(
        "campaign new",
        "Set up a Red Barricades campaign in this channel",
        text("name", "The campaign's name", required=True),
        text("german", "The German players (@mentions)", required=True),
        text("russian", "The Russian players (@mentions)", required=True),
        integer(
            "german_cpp",
            "German CPP each CG Day (set by the organiser, from the full CG rules)",
            required=True,
            low=0,
            high=999,
        ),
        integer("russian_cpp", "Russian CPP each CG Day", required=True, low=0, high=999),
        integer("days", "How many CG Days (phases)", low=1, high=MAX_DAYS, default=3),
        text("start", "The first CG Day, e.g. 17 Oct", default="17 Oct"),
        text("every", "Each phase's length: 24h, 3d, 90m ...", default="24h"),
        text("grace", "A grace period after each deadline: 2h ...", default="0s"),
        text("reminders", "When to remind before a deadline: 24h,1h (the default), or none"),
        text("referee", "The referee (@mention), who may submit for a side"),
        flag(
            "carry_over",
            "Unspent CPP carry over to the next CG Day, as your CG rules say (default yes)",
            default=True,
        ),
    ),
    spec(
        "campaign submit",
        "Seal your side's orders (only you see this)",
        text(
            "buy",
            'RG IDs from your chart: "I1, O2 2 hexes, M1", or none; leave buy and fortify out for a form',
        ),
        text("fortify", 'Fortifications with the FPP of the day\'s M1: "2 x Trench, 3 Foxhole at 2"'),
        choice("side", "The referee names the side", ("german", "russian")),
        integer("phase", "A phase number (the open phase if left out)", low=1, high=MAX_DAYS),
        rest="buy",
    ),
    spec(
        "campaign status",
        "Every phase, who has submitted, the time left",
    ),
    spec(
        "campaign ledger",
        "Every purchase, roll and change of the campaign",
        flag("csv", "As a CSV file"),
    ),
    spec(
        "campaign orbat",
        "Each side's order of battle: formations, fortifications",
        choice("side", "One side only", ("german", "russian")),
        words=("side",),
    ),
    spec(
        "campaign correct",
        "The referee corrects a ledger entry, with a reason",
        integer(
            "entry",
            "The entry's number (the # column of /campaign ledger)",
            required=True,
            low=0,
            high=100000,
        ),
        text(
            "to",
            "What it should have been: CPP, void, full/depleted, leaders, SW, ammo or retained units",
            required=True,
        ),
        text("reason", "Why: kept in the ledger", required=True),
    ),
    spec(
        "campaign retain",
        "The referee records units a side retains into the next CG scenario",
        choice("side", "The side that retains them", ("german", "russian"), required=True),
        text("units", 'The units retained, with commas: "2 x 4-6-7, 9-1, HMG"', required=True),
    ),
    spec(
        "campaign balance",
        "The referee sets a side's Balance provision DRM (RB 11.32)",
        choice("side", "The side", ("german", "russian"), required=True),
        integer(
            "drm",
            "Added to the side's RG strength, gun battery and OBA ammo rolls",
            required=True,
            low=-6,
            high=6,
        ),
    ),
    spec(
        "campaign cg2",
        "The referee says whether CG II scenarios are played",
        flag("on", "CG II scenarios: +1 German Leader DRM", required=True),
    ),
    spec(
        "campaign chit",
        "The referee records a Battery Access chit for an OBA module",
        integer(
            "entry",
            "The ledger entry that bought the module (the # column of /campaign ledger)",
            required=True,
            low=0,
            high=100000,
        ),
        choice("colour", "The chit drawn", ("black", "red"), required=True),
    ),
    *TABLE_SPECS,
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

COMMANDS: dict[str, Spec] = {s.path: s for s in SPECS}
