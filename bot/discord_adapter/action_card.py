"""One card per action (Components V2): a container with what happened, the battlefield picture
and the buttons for what comes next, as one message.

The buttons are persistent ``DynamicItem``s (bot.discord_adapter.reaction_buttons and
bot.discord_adapter.tap_orders receive them); their custom ids are made here, so a card can be
built without those modules:

- ``ic:<channel>:<window>:react`` / ``noreact``: a reaction window's answers;
- ``ic:<channel>:v<version>:<step>[:<argument>]``: a step of the turn, made for one version of
  the game; once the game has moved on, the service refuses it as out of date.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import discord

from bot.services.next_steps import NextStep
from bot.services.outcome import Outcome
from engine.game_state import GameState
from engine.view import may_name
from engine.wording import side_label, side_name

TEXT_LIMIT = 4000  # characters of text in one Components V2 message
COMPONENT_LIMIT = 40  # components in one message, counted at every depth
ROW_WIDTH = 5  # buttons in one action row
OPTIONS = 25  # options in one select menu
NO_TARGET = "-"  # a choice menu's answer: no new target
OPENING = "open"  # a page turn's argument on the channel's card: it opens a private copy
STEP = r"ic:(?P<channel>[0-9]+):v(?P<version>[0-9]+):"  # the start of a turn step's custom id


def clipped(text: str, limit: int = TEXT_LIMIT) -> str:
    """The text as one card can hold it."""
    if len(text) <= limit:
        return text
    return text[: limit - 40] + "\n… (the rest is in /game log)"


def react_button(channel_id: int, window: int) -> discord.ui.Button:
    return discord.ui.Button(
        label="React", style=discord.ButtonStyle.primary, custom_id=f"ic:{channel_id}:{window}:react"
    )


def no_reaction_button(channel_id: int, window: int) -> discord.ui.Button:
    return discord.ui.Button(
        label="No reaction",
        style=discord.ButtonStyle.secondary,
        custom_id=f"ic:{channel_id}:{window}:noreact",
    )


def step_id(channel_id: int, version: int, step: str, *arguments: object) -> str:
    """A turn step's custom id (at most 100 characters, as Discord allows)."""
    custom_id = ":".join([f"ic:{channel_id}:v{version}:{step}", *map(str, arguments)])
    if len(custom_id) > 100:
        raise ValueError(f"custom id too long: {custom_id}")
    return custom_id


def step_button(
    channel_id: int,
    version: int,
    step: str,
    label: str,
    *arguments: object,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
) -> discord.ui.Button:
    return discord.ui.Button(
        label=label[:80], style=style, custom_id=step_id(channel_id, version, step, *arguments)
    )


def page_of(items: list, page: int) -> tuple[list, int, int]:
    """The items one menu shows on page ``page`` (from 0, held to the pages there are), that
    page and the number of pages: a menu holds at most :data:`OPTIONS`."""
    pages = max(1, math.ceil(len(items) / OPTIONS))
    page = min(max(page, 0), pages - 1)
    return items[page * OPTIONS : (page + 1) * OPTIONS], page, pages


def page_buttons(
    channel: int, version: int, step: str, arguments: tuple[object, ...], page: int, pages: int
) -> list[discord.ui.Item]:
    """The buttons that turn a long menu's pages (none for a menu of one page)."""
    turns = [(page - 1, f"Previous ({page} of {pages})"), (page + 1, f"More ({page + 2} of {pages})")]
    return [
        step_button(channel, version, step, label, *arguments, to) for to, label in turns if 0 <= to < pages
    ]


def of_pages(page: int, pages: int) -> str:
    return f" (page {page + 1} of {pages})" if pages > 1 else ""


def choice_options(state: GameState) -> list[discord.SelectOption]:
    """The answers to the choice the game waits for (which unit loses its markers, picks a new
    target, defends a building; whether to fall back from close combat). Hidden units are never
    named."""
    choice = state.pending.choice  # type: ignore[union-attr]
    assert choice is not None
    if choice.kind == "close_combat_fall_back":
        return [discord.SelectOption(label=o.replace("_", " ").capitalize(), value=o) for o in choice.options]
    units = [state.units[o] for o in choice.options if o in state.units]
    named = [u for u in units if may_name(u, choice.side, aiming=True)]  # never a hidden one
    options = [discord.SelectOption(label=u.name[:100], value=u.id) for u in named]
    if choice.kind == "choose_target":
        options.append(discord.SelectOption(label="No target", value=NO_TARGET))
    return options


