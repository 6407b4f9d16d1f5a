"""A persistent item's custom id is input like any other: anyone can send any id, with any values
for a menu. Every part of an id is read here, strictly, in the item's callback (never in
``from_custom_id``, where a refusal could not be answered): a part that does not read, an id for
another channel, a value a menu never offered, a wrong count of values: each is refused as out
of date, privately, and changes nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import ClassVar, get_args

import discord

from bot.discord_adapter.answers import tell
from bot.discord_adapter.markdown import refused
from bot.services.game_service import OUT_OF_DATE, GameError

ARGUMENTS = r"(?P<arguments>(?::[^:]*)*)"  # the arguments of an id, read by the item's callback
NUMBER = re.compile(r"[0-9]{1,18}")  # a version, a place in the unit list, a page, a window

Kind = Callable[[str], object]  # reads one argument, or raises ValueError
Shape = tuple[Kind, ...]  # the kinds of a step's arguments, in order


def out_of_date() -> GameError:
    return GameError(OUT_OF_DATE)


def number(text: str) -> int:
    """A whole number as an id carries it (no sign, no spaces, no other digits than 0-9)."""
    if NUMBER.fullmatch(text) is None:
        raise ValueError(text)
    return int(text)


def word(text: str) -> str:
    """An argument read as it is (a side, a square, a spot), checked against the game later."""
    return text


def given(arguments: str) -> tuple[str, ...]:
    """The arguments of an id, as its template's ``arguments`` group caught them."""
    return tuple(arguments.split(":")[1:])


def parsed(arguments: Sequence[str], shapes: Iterable[Shape]) -> tuple:
    """The arguments, each read by its kind, in the first shape they fit (a step may take one of
    a few); else the id is out of date."""
    for shape in shapes:
        if len(shape) == len(arguments):
            try:
                return tuple(kind(argument) for kind, argument in zip(shape, arguments, strict=True))
            except ValueError:
                continue
    raise out_of_date()


def number_of(text: str) -> int:
    """A number an id carries on its own (a version, a window, a phase); else out of date."""
    (value,) = parsed((text,), [(number,)])
    return value


def of_this_channel(channel: str, interaction: discord.Interaction) -> None:
    """An id names the channel its game is in: one from another channel is out of date here."""
    if channel != str(interaction.channel_id):
        raise out_of_date()


def offered(values: Sequence[str], options: Iterable[discord.SelectOption], most: int = 1) -> tuple[str, ...]:
    """The values picked in a menu, if the menu offers each of them, once, and lets pick that
    many (one, unless ``most``); else the menu is out of date."""
    shown = {option.value for option in options}
    if not 1 <= len(values) <= most or len(set(values)) != len(values) or not set(values) <= shown:
        raise out_of_date()
    return tuple(values)


class ReadFirst:
    """A persistent item whose callback reads its whole id first (:meth:`read`, which sets what
    the id carries on the item): a refusal there (out of date) is answered privately, and the
    item's work (:meth:`take`) is done only with the id read. An id sent by a component of
    another kind (a button's id from a menu) is out of date too."""

    kind: ClassVar[discord.ComponentType]  # the kind of component the item is, from its class

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        for base in getattr(cls, "__orig_bases__", ()):
            model = next(iter(get_args(base)), None)
            if isinstance(model, type) and issubclass(model, discord.ui.Item):
                button = issubclass(model, discord.ui.Button)
                cls.kind = discord.ComponentType.button if button else discord.ComponentType.string_select

    def read(self, interaction: discord.Interaction) -> None:
        raise NotImplementedError

    async def take(self, interaction: discord.Interaction) -> None:
        raise NotImplementedError

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            if (interaction.data or {}).get("component_type") != self.kind.value:
                raise out_of_date()
            self.read(interaction)
        except GameError as stale:
            await tell(interaction, refused(stale))
            return
        await self.take(interaction)
