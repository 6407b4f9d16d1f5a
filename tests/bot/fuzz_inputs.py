"""Random and adversarial input for the console grammar and the services, from a seeded generator.

:func:`console_lines` writes lines of every console command with option values drawn from
:data:`NASTY` (huge and negative numbers, empty and unicode text, stray quotes, 6,000-character
strings, nested and dividing dice ...) and from values that a command really takes, so that
some lines get past the first checks and into the services and the engine.
"""

from __future__ import annotations

import random
import shlex
from collections.abc import Iterator

LONG = 6000
NASTY = [
    "",
    " ",
    "0",
    "-1",
    "-999999999999",
    "1",
    "15",
    "120",
    "9" * 40,
    "9" * 400,
    "9" * 5000,
    "1e400",
    "1e9",
    "nan",
    "inf",
    "-inf",
    "1.5",
    "½",
    "²",
    "٣",
    "０",
    "日本語",
    "Ünïcödé ✓",
    "🎲🎲",
    "\u200b",
    "'",
    '"',
    "\\",
    ":",
    ",",
    ";",
    ",,,",
    "a:b:c",
    "x" * LONG,
    "word " * 1200,
    "1/0",
    "1d6/0",
    "5%0",
    "5//0",
    "(" * 99 + "1" + ")" * 99,
    "1d6" + "+1d6" * 60,
    "1000d1000",
    "1d100000",
    "1d0",
    "0d6",
    "1d1e1",
    "1d6rr<7",
    "10d1000;" * 10,
    "DR +99999999999999",
    "2d10 99999999999999999999999+",
    "24h",
    "9" * 400 + "h",
    "1d" + "9" * 30 + "h",
    "99999999w",
    "none",
    "yes",
    "no",
    "true",
    "allies",
    "axis",
    "both",
    "referee",
    "german",
    "russian",
    "us",
    "village",
    "crossroads",
    "meeting",
    "capture",
    "Panther",
    "Sherman 1",
    "Panzer IV",
    "Gruppe 2",
    "KG",
    "30,18",
    "D3",
    "0,0",
    "-5,-5",
    "nan,nan",
    "inf,inf",
    "1e308,1e308",
    "999999,999999",
    "6 toward panzer-iv",
    "1,2,3,4",
    "17 Oct",
    "32 Feb",
    "1944-12",
    "9999-99",
    "side=german, date=2 Nov",
    "side=" + "x" * 3000,
    "date=" + "9" * 500,
    "A4, O1 2 hexes",
    "2 x Trench, 3 Foxhole at 2",
    "9" * 50 + " x Trench",
    "smoke dissipate",
    "IC6.1",
    "A" + "9" * 300,
    "ann",
    "bob",
    "ann:3 bob:1",
]

