"""Reading a console line with the command schema: who speaks, which command, and its options.

A line looks like the slash command it stands for, and its options are read as Discord reads
them: ``/act unit:Sherman 1 move:20,14 fire:Panzer IV``, each value running to the next
``name:`` of an option the command has (any other name is refused, as Discord would); quotes
around a value are allowed and left out. The command's :class:`~bot.command_schema.Spec` says
what bare words before the first option mean: one that names a yes/no option sets it; others
fill the options the spec lists for them, in order (``/chart show CHART``), then the option that
takes the rest of the line (``/rule smoke dissipate``, where every word is the search's). The
console may leave out a command's inner group (``/new`` for ``/game new``, ``/ref pause`` for
``/ref clock pause``) and a group's everyday subcommand (``/force`` lists). Lines for
console-only commands (``/help``, ``/units``) have no spec and keep their words.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field

from bot.command_schema import COMMANDS, Option, Spec
from bot.services.limits import measure, whole_number
from bot.text_orders import parse_point
from engine.errors import IllegalCommand
from engine.wording import quoted

SKIPPED = ("game", "clock", "prep")  # inner groups a console line may leave out
EVERYDAY = {  # what a group alone asks for
    ("force",): "list",
    ("team",): "show",
    ("campaign",): "status",
    ("campaign", "linked"): "standings",
    ("games",): "mine",
    ("cards",): "hand",
    ("chart",): "list",
    ("table",): "list",
}
YES = ("true", "yes", "1")
QUOTES = ('"', "'")
ONE_WORD = ("flag", "integer", "number", "choice")  # Discord's fields for these take one word
CHUNK = re.compile(r"""(?:[^\s"']+|"[^"]*"|'[^']*')+""")  # a word, quoted parts kept whole


def console_path(spec: Spec) -> tuple[str, ...]:
    """The words the console names a command with: its path without the groups it may skip."""
    words = tuple(word for word in spec.path.split() if word not in SKIPPED)
    return words or tuple(spec.path.split())


PATHS: dict[tuple[str, ...], Spec] = {console_path(spec): spec for spec in COMMANDS.values()}


def subcommands(verb: str) -> dict[str, Spec]:
    """The commands of the group ``verb`` names (none when it names no group), by how the
    console types them."""
    return {"/" + " ".join(path): spec for path, spec in PATHS.items() if len(path) > 1 and path[0] == verb}


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
            shlex.split(text)  # quotes must pair up
        except ValueError as problem:
            raise IllegalCommand(f"I can't read that line: {problem}") from None
        chunks = CHUNK.findall(text)
        player = default_player
        if len(chunks) >= 2 and chunks[0].casefold() == "as":
            player, chunks = _unquoted(chunks[1]), chunks[2:]
        if not chunks:
            return None
        path, rest = _command([_unquoted(chunk) for chunk in chunks])
        chunks = chunks[len(chunks) - len(rest) :]
        spec = PATHS.get(path)
        if spec is None:
            words, options = _loose([_unquoted(chunk) for chunk in chunks])
            return cls(player, path[0], [*path[1:], *words], options)
        words, options = _options(spec, chunks)
        return cls(player, path[0], [*path[1:], *words], options, spec)

    def flag(self, name: str, default: bool = False) -> bool:
        """A yes/no option: ``name`` alone or ``name:yes`` (``true``, ``1``) is yes."""
        if name in self.options:
            return self.options[name].casefold() in YES
        return name in self.words or default

    def gives(self, name: str) -> bool:
        """The line gives the option, by ``name:value`` or (a yes/no) by its bare name."""
        return name in self.options or name in self.words

    def whole(self, name: str, what: str | None = None) -> int:
        """A whole-number option, within the bounds its spec declares."""
        option = self.spec.option(name) if self.spec else None
        least, most = whole_bounds(option) if option else (0, 10**6)
        return whole_number(what or name, self.options.get(name, ""), least, most)

    def typed(self) -> dict[str, object]:
        """Every option the command shares with Discord, read as Discord reads it: a yes/no as a
        bool, a whole number or a number within its bounds, a position as a point, a choice
        among its choices, the rest as typed; one not given is its default (a required one not
        given is refused, naming it)."""
        assert self.spec is not None
        read: dict[str, object] = {}
        for option in self.spec.shared():
            if option.kind == "flag" and (option.default is not None or self.gives(option.name)):
                read[option.name] = self.flag(option.name, bool(option.default))
            elif option.name in self.options:
                read[option.name] = _typed(option, self.options[option.name])
            elif option.required:
                raise IllegalCommand(f"/{self.spec.path} needs {option.name}: (see /help {self.spec.path})")
            else:
                read[option.name] = option.default
        return read

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


def _options(spec: Spec, chunks: list[str]) -> tuple[list[str], dict[str, str]]:
    """The options of ``spec`` given by name, by bare words, and by the rest of the line; bare
    words nothing takes are left over; an option the command does not have is refused."""
    named, bare = _values(spec, chunks)
    options: dict[str, str] = {}
    for word in bare:  # a bare word that names a yes/no option sets it
        yes_no = spec.option(word.casefold())
        if spec.rest is None and yes_no is not None and yes_no.kind == "flag":
            options[word.casefold()] = "true"
    bare = [word for word in bare if word.casefold() not in options]
    options.update(named)
    positional = [name for name in spec.words if name not in options]
    while bare and positional:
        options[positional.pop(0)] = bare.pop(0)
    if spec.rest and bare and spec.rest not in options:
        options[spec.rest], bare = " ".join(bare), []
    return bare, options


def _values(spec: Spec, chunks: list[str]) -> tuple[dict[str, str], list[str]]:
    """The ``name:value`` options of the line, read as Discord reads them: a value runs to the
    next ``name:`` of an option the command has. A quoted value ends at its closing quote, and a
    yes/no, number or choice option takes one word, as Discord's own fields do: the words after
    either are bare. An unknown ``name:`` is refused, except inside a text value."""
    named: dict[str, list[str]] = {}
    bare: list[str] = []
    unknown: list[str] = []
    running: str | None = None  # the option whose value the next chunks run on
    for chunk in chunks:
        name, colon, value = chunk.partition(":")
        name = name.casefold() if colon and name.isidentifier() else ""
        option = spec.option(name) if name else None
        if option is not None or (name and spec.pairs):
            named[name] = [_unquoted(value)] if value else []
            one_word = option is not None and option.kind in ONE_WORD and bool(value)
            running = None if value[:1] in QUOTES or one_word else name
            continue
        value_option = spec.option(running) if running else None
        if name and spec.rest is None and not (value_option and value_option.kind == "text"):
            unknown.append(name)
        elif running is None:
            bare.append(_unquoted(chunk))
        else:
            named[running].append(chunk)
            if value_option is not None and value_option.kind in ONE_WORD:
                running = None
    if unknown:
        raise IllegalCommand(f"I don't understand {', '.join(sorted(set(unknown)))} (see /help)")
    for name, words in named.items():
        _no_yes_no_word(spec, name, words)
    return {name: " ".join(words) for name, words in named.items()}, bare


def _no_yes_no_word(spec: Spec, name: str, words: list[str]) -> None:
    """A value that is no text and ends in the name of a yes/no option (``move:12,14 rapid``)
    is refused, as Discord refuses it, saying how to give the option."""
    option, last = spec.option(name), words[-1].casefold() if len(words) > 1 else ""
    yes_no = spec.option(last)
    if option is not None and option.kind != "text" and yes_no is not None and yes_no.kind == "flag":
        raise IllegalCommand(f"{name}:{' '.join(words)}: a value runs to the next option; write {last}:true")


def whole_bounds(option: Option) -> tuple[int, int]:
    """The least and most a whole-number option takes (0 to a million, unless it says)."""
    return (
        int(option.low) if option.low is not None else 0,
        int(option.high) if option.high is not None else 10**6,
    )


def _typed(option: Option, typed: str) -> object:
    """One option's value as Discord would give it."""
    if option.kind == "integer":
        return whole_number(option.name, typed, *whole_bounds(option))
    if option.kind == "number":
        bounds = [bound for bound in (option.low, option.high) if bound is not None]
        return measure(option.name, typed, *bounds) if len(bounds) == 2 else measure(option.name, typed)
    if option.kind == "position":
        return parse_point(typed)
    if option.kind == "choice" and typed not in option.choices:
        raise IllegalCommand(f"{option.name}: choose {' or '.join(option.choices)}, not {quoted(typed)}")
    return typed


def _unquoted(chunk: str) -> str:
    """A chunk of the line without its quotes (``"Sherman 1"`` is ``Sherman 1``)."""
    return "".join(shlex.split(chunk)) if any(quote in chunk for quote in QUOTES) else chunk
