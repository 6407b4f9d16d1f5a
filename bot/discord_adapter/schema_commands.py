"""Slash commands made from the command schema (:mod:`bot.command_schema`).

:func:`schema_command` decorates a command's callback in place of ``app_commands.command`` and
``app_commands.describe``: the name, the descriptions and the option texts come from the spec,
and the callback's parameters are checked against it when the command is made, so a Discord
option cannot differ from the console's in name, type, need, choices or bounds.
:func:`generated_command` goes further for the play commands: the whole signature is the spec's.
Positions arrive read (a :class:`~engine.state.Point`) through :class:`PositionTransformer`.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Iterator
from typing import Any, Optional

import discord
from discord import app_commands
from discord.enums import AppCommandOptionType as OptionType
from discord.enums import AppCommandType

from bot.command_schema import COMMANDS, MENUS, Option, Spec
from bot.command_schema.places import Context, Places, out_of_place, places
from bot.text_orders import parse_point
from engine.state import Point

OPTION_TYPES = {
    "text": OptionType.string,
    "unit": OptionType.string,
    "path": OptionType.string,
    "position": OptionType.string,
    "choice": OptionType.string,
    "integer": OptionType.integer,
    "number": OptionType.number,
    "flag": OptionType.boolean,
    "user": OptionType.user,
    "role": OptionType.role,
    "attachment": OptionType.attachment,
}


class SchemaDrift(TypeError):
    """A command's Discord options are not the ones its spec declares."""


class PositionTransformer(app_commands.Transformer):
    """A position typed as ``x,y`` inches or a grid square (``D3``, ``D3+1,-2``), read once."""

    async def transform(self, interaction: discord.Interaction, value: str) -> Point:
        return parse_point(value)


Position = app_commands.Transform[Point, PositionTransformer]


def schema_command(
    path: str, group: app_commands.Group | None = None, **extras: Any
) -> Callable[[Callable], app_commands.Command]:
    """``@schema_command("force new", extras=PRIVATE)``: the command named by ``path``, with the
    spec's descriptions and choices (a callback's own ``app_commands.choices`` may name them for
    Discord), its parameters checked against the spec; in ``group`` if given (a group inside a
    group)."""
    spec = COMMANDS[path]

    def make(callback: Callable) -> app_commands.Command:
        described = app_commands.describe(**descriptions(spec))(callback)
        given = getattr(callback, "__discord_app_commands_param_choices__", {})
        offered = {
            option.name: [app_commands.Choice(name=value, value=value) for value in option.choices]
            for option in spec.shared()
            if option.choices and option.name not in given
        }
        if offered:
            described = app_commands.choices(**offered)(described)
        name = spec.path.split()[-1]
        command = app_commands.command(name=name, description=spec.description, **extras)(described)
        check(command, spec)
        if group is not None:
            group.add_command(command)
        return command

    return make


def generated_command(
    path: str,
    run: Callable[..., Awaitable[None]],
    suggest: dict[str, Callable] | None = None,
    named: dict[str, list[app_commands.Choice]] | None = None,
    **extras: Any,
) -> app_commands.Command:
    """The command named by ``path`` with its options exactly as the spec declares them;
    ``run(interaction, **options)`` carries it out; ``suggest`` gives autocompletes by option,
    ``named`` the names Discord shows for an option's choices (else the values)."""
    spec = COMMANDS[path]

    async def callback(interaction: discord.Interaction, **options: Any) -> None:
        await run(interaction, **options)

    interaction = inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD)
    callback.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [interaction, *(_parameter(option) for option in spec.shared())]
    )
    callback.__qualname__ = callback.__name__ = spec.path.replace(" ", "_")
    if named:
        callback = app_commands.choices(**named)(callback)
    command = schema_command(path, **extras)(callback)
    for name, suggestions in (suggest or {}).items():
        command.autocomplete(name)(suggestions)
    return command


