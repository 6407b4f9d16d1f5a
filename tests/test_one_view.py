"""One view (issue 20, step 3): ``engine/view.py`` alone decides what each audience may see, and
the renderer, the Discord replies, threads and autocomplete, the console and the unit look-ups
ask it.

Before, the same decision was written out in several places; these functions now live only in
the view (or are gone): ``renderer/visibility.py`` ``view_for`` and ``sees``; ``engine/events.py``
``Event.told_to`` and ``told``; ``engine/referee_prep.py`` ``objective_known_to`` and
``rule_known_to``; and inline checks in ``bot/text_orders.py`` ``find_unit``,
``play_commands._units`` (autocomplete), ``side_threads.side_news``/``referee_news`` and the
thread pictures, ``referees.eyes_of``, ``console.reader``/``save_map``/``status`` and
``team_view.team_text``; the card hands (``card_service.hand_text``, ``card_commands.own_cards``)
and ``/stats`` (``stats_service.game_dice``). What the others are told of a secret event was
chosen at each place that logged it (a ``public=`` text, in the flow, the actions, deployment,
teams and the referee's modules), and the name the enemy reads for a hidden unit
(``deployment.hidden.known_as``) outside the view: events now carry what is kept from the
others, and the view words them. ``renderer/markers.py`` no longer imports a rules module to know
which objectives a viewer may see.
"""

import ast
import re
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VIEW = ROOT / "engine" / "view.py"
FRONT_ENDS = sorted(
    [
        *(ROOT / "renderer").glob("*.py"),
        *(ROOT / "bot" / "discord_adapter").glob("*.py"),
        *(ROOT / "bot" / "handlers").glob("*.py"),
        *(ROOT / "bot").glob("console*.py"),
    ]
)
# the modules that decide what an audience sees: each asks the view
DECIDING = [
    "renderer/__init__.py",
    "renderer/markers.py",
    "renderer/overlay.py",
    "renderer/header.py",
    "bot/console.py",
    "bot/text_orders.py",
    "bot/services/team_view.py",
    "bot/discord_adapter/common.py",
    "bot/handlers/games.py",
    "bot/discord_adapter/play_commands.py",
    "bot/handlers/referees.py",
    "bot/discord_adapter/referees.py",
    "bot/discord_adapter/side_threads.py",
    "engine/referee_prep.py",
    "bot/services/card_service.py",
    "bot/services/stats_service.py",
    "bot/discord_adapter/card_commands.py",
]
# where a hand of cards or a game's dice are shown: they ask the view (``hand_of``, ``dice_shown``)
HANDS_AND_DICE = [
    "bot/services/card_service.py",
    "bot/services/stats_service.py",
    "bot/discord_adapter/card_commands.py",
    "bot/console.py",
]
CONSOLIDATED = {"view_for", "sees", "told", "told_to", "objective_known_to", "rule_known_to", "known_as"}
WHO_MAY_SEE = re.compile(r"(known_to|told_to|visible_to|may_see)$")


@cache
def parsed(path: Path) -> ast.Module:
    return ast.parse(path.read_text(), filename=str(path))


