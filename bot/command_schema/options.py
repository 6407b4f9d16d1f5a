"""The parts every command declaration is made of: the kinds of option, a builder for each kind,
and the choices that come from the data and the rule sets' registry."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from bot.help_pages import PAGES
from engine.actions.base import OrderOption
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


def order_option(option: OrderOption) -> Option:
    """An option of ``/act`` as the action that reads it declares it (:mod:`engine.actions`)."""
    return Option(
        option.name,
        option.kind,
        option.description,
        choices=option.choices,
        default=option.default,
        suggest=option.kind == "unit",
    )


def reaction_option(option: OrderOption) -> Option:
    """An option of ``/act`` that ``/react`` takes too, with its description in a reaction."""
    return replace(order_option(option), description=option.reaction_description or option.description)


def table_name(description: str) -> Option:
    return text("table", description, required=True, suggest=True)


def table_size(name: str, description: str, default: float) -> Option:
    return number(name, description, low=SMALLEST, high=LARGEST, default=default)
