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

from engine.deployment.placing import whose_turn
from engine.game_state import GameState
from engine.state import Phase
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


def setting_up(state: GameState) -> list[str]:
    """The sides that may set a unit up now: the one whose turn it is, or in a plotted set-up
    every side not yet done."""
    plan = state.deployment
    if plan is None:
        return []
    if plan.order == "plotted":
        return [side for side, p in plan.sides.items() if not p.done]
    turn = whose_turn(plan)
    return [turn] if turn else []


def next_steps(state: GameState, channel_id: int, version: int) -> list[discord.ui.Item]:
    """The buttons for what the game waits for now: joining and starting a quick battle, the
    initiative winner's choice, each side's call of its reserves, the active side's activation,
    CMT or pass, a reaction window's answers, a choice's menu; during a scenario's set-up, each
    side's set-up steps, then Start."""
    primary = discord.ButtonStyle.primary
    if state.phase is Phase.REACTION and state.pending is not None:
        return [
            react_button(channel_id, state.pending.window),
            no_reaction_button(channel_id, state.pending.window),
        ]
    if state.phase is Phase.CHOICE and state.pending is not None and state.pending.choice is not None:
        return choice_menu(state, channel_id, version, 0, OPENING)
    if state.phase is Phase.SETUP and state.deployment is not None:
        return [
            button
            for side in setting_up(state)
            for button in (
                step_button(
                    channel_id, version, "setup", f"Set up a unit ({side_label(side)})", side, style=primary
                ),
                step_button(channel_id, version, "setupdone", f"Done setting up ({side_label(side)})", side),
            )
        ] or [step_button(channel_id, version, "start", "Start", style=primary)]
    if state.phase is Phase.SETUP and state.deployment is None and state.planned_scenario is None:
        joins = [
            step_button(channel_id, version, "join", f"Join {side_name(side)}", side) for side in state.sides
        ]
        return [*joins, step_button(channel_id, version, "start", "Start", style=primary)]
    if state.phase is Phase.RESERVES:
        return [
            button
            for side in state.reserve_calls_due
            for button in (
                step_button(
                    channel_id,
                    version,
                    "reserves",
                    f"Call reserves ({side_label(side)})",
                    side,
                    style=primary,
                ),
                step_button(channel_id, version, "noreserves", f"No reserves ({side_label(side)})", side),
            )
        ]
    if state.phase is Phase.INITIATIVE and state.initiative_winner:
        side = state.initiative_winner
        return [
            step_button(channel_id, version, "first", f"{side_label(side)}: go first", style=primary),
            step_button(
                channel_id,
                version,
                "second",
                f"{side_label(side)}: let {side_name(state.other_side(side))} start",
            ),
        ]
    if state.phase is Phase.ACTIVE and state.active_side:
        side = state.active_side
        return [
            step_button(channel_id, version, "activate", f"Activate ({side_label(side)})", style=primary),
            step_button(channel_id, version, "cmt", f"CMT ({side_label(side)})"),
            step_button(channel_id, version, "pass", f"Pass ({side_label(side)})"),
        ]
    return []


def action_card(
    text: str,
    picture: discord.File | None = None,
    buttons: Sequence[discord.ui.Item] = (),
    *,
    replay: discord.File | None = None,
) -> discord.ui.LayoutView:
    """The card: the text, the picture sent with it (``attachment://``) and at a game's end its
    animated replay beside it, the buttons (and menus) in as few rows as they fit (a menu fills
    a row)."""
    card = discord.ui.LayoutView(timeout=None)
    box = discord.ui.Container(discord.ui.TextDisplay(clipped(text)))
    shown = [f for f in (picture, replay) if f is not None]
    if shown:
        box.add_item(
            discord.ui.MediaGallery(*(discord.MediaGalleryItem(f"attachment://{f.filename}") for f in shown))
        )
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