def imported(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(parsed(path)):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names |= {node.module, *(f"{node.module}.{alias.name}" for alias in node.names)}
    return names


def test_the_modules_that_decide_what_an_audience_sees_import_the_view():
    assert [name for name in DECIDING if "engine.view" not in imported(ROOT / name)] == []


def test_the_renderer_imports_no_rules_module_to_know_what_a_viewer_sees():
    rules = ("engine.referee_prep", "engine.rules", "engine.variants", "engine.deployment.hidden")
    found = {
        f"{path.relative_to(ROOT)}: {name}"
        for path in (ROOT / "renderer").glob("*.py")
        for name in imported(path)
        if name in rules or name.startswith(tuple(f"{r}." for r in rules))  # engine.rulesets is no rule
    }
    assert found == set()
    assert not (ROOT / "renderer" / "visibility.py").exists()


def test_no_other_module_defines_what_an_audience_may_see():
    modules = [p for d in ("engine", "bot", "renderer") for p in (ROOT / d).rglob("*.py") if p != VIEW]
    found = [
        f"{path.relative_to(ROOT)}:{node.lineno} {node.name}"
        for path in modules
        for node in ast.walk(parsed(path))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and (node.name in CONSOLIDATED or WHO_MAY_SEE.search(node.name))
    ]
    assert found == []


def test_front_ends_read_no_secret_directly():
    """Discord, the console and the renderer read neither an event's public text nor whether a
    unit is hidden to decide who sees it: the view does (the renderer's tags only mark a unit the
    view already showed its owner as hidden, as do the roster and the picture's description)."""
    marks_only = {ROOT / "renderer" / name for name in ("tags.py", "panel.py", "description.py")}
    found = [
        f"{path.relative_to(ROOT)}:{node.lineno} .{node.attr}"
        for path in [*FRONT_ENDS, ROOT / "bot" / "text_orders.py"]
        for node in ast.walk(parsed(path))
        if isinstance(node, ast.Attribute)
        and (node.attr in ("public", "told_to") or (node.attr == "hidden" and path not in marks_only))
    ]
    assert found == []


def test_the_engine_core_names_no_rule_set_for_what_it_hides():
    assert not {name for name in imported(VIEW) if name.startswith("engine.variants")}


def _reads_a_secret(node: ast.AST) -> bool:
    """A read of where a game's cards are (``state.cards.hands``), or of an event's secrecy; a
    logged roll's own ``secret`` flag (``RollRow.secret``) is its roller's choice, not a view."""
    if not isinstance(node, ast.Attribute):
        return False
    owner = node.value
    owner_name = owner.attr if isinstance(owner, ast.Attribute) else getattr(owner, "id", "")
    if node.attr in ("hands", "in_play", "exchanged"):
        return owner_name == "cards"
    return node.attr in ("secret", "public") and owner_name not in ("RollRow", "r")


def test_hands_and_dice_are_shown_as_the_view_says():
    """A hand of cards, the cards in play and the dice of /stats are read through the view
    (``hand_of``, ``dice_shown``): no module that shows them reads a side's hand or its cards in
    play from the game, or whether an event is secret."""
    found = [
        f"{name}:{node.lineno} .{node.attr}"
        for name in HANDS_AND_DICE
        for node in ast.walk(parsed(ROOT / name))
        if _reads_a_secret(node)
    ]
    assert found == []


MODULES = sorted(p for d in ("engine", "bot", "renderer") for p in (ROOT / d).rglob("*.py"))
# the events' own model keeps the words stored, before events said what they keep, for the others
STORED_WORDS = ROOT / "engine" / "events.py"


def test_no_public_text_is_chosen_outside_the_view():
    """No module but the view words an event for those not told the truth: nothing logs an
    event with a ``public=`` text, and nothing but the view reads one back."""
    scanned = {str(path.relative_to(ROOT)) for path in MODULES}
    assert {"bot/console.py", "bot/services/team_view.py"} <= scanned
    assert {"engine/flow", "engine/actions", "bot/services"} <= {name.rsplit("/", 1)[0] for name in scanned}
    found = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for path in MODULES
        if path != VIEW
        for node in ast.walk(parsed(path))
        if (isinstance(node, ast.keyword) and node.arg == "public")
        or (isinstance(node, ast.Attribute) and node.attr == "public" and path != STORED_WORDS)
    ]
    assert found == []


def test_the_services_name_a_unit_as_the_view_does():
    """A unit's true name (what is under a marker) is read for a reader through the view
    (``name_for``), not in the services."""
    found = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for path in (ROOT / "bot" / "services").glob("*.py")
        for node in ast.walk(parsed(path))
        if isinstance(node, ast.Attribute) and node.attr == "true_name"
    ]
    assert found == []
