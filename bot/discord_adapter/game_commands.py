"""``/game``: set up, join, start and look at the channel's game."""

from __future__ import annotations

import tempfile
from dataclasses import replace

import discord
from discord import app_commands

from bot.discord_adapter.action_card import action_card, next_steps
from bot.discord_adapter.answers import PRIVATE, answer, sending, stored
from bot.discord_adapter.common import (
    battlefield_file,
    display_name,
    games,
    owner_scope,
    summary,
    told_lines,
)
from bot.discord_adapter.force_commands import force_service, own_forces
from bot.discord_adapter.handled_commands import handled_command
from bot.discord_adapter.markdown import markdown
from bot.discord_adapter.owed_commands import pings
from bot.discord_adapter.referees import apply_as_user
from bot.discord_adapter.replay_card import outcome_card, stories, story_card
from bot.discord_adapter.schema_commands import schema_command
from bot.discord_adapter.side_threads import open_for_set_up, open_side_threads, tell_privately
from bot.discord_adapter.table_commands import battlefields, table_service
from bot.discord_adapter.team_commands import make_teams_and_referees
from bot.services.game_service import Outcome, scenario_text, setup_text
from bot.services.limits import MOST_SEED, window_seconds
from bot.services.ping_service import MAX_MINUTES
from bot.storage.ping_store import DEFAULT_MINUTES
from engine.commands import JoinSide
from engine.rulesets import rule_set_choices, with_rule_set
from engine.scenarios.quick_battle import (
    allied_forces,
    quick_battle,
    quick_forces,
    scenario_battle,
)


def card_for(
    interaction: discord.Interaction, outcome: Outcome, text: str, picture=None
) -> discord.ui.LayoutView:
    """The card of a set-up step, with the buttons for the next (join, start, the initiative)."""
    steps = next_steps(outcome, int(interaction.channel_id or 0))
    return action_card(text, picture, steps)


async def show_joined(interaction: discord.Interaction, outcome: Outcome) -> None:
    """A player took a side: the card, then a scenario's set-up threads and private news."""
    text = f"{told_lines(outcome.events, state=outcome.state)}\n{summary(outcome.state)}"  # names who joined
    await answer(interaction, view=card_for(interaction, outcome, text))
    await open_for_set_up(interaction, outcome.state)
    await tell_privately(interaction, replace(outcome, threads=None))  # opened just now?


async def show_started(interaction: discord.Interaction, outcome: Outcome) -> None:
    """The game started: the card with the battlefield, then the side threads and private news."""
    text = told_lines(outcome.events, state=outcome.state) + "\n\n" + summary(outcome.state)
    picture = await battlefield_file(interaction.client, outcome.state, None, outcome.events, outcome.before)
    await answer(interaction, view=card_for(interaction, outcome, text, picture), file=picture)
    await open_side_threads(interaction, outcome.state)
    await tell_privately(interaction, replace(outcome, threads=None))  # opened just now?


async def show_conceded(interaction: discord.Interaction, outcome: Outcome) -> None:
    """A side conceded: the game-over card (its story follows)."""
    text = told_lines(outcome.events, state=outcome.state)
    picture = await battlefield_file(interaction.client, outcome.state, None, outcome.events, outcome.before)
    card, files = outcome_card(outcome, text, picture)
    await answer(interaction, view=card, files=files)


class GameCommands(app_commands.Group):
    def __init__(self) -> None:
        super().__init__(name="game", description="Set up and follow this channel's Iron Cross game")
        handled_command("game start", shown=show_started, group=self)
        handled_command("game concede", shown=show_conceded, group=self)
        for path in ("game status", "game log", "game history", "game map"):
            handled_command(path, group=self, extras=PRIVATE)

    @schema_command("game new")
    @app_commands.autocomplete(table=battlefields)
    @app_commands.choices(
        forces=[app_commands.Choice(name=quick_forces()[name][:100], value=name) for name in allied_forces()],
        ruleset=[
            app_commands.Choice(name=title[:100], value=name) for name, title in rule_set_choices().items()
        ],
    )
    async def new(
        self,
        interaction: discord.Interaction,
        table: str = "village",
        forces: str = "us",
        seed: app_commands.Range[int, 0, MOST_SEED] | None = None,
        edges: str | None = None,
        areas: str = "edges",
        pace: str = "live",
        reaction_seconds: app_commands.Range[int, 15, 172800] | None = None,
        scenario: str = "quick",
        attacker: str | None = None,
        attacker_choice: str | None = None,
        deployment: str = "alternating",
        ruleset: str = "core_2015",
        ping_minutes: app_commands.Range[int, 0, MAX_MINUTES] = DEFAULT_MINUTES,
        teams: app_commands.Range[int, 1, 4] = 1,
        bonus: str = "even",
        referee: discord.User | None = None,
        referee_role: discord.Role | None = None,
    ) -> None:
        channel, user = str(interaction.channel_id), str(interaction.user.id)
        reaction_seconds = window_seconds(pace, reaction_seconds)
        ground = await table_service(interaction).battlefield(owner_scope(interaction), table, seed)
        if scenario == "quick":
            battle = quick_battle(ground, forces)
            text = markdown(setup_text(ground, forces, reaction_seconds))
        else:
            battle = scenario_battle(
                scenario, ground, attacker, attacker_choice, deployment == "plotted", edges, areas
            )
            text = markdown(scenario_text(battle, ground, reaction_seconds))
        battle = with_rule_set(battle, ruleset)
        teamed = make_teams_and_referees(battle, teams, bonus, referee, referee_role)
        text = "\n".join(filter(None, [text, teamed]))
        outcome = await games(interaction).new_game(
            channel, battle, reaction_seconds, user, interaction_id=sending(interaction)
        )
        stored(interaction, outcome)
        await pings(interaction).set_delay(channel, ping_minutes)
        if outcome.repeated:  # the same interaction again: the game it set up stands
            await answer(
                interaction,
                f"Already done: this set up the channel's game.\n{summary(outcome.state)}",
                ephemeral=True,
            )
            return
        await answer(interaction, view=card_for(interaction, outcome, text + "\n" + summary(outcome.state)))

    @schema_command("game join")
    @app_commands.autocomplete(force=own_forces)
    async def join(self, interaction: discord.Interaction, side: str, force: str | None = None) -> None:
        channel, user = str(interaction.channel_id), str(interaction.user.id)
        command = JoinSide(side=side, player=user)
        planned = (await games(interaction).game(channel)).planned_scenario
        if planned is not None and force:
            command = await force_service(interaction).joining(
                owner_scope(interaction), str(interaction.user.id), side, force, planned.roles[side]
            )
        command = command.model_copy(update={"name": display_name(interaction.user)})
        outcome = await apply_as_user(interaction, command)  # with the server roles: a referee plays no side
        await show_joined(interaction, outcome)

    @schema_command("game replay", extras=PRIVATE)
    async def replay(self, interaction: discord.Interaction) -> None:
        with tempfile.TemporaryFile() as movie:
            replay = await stories(interaction).make(str(interaction.channel_id), movie)
            view, files = story_card(replay, movie)
            await answer(interaction, view=view, files=files, ephemeral=True)
