"""Reading a console line with the command schema: who speaks, which command, and its options.

A line looks like the slash command it stands for: ``/act unit:"Sherman 1" move:20,14``. The
command's :class:`~bot.command_schema.Spec` decides what the rest means: ``name:value`` gives an
option the command has (any other name is refused, as Discord would); a bare word that names a
yes/no option sets it; other bare words fill the options the spec lists for them, in order
(``/chart show CHART``), then the option that takes the rest of the line (``/rule smoke
dissipate``). The console may leave out a command's inner group (``/new`` for ``/game new``,
``/ref pause`` for ``/ref clock pause``) and a group's everyday subcommand (``/force`` lists).
Lines for console-only commands (``/help``, ``/units``) have no spec and keep their words.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field

from bot.command_schema import COMMANDS, Spec
from bot.services.limits import whole_number
from engine.errors import IllegalCommand

SKIPPED = ("game", "clock", "prep")  # inner groups a console line may leave out
EVERYDAY = {  # what a group alone asks for
    ("force",): "list",
    ("team",): "show",
    ("campaign",): "status",
    ("campaign", "linked"): "standings",
    ("games",): "mine",
    ("cards",): "hand",
    ("chart",): "list",
}
YES = ("true", "yes", "1")


def console_path(spec: Spec) -> tuple[str, ...]:
    """The words the console names a command with: its path without the groups it may skip."""
    words = tuple(word for word in spec.path.split() if word not in SKIPPED)
    return words or tuple(spec.path.split())


PATHS: dict[tuple[str, ...], Spec] = {console_path(spec): spec for spec in COMMANDS.values()}


@dataclass(frozen=True)
class Line:
    """One typed command: who speaks, the verb, the subcommand and leftover bare words, the
    ``name:value`` options, and the command's spec (None for a console-only command)."""

    player: str
    verb: str
    words: list[str]
    options: dict[str, str]
    spec: Spec | None = field(default=None, compare=False)

    @classmethod
    def read(cls, text: str, default_player: str) -> Line | None:
        try:
            tokens = shlex.split(text)
        except ValueError as problem:
            raise IllegalCommand(f"I can't read that line: {problem}") from None
        player = default_player
        if len(tokens) >= 2 and tokens[0].casefold() == "as":
            player, tokens = tokens[1], tokens[2:]
        if not tokens:
            return None
        path, rest = _command(tokens)
        spec = PATHS.get(path)
        if spec is None:
            words, options = _loose(rest)
            return cls(player, path[0], [*path[1:], *words], options)
        words, options = _options(spec, rest)
        return cls(player, path[0], [*path[1:], *words], options, spec)

    def flag(self, name: str, default: bool = False) -> bool:
        """A yes/no option: ``name`` alone or ``name:yes`` (``true``, ``1``) is yes."""
        if name in self.options:
            return self.options[name].casefold() in YES
        return name in self.words or default

    def whole(self, name: str, what: str | None = None) -> int:
        """A whole-number option, within the bounds its spec declares."""
        option = self.spec.option(name) if self.spec else None
        low, high = (option.low, option.high) if option else (None, None)
        least, most = int(low if low is not None else 0), int(high if high is not None else 10**6)
        return whole_number(what or name, self.options.get(name, ""), least, most)

    def named_unit(self) -> str | None:
        """The unit the line names, by ``unit:NAME`` or by the bare word in its place."""
        return self.options.get("unit")

    def unit(self, usage: str) -> str:
        named = self.named_unit()
        if not named:
            raise IllegalCommand(f"Name the unit: {usage}")
        return named


def _command(tokens: list[str]) -> tuple[tuple[str, ...], list[str]]:
    """The console path the line names, and the tokens after it."""
    path: list[str] = []
    rest = list(tokens)
    rest[0] = rest[0].lstrip("/")
    while rest and ":" not in rest[0]:
        word = rest[0].casefold()
        if word in SKIPPED and (path or len(rest) > 1):
            rest.pop(0)
            continue
        if path and not any(known[: len(path) + 1] == (*path, word) for known in PATHS):
            break
        path.append(word)
        rest.pop(0)
    if not path:
        raise IllegalCommand("Start with a command: see /help")
    everyday = EVERYDAY.get(tuple(path))
    if everyday and not (rest and ":" not in rest[0]):
        path.append(everyday)
    return tuple(path), rest


def _loose(tokens: list[str]) -> tuple[list[str], dict[str, str]]:
    words, options = [], {}
    for token in tokens:
        name, colon, value = token.partition(":")
        if colon and name.isidentifier():
            options[name.casefold()] = value
        else:
            words.append(token)
    return words, options


def _options(spec: Spec, tokens: list[str]) -> tuple[list[str], dict[str, str]]:
    """The options of ``spec`` given by name, by bare words, and by the rest of the line; bare
    words nothing takes are left over; an option the command does not have is refused."""
    options: dict[str, str] = {}
    bare: list[str] = []
    unknown: list[str] = []
    for token in tokens:
        name, colon, value = token.partition(":")
        name = name.casefold()
        option = spec.option(name) if colon and name.isidentifier() else None
        if option is not None:
            options[name] = value
        elif colon and name.isidentifier() and spec.pairs:
            options[name] = value
        elif colon and name.isidentifier() and spec.rest is None:
            unknown.append(name)
        else:
            yes_no = spec.option(token.casefold())
            if yes_no is not None and yes_no.kind == "flag" and token.casefold() not in options:
                options[token.casefold()] = "true"
            else:
                bare.append(token)
    if unknown:
        raise IllegalCommand(f"I don't understand {', '.join(sorted(set(unknown)))} (see /help)")
    positional = [name for name in spec.words if name not in options]
    while bare and positional:
        options[positional.pop(0)] = bare.pop(0)
    if spec.rest and bare and spec.rest not in options:
        options[spec.rest], bare = " ".join(bare), []
    return bare, options