def choice_menu(
    state: GameState, channel_id: int, version: int, page: int = 0, *opening: object
) -> list[discord.ui.Item]:
    """The choice's menu, one page of it, with the buttons that turn its pages (``opening``:
    arguments they carry before the page, as the channel's card's do, whose turns open a private
    copy)."""
    choice = state.pending.choice  # type: ignore[union-attr]
    shown, page, pages = page_of(choice_options(state), page)
    menu = discord.ui.Select(
        custom_id=step_id(channel_id, version, "choice"),
        placeholder=f"{choice.side}: choose ({choice.kind.replace('_', ' ')}){of_pages(page, pages)}"[:150],
        options=shown,
    )
    return [menu, *page_buttons(channel_id, version, "choices", opening, page, pages)]


# each turn step's button: its custom id's step, its label (``{label}``: the side as a label,
# ``{name}``: as in a sentence, ``{other}``: the other side), whether it is the main one, and
# whether its custom id carries the side
BUTTONS: dict[str, tuple[str, str, bool, bool]] = {
    "join": ("join", "Join {name}", False, True),
    "start": ("start", "Start", True, False),
    "set_up": ("setup", "Set up a unit ({label})", True, True),
    "set_up_done": ("setupdone", "Done setting up ({label})", False, True),
    "reserves": ("reserves", "Call reserves ({label})", True, True),
    "no_reserves": ("noreserves", "No reserves ({label})", False, True),
    "go_first": ("first", "{label}: go first", True, False),
    "let_start": ("second", "{label}: let {other} start", False, False),
    "activate": ("activate", "Activate ({label})", True, False),
    "cmt": ("cmt", "CMT ({label})", False, False),
    "pass": ("pass", "Pass ({label})", False, False),
}


def step_items(state: GameState, step: NextStep, channel_id: int, version: int) -> list[discord.ui.Item]:
    """The button (or menu) that takes one step the game waits for."""
    if step.kind == "react":
        return [react_button(channel_id, step.window or 0)]
    if step.kind == "no_reaction":
        return [no_reaction_button(channel_id, step.window or 0)]
    if step.kind == "choose":
        return choice_menu(state, channel_id, version, 0, OPENING)
    name, label, main, with_side = BUTTONS[step.kind]
    side = step.side or ""
    words = {"label": side_label(side), "name": side_name(side)} if side else {}
    if step.kind == "let_start":
        words["other"] = side_name(state.other_side(side))
    style = discord.ButtonStyle.primary if main else discord.ButtonStyle.secondary
    arguments = (side,) if with_side else ()
    return [step_button(channel_id, version, name, label.format(**words), *arguments, style=style)]


def next_steps(outcome: Outcome, channel_id: int) -> list[discord.ui.Item]:
    """The buttons for what the game waits for after the outcome (:attr:`Outcome.next`), in its
    order."""
    return [
        item for step in outcome.next for item in step_items(outcome.state, step, channel_id, outcome.version)
    ]


def action_card(
    text: str,
    picture: discord.File | None = None,
    buttons: Sequence[discord.ui.Item] = (),
    *,
    replay: discord.File | None = None,
) -> discord.ui.LayoutView:
    """The card: the text, the picture sent with it (``attachment://``, described as the file is)
    and at a game's end its animated replay beside it, the buttons (and menus) in as few rows as
    they fit (a menu fills a row)."""
    card = discord.ui.LayoutView(timeout=None)
    box = discord.ui.Container(discord.ui.TextDisplay(clipped(text)))
    shown = [f for f in (picture, replay) if f is not None]
    if shown:
        box.add_item(discord.ui.MediaGallery(*map(discord.MediaGalleryItem, shown)))  # described as the files
    rows: list[list[discord.ui.Item]] = []
    for item in buttons:
        if not rows or sum(i.width for i in rows[-1]) + item.width > ROW_WIDTH:
            rows.append([])
        rows[-1].append(item)
    for row in rows:
        box.add_item(discord.ui.ActionRow(*row))
    card.add_item(box)
    if card.total_children_count > COMPONENT_LIMIT:
        raise ValueError(f"a card holds at most {COMPONENT_LIMIT} components")
    return card


def without_buttons(message: discord.Message) -> discord.ui.LayoutView | None:
    """A card as it was posted, without its action rows (a closed window's card keeps its text
    and picture); None for a message that is no card (its buttons simply go)."""
    if not message.flags.components_v2:
        return None
    card = discord.ui.LayoutView.from_message(message, timeout=None)
    for item in list(card.walk_children()):
        if isinstance(item, discord.ui.ActionRow) and item.parent is not None:
            item.parent.remove_item(item)
        elif isinstance(item, discord.ui.ActionRow):
            card.remove_item(item)
    return card