# the console's verbs with their sub-commands (bare words) and options
GRAMMAR: dict[str, tuple[list[str], list[str]]] = {
    "game new": (
        [],
        [
            "table",
            "forces",
            "reaction_seconds",
            "ruleset",
            "scenario",
            "attacker",
            "attacker_choice",
            "deployment",
            "teams",
            "bonus",
            "referee",
            "ping_minutes",
        ],
    ),
    "game join": ([], ["side", "force"]),
    "start": ([], []),
    "status": ([], []),
    "units": ([], []),
    "log": ([], []),
    "help": ([], []),
    "history": ([], ["number"]),
    "concede": ([], []),
    "initiative": (["start", "pass", "first"], ["choice"]),
    "act": (
        ["rapid", "road", "reverse", "smoke", "bombard"],
        ["unit", "move", "fire", "first", "embark", "disembark", "assault", "call_fire", "smoke_at"]
        + ["weapon", "overrun", "enter", "leave", "shell", "face", "storey"],
    ),
    "cmt": ([], []),
    "fallback": (["reverse"], ["unit", "to"]),
    "pass": ([], []),
    "react": (["cmt", "fallback"], ["unit", "move", "fire", "at", "to"]),
    "noreact": ([], []),
    "choose": (["fall_back", "fight_on", "none"], ["unit"]),
    "reserves": (["none"], ["units"]),
    "deploy": (["done"], ["unit", "at", "facing", "decoy", "done"]),
    "roll": ([], []),
    "chart": (["list", "show", "roll"], []),
    "odds": (
        ["shot", "fire", "test", "moving", "firer_moved", "target_moved", "smoke", "hull_down"],
        ["firer", "target", "range", "aspect", "cover", "target_markers", "unit", "needs", "sides"]
        + ["dice", "reroll", "at_least"],
    ),
    "measure": ([], ["unit", "to"]),
    "rule": ([], []),
    "library": ([], []),
    "rules": (["remove", "import"], ["name"]),
    "force": (
        ["new", "list", "show", "add", "remove", "upgrade", "copy", "export", "delete", "import"]
        + ["iaw", "command", "subcommander", "replace"],
        ["nation", "name", "points", "date", "force", "unit", "label", "iaw", "transport"],
    ),
    "cards": (["hand", "deal", "use", "deck"], ["deck", "action", "card", "name"]),
    "campaign": (
        ["new", "submit", "status", "ledger", "csv", "orbat", "correct", "retain", "linked"]
        + ["battle", "buy", "command", "retire", "standings", "end"],
        ["name", "german", "russian", "german_cpp", "russian_cpp", "days", "start", "every", "grace"]
        + ["reminders", "referee", "carry_over", "buy", "fortify", "phase", "side", "entry", "to"]
        + ["reason", "units", "scenario", "table", "attacker", "reaction_seconds", "unit", "label"]
        + ["allies", "axis", "allies_force", "axis_force", "damaged", "attacker_choice"],
    ),
    "stats": (["campaign"], []),
    "games": (["mine", "ping", "delay"], ["how", "minutes"]),
    "team": (["give", "grant", "refuse", "request"], ["unit", "ann", "bob"]),
    "ref": (
        ["move", "markers", "tokens", "turn", "initiative", "reveal", "hide", "destroy", "restore"]
        + ["give_units", "ruling", "undo", "pause", "resume", "close", "extend", "deadline", "objective"]
        + ["special", "brief", "list", "force", "zone"],
        ["unit", "at", "facing", "value", "count", "side", "player", "to", "reason", "minutes", "hours"]
        + ["id", "area", "points"],
    ),
}
PLAYERS = ["", "as ann ", "as otto ", "as ref ", "as eve ", "as " + "x" * 100 + " "]


def value(rng: random.Random) -> str:
    return rng.choice(NASTY)


def console_line(rng: random.Random) -> str:
    """One console line: a known verb (now and then an unknown one), a few of its words and
    options with nasty or plausible values, quoted as the console reads them (now and then not)."""
    verb = rng.choice([*GRAMMAR, "nonsense", "/", "game"])
    words, options = GRAMMAR.get(verb, ([], []))
    parts = [rng.choice(PLAYERS) + "/" + verb]
    if verb in ("roll", "rule"):
        parts.append(value(rng) if rng.random() < 0.7 else rng.choice(["2d6", "DR +1", "smoke"]))
        return " ".join(parts)
    for word in rng.sample(words, k=min(len(words), rng.randint(0, 2))):
        parts.append(word)
    if verb == "chart" and rng.random() < 0.8:
        parts += [rng.choice(["rb-rg-strength", "x", "rb-" + value(rng)]), value(rng)]
    for option in rng.sample(options, k=min(len(options), rng.randint(0, 4))):
        parts.append(shlex.quote(f"{option}:{value(rng)}"))
    if rng.random() < 0.1:
        parts.append(value(rng))  # a stray word, quoted or not
    return " ".join(parts)


def console_lines(seed: int, count: int) -> Iterator[str]:
    rng = random.Random(seed)
    for _ in range(count):
        yield console_line(rng)