def _parameter(option: Option) -> inspect.Parameter:
    annotation: Any = {
        "integer": int,
        "number": float,
        "flag": bool,
        "position": Position,
        "user": discord.User,
        "role": discord.Role,
        "attachment": discord.Attachment,
    }.get(option.kind, str)
    if option.low is not None or option.high is not None:  # a range's bounds of the option's own type
        low, high = (None if bound is None else annotation(bound) for bound in (option.low, option.high))
        annotation = app_commands.Range[annotation, low, high]
    default = inspect.Parameter.empty if option.required else option.default
    if not option.required and default is None:
        annotation = Optional[annotation]  # noqa: UP045 (a value for discord.py, not a hint)
    return inspect.Parameter(
        option.name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation
    )


def descriptions(spec: Spec) -> dict[str, str]:
    return {option.name: option.description for option in spec.shared() if option.description}


def check(command: app_commands.Command, spec: Spec) -> None:
    """Refuse a command whose options differ from its spec's."""
    declared = {option.name: option for option in spec.shared()}
    given = {parameter.name: parameter for parameter in command.parameters}
    problems = [f"{name} is not declared" for name in given.keys() - declared.keys()]
    problems += [f"{name} is missing" for name in declared.keys() - given.keys()]
    for name in declared.keys() & given.keys():
        option, parameter = declared[name], given[name]
        found = (
            parameter.type,
            parameter.required,
            tuple(str(c.value) for c in parameter.choices),
            parameter.min_value,
            parameter.max_value,
        )
        wanted = (OPTION_TYPES[option.kind], option.required, option.choices, option.low, option.high)
        if found != wanted:
            problems.append(f"{name} is {found}, declared {wanted}")
    if problems:
        raise SchemaDrift(f"/{spec.path}: " + "; ".join(sorted(problems)))


def walk(commands: list) -> Iterator[app_commands.Command]:
    """Every command of a tree, inside its groups."""
    for command in commands:
        if isinstance(command, app_commands.Group):
            yield from walk(command.commands)
        else:
            yield command


def installs(where: Places) -> app_commands.AppInstallationType:
    return app_commands.AppInstallationType(guild=True, user=where.user_install)


def contexts(where: Places) -> app_commands.AppCommandContext:
    return app_commands.AppCommandContext(
        guild="server" in where.contexts,
        dm_channel="bot_dm" in where.contexts,
        private_channel="private_channel" in where.contexts,
    )


def context_of(interaction: discord.Interaction) -> Context | None:
    """Where the interaction was used, as Discord says (None: it did not)."""
    used = interaction.context
    kinds: dict[Context, bool] = {
        "server": used.guild,
        "bot_dm": used.dm_channel,
        "private_channel": used.private_channel,
    }
    return next((kind for kind, here in kinds.items() if here), None)


def refused_here(interaction: discord.Interaction) -> str | None:
    """Why the interaction's command may not be used where it was (see
    :func:`bot.command_schema.places.out_of_place`), or None."""
    command = interaction.command
    if command is None:
        return None
    root = getattr(command, "root_parent", None) or command
    return out_of_place(root.name, context_of(interaction), interaction.is_guild_integration())


def place_commands(tree: app_commands.CommandTree) -> None:
    """Offer each command (and group, and menu) where the schema says
    (:mod:`bot.command_schema.places`)."""
    for command in tree.get_commands(type=None):
        where = places(command.name)
        command.allowed_installs, command.allowed_contexts = installs(where), contexts(where)


def check_tree(tree: app_commands.CommandTree) -> None:
    """Every command in the tree has a spec and takes its options; every spec has a command;
    the message menu is the schema's, and there is no user menu."""
    made = {
        command.qualified_name: command for command in walk(tree.get_commands(type=AppCommandType.chat_input))
    }
    missing = sorted(COMMANDS.keys() - made.keys())
    undeclared = sorted(made.keys() - COMMANDS.keys())
    if missing or undeclared:
        raise SchemaDrift(f"commands without a spec: {undeclared}; specs without a command: {missing}")
    menus = {menu.name for menu in tree.get_commands(type=AppCommandType.message)}
    if menus != set(MENUS) or tree.get_commands(type=AppCommandType.user):
        raise SchemaDrift(f"the message menu is {sorted(menus)}, declared {sorted(MENUS)}; no user menu")
    for path, command in made.items():
        check(command, COMMANDS[path])
