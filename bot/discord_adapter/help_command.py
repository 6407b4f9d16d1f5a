"""``/help``: a page per topic (bot.help_pages), only to the member who asked, turned with
Previous / Next buttons and a topic select.

The buttons and the select are persistent ``DynamicItem``s: the custom id carries the page
shown (``ichelp:next:3``), so they keep working after a restart. A click is acknowledged at once
as an update of the message, then the page is written over it. A page that is not there, or a
topic the select does not offer (a forged id or value), is refused privately.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.discord_adapter.answers import PRIVATE, acknowledge_in_place, answer
from bot.discord_adapter.custom_ids import ReadFirst, offered
from bot.discord_adapter.handled_commands import handled_command
from bot.discord_adapter.markdown import markdown
from bot.handlers.ask import Answer
from bot.help_pages import PAGES, help_page
from bot.reply import Heading, Reply
from bot.services.game_service import GameError

OUT_OF_DATE = "This help card is out of date: use /help again."


def page_text(index: int) -> str:
    title, *words = help_page(PAGES[index].key).lines
    footer = f"-# Page {index + 1} of {len(PAGES)}: turn with the buttons or pick a topic"
    return f"## {PAGES[index].title}\n{markdown(Reply(tuple(words)))}\n{footer}"


def page_view(index: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(PageButton(index, "prev"))
    view.add_item(PageButton(index, "next"))
    view.add_item(TopicSelect(index))
    return view


async def show_page(interaction: discord.Interaction, index: int) -> None:
    """Acknowledge the click as an update of its message, then show page ``index`` there."""
    if await acknowledge_in_place(interaction):
        await interaction.edit_original_response(content=page_text(index), view=page_view(index))


class PageButton(
    ReadFirst,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"ichelp:(?P<way>prev|next):(?P<page>[^:]*)",
):
    """Previous or Next, from the page the message shows (round from the last to the first)."""

    def __init__(self, page: int | str, way: str) -> None:
        super().__init__(
            discord.ui.Button(
                label="Previous" if way == "prev" else "Next",
                style=discord.ButtonStyle.secondary,
                custom_id=f"ichelp:{way}:{page}",
            )
        )
        self.given_page, self.way = str(page), way

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(match["page"], match["way"])

    def read(self, interaction: discord.Interaction) -> None:
        if self.given_page not in {str(page) for page in range(len(PAGES))}:
            raise GameError(OUT_OF_DATE)
        self.page = int(self.given_page)

    async def take(self, interaction: discord.Interaction) -> None:
        step = -1 if self.way == "prev" else 1
        await show_page(interaction, (self.page + step) % len(PAGES))


class TopicSelect(ReadFirst, discord.ui.DynamicItem[discord.ui.Select], template=r"ichelp:topic"):
    """Every topic, the one shown marked as chosen."""

    def __init__(self, page: int = 0) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id="ichelp:topic",
                placeholder="Pick a topic",
                options=[
                    discord.SelectOption(label=p.title, value=p.key, default=i == page)
                    for i, p in enumerate(PAGES)
                ],
            )
        )

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls()

    def read(self, interaction: discord.Interaction) -> None:
        try:
            (self.chosen,) = offered(self.item.values, self.item.options)
        except GameError:
            raise GameError(OUT_OF_DATE) from None

    async def take(self, interaction: discord.Interaction) -> None:
        await show_page(interaction, [p.key for p in PAGES].index(self.chosen))


async def show_help(interaction: discord.Interaction, page: Answer) -> None:
    """The topic's page, with the buttons that turn it."""
    assert isinstance(page, Reply)
    (title,) = page.lines[0]
    index = next(i for i, p in enumerate(PAGES) if title == Heading(p.title))
    await answer(interaction, page_text(index), ephemeral=True, view=page_view(index))


help_command = handled_command(
    "help",
    presented=show_help,
    named={"topic": [app_commands.Choice(name=p.title, value=p.key) for p in PAGES]},
    extras=PRIVATE,
)