# lines that work in some state of the game; mutated, one option at a time, by :func:`mutated_line`
TEMPLATES = [
    "/game new table:village forces:us reaction_seconds:120 ping_minutes:10",
    "/game new scenario:meeting attacker:axis table:village reaction_seconds:60",
    "/game new scenario:capture teams:2 bonus:even referee:ref",
    "as ann /game join side:allies",
    "as otto /game join side:axis",
    "as ann /game join side:allies force:KG",
    "/start",
    "/initiative start",
    "/act unit:gruppe-3 move:50,39",
    '/act unit:"Panzer IV" move:14,34 fire:"Sherman 1"',
    "/act unit:sherman-1 move:D3 rapid:true",
    "/react unit:sherman-1 fire:panzer-iv at:C4",
    "/fallback unit:gruppe-2 to:36,46",
    "/deploy unit:Panther at:C2 facing:90",
    "/reserves units:Sherman",
    "/history number:1",
    "/odds shot firer:Panther target:Sherman range:18 aspect:side target_markers:2",
    "/odds test needs:4 sides:6 dice:3 reroll:failed at_least:2",
    "/odds fire unit:panzer-iv target:sherman-1",
    "/measure unit:panzer-iv to:sherman-1",
    "/measure unit:gruppe-3 to:45.5,30",
    "/chart roll rb-rg-strength side=german, date=2 Nov",
    "/rules remove name:KG",
    "/force new nation:german name:KG points:500 date:1944-12",
    "/force add force:KG unit:Panther label:Lion",
    '/force upgrade force:KG unit:"Infantry Detachment 1" iaw:true transport:"251 Halftrack"',
    "/force copy force:KG name:KG2",
    "/force show force:KG",
    "/force remove force:KG unit:Lion",
    "/cards deal deck:KG",
    "/cards use action:play card:KG",
    "/campaign new name:Stalingrad german:ann russian:bob german_cpp:12 russian_cpp:10 days:3 every:24h "
    "grace:2h reminders:24h,1h",
    '/campaign new name:Oct german:ann russian:bob german_cpp:5 russian_cpp:5 start:"17 Oct" referee:ref',
    'as ann /campaign submit buy:"A4, O1 2 hexes" fortify:"2 x Trench"',
    "as ann /campaign submit buy:none phase:1 side:german",
    "as ref /campaign correct entry:1 to:void reason:typo",
    'as ref /campaign retain side:german units:"2 x 4-6-7, 9-1"',
    "/campaign linked new name:L allies:ann axis:otto allies_force:KG axis_force:KG2",
    "/campaign linked battle scenario:meeting table:village reaction_seconds:120",
    "/campaign linked buy side:allies unit:MG label:M",
    "/games ping how:mention",
    "/games delay minutes:30",
    "as ann /team give ann:3 bob:1",
    "as ann /team request unit:sherman-1",
    "as ref /ref move unit:sherman-1 at:30,18 facing:90 reason:slip",
    "as ref /ref markers unit:sherman-1 value:2 reason:slip",
    "as ref /ref tokens side:allies value:3 reason:slip",
    "as ref /ref ruling the wall is a hedge",
    "as ref /ref undo count:1 reason:slip",
    "as ref /ref extend minutes:5",
    "as ref /ref deadline side:axis hours:12",
    "as ref /ref objective side:both id:hill at:30,18",
    "as ref /ref special to:allies the bridge is out",
    "as ref /ref brief side:axis hold the crossroads",
    "as ref /ref force side:axis points:500",
    "as ref /ref zone side:axis area:0,0,10,10",
]


def mutated_line(rng: random.Random) -> str:
    """A working line with one of its values (or its text) replaced by a nasty one."""
    tokens = shlex.split(rng.choice(TEMPLATES))
    at = rng.randrange(1, len(tokens)) if len(tokens) > 1 else 0
    name, colon, _ = tokens[at].partition(":")
    tokens[at] = f"{name}:{value(rng)}" if colon else value(rng)
    return " ".join(shlex.quote(token) if token != "as" else token for token in tokens)


def mixed_lines(seed: int, count: int) -> Iterator[str]:
    """Working lines, mutated lines and random lines, in about equal numbers."""
    rng = random.Random(seed)
    for _ in range(count):
        pick = rng.random()
        if pick < 0.3:
            yield rng.choice(TEMPLATES)
        elif pick < 0.65:
            yield mutated_line(rng)
        else:
            yield console_line(rng)
