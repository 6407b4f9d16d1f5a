"""``/game``: set up, join, start and look at the channel's game."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands

from bot.discord_adapter.answers import PRIVATE, answer
from bot.discord_adapter.common import (
    battlefield_file,
    games,
    send_long,
    side_of,
    summary,
    told_lines,
    with_mentions,
)
from bot.discord_adapter.force_commands import force_service, own_forces, where
from bot.discord_adapter.owed_commands import pings
from bot.discord_adapter.referees import act, eyes_of
from bot.discord_adapter.side_threads import open_for_set_up, open_side_threads, tell_privately
from bot.discord_adapter.table_commands import server, table_service
from bot.discord_adapter.team_commands import make_teams_and_referees
from bot.services.game_service import finished_games_text, scenario_text, setup_text
from bot.services.ping_service import MAX_MINUTES
from bot.services.table_service import MOST_SEED
from bot.storage.ping_store import DEFAULT_MINUTES
from engine.commands import Concede, JoinSide, StartGame
from engine.events import told
from engine.quick_battle import allied_forces, quick_battle, quick_forces, quick_tables, scenario_battle
from engine.rulesets import with_rule_set


async def battlefields(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The built-in tables, random, and the server's own, as the user types."""
    words = current.casefold().split()
    named = {name: title for name, title in quick_tables().items()}
    named["random"] = "random: a table laid out from the seed option"
    named.update({name: name for name in await table_service(interaction).names(server(interaction))})
    found = [(n, t) for n, t in named.items() if all(w in t.casefold() or w in n.casefold() for w in words)]
    return [app_commands.Choice(name=t[:100], value=n[:100]) for n, t in found[:25]]


class GameCommands(app_commands.Group):
    def __init__(self) -> None:
        super().__init__(name="game", description="Set up and follow this channel's Iron Cross game")

    @app_commands.command(
        name="new", description="Set up a quick battle, or a book scenario, in this channel"
    )
    @app_commands.describe(
        table="The battlefield: a built-in one (default: village, 6' x 4'), one of /table list, or random",
        seed="With table:random, the seed it is laid out from (the same seed, the same table)",
        edges="Scenarios: the sides set up along the long edges (default) or the short ones",
        forces="Quick battle: the allied force facing the German one (default: us)",
        reaction_seconds="How long the other side has to react (15 s to 48 h, default 120)",
        scenario="A scenario of the book, played with the forces the players bring (/force)",
        attacker="Capture and Breakthrough: the attacking side",
        attacker_choice="Breakthrough: the attacker's aggressive command or preliminary bombardment",
        deployment="Meeting and Escalating: set up turn about, or both at once in secret (plotted)",
        ruleset="The Iron Cross 2015 rules, or the House Rules V1.0",
        ping_minutes="Minutes before the players the game waits for are told (0: never, default 10)",
        teams="A scenario for teams: players a side, each bringing a force (p. 25; default 1)",
        bonus="Teams: the CO's bonus tokens not handed out go out evenly, or all to the CO",
        referee="A referee, who sees and may correct everything (more: /ref appoint)",
        referee_role="A server role whose holders may referee this game",
    )
    @app_commands.autocomplete(table=battlefields)
    @app_commands.choices(
        forces=[app_commands.Choice(name=quick_forces()[name][:100], value=name) for name in allied_forces()],
    )
    async def new(
        self,
        interaction: discord.Interaction,
        table: str = "village",
        forces: str = "us",
        seed: app_commands.Range[int, 0, MOST_SEED] | None = None,
        edges: Literal["long", "short"] | None = None,
        reaction_seconds: app_commands.Range[int, 15, 172800] = 120,
        scenario: Literal["quick", "meeting", "escalating", "capture", "breakthrough"] = "quick",
        attacker: Literal["allies", "axis"] | None = None,
        attacker_choice: Literal["aggressive_command", "preliminary_bombardment"] | None = None,
        deployment: Literal["alternating", "plotted"] = "alternating",
        ruleset: Literal["core_2015", "house_v1"] = "core_2015",
        ping_minutes: app_commands.Range[int, 0, MAX_MINUTES] = DEFAULT_MINUTES,
        teams: app_commands.Range[int, 1, 4] = 1,
        bonus: Literal["even", "co"] = "even",
        referee: discord.User | None = None,
        referee_role: discord.Role | None = None,
    ) -> None:
        channel, user = str(interaction.channel_id), str(interaction.user.id)
        ground = await table_service(interaction).battlefield(server(interaction), table, seed)
        if scenario == "quick":
            battle = quick_battle(ground, forces)
            text = (
                setup_text(ground, forces, reaction_seconds)
                + "\nTake a side with `/game join`, then `/game start`."
            )
        else:
            battle = scenario_battle(
                scenario, ground, attacker, attacker_choice, deployment == "plotted", edges
            )
            text = scenario_text(battle, ground, reaction_seconds)
        battle = with_rule_set(battle, ruleset)
        teamed = make_teams_and_referees(battle, teams, bonus, referee, referee_role)
        text = "\n".join(filter(None, [text, teamed]))
        outcome = await games(interaction).new_game(channel, battle, reaction_seconds, user)
        await pings(interaction).set_delay(channel, ping_minutes)
        await answer(interaction, text + "\n" + summary(outcome.state))

    @app_commands.command(name="join", description="Take a side in this channel's game")
    @app_commands.describe(force="In a scenario game, the force you bring (one of your /force list)")
    @app_commands.autocomplete(force=own_forces)
    async def join(
        self, interaction: discord.Interaction, side: Literal["allies", "axis"], force: str | None = None
    ) -> None:
        channel, user = str(interaction.channel_id), str(interaction.user.id)
        command = JoinSide(side=side, player=user)
        planned = (await games(interaction).game(channel)).planned_scenario
        if planned is not None and force:
            command = await force_service(interaction).joining(
                *where(interaction), side, force, planned.roles[side]
            )
        outcome = await act(interaction, command)  # with the server roles: a referee plays no side
        news = told_lines(outcome.events, state=outcome.state)
        header = summary(outcome.state)
        await answer(interaction, f"<@{user}> joins **{side}**.\n{news}\n{header}")
        await open_for_set_up(interaction, outcome.state)
        await tell_privately(interaction, outcome)

    @app_commands.command(name="start", description="Roll for the initiative and begin")
    async def start(self, interaction: discord.Interaction) -> None:
        outcome = await act(interaction, StartGame())  # a referee role's holder may start it
        news = told_lines(outcome.events, state=outcome.state)
        await answer(interaction, news + "\n\n" + summary(outcome.state))
        await open_side_threads(interaction, outcome.state)
        await tell_privately(interaction, outcome)

    @app_commands.command(name="status", description="Show the state of this channel's game", extras=PRIVATE)
    async def status(self, interaction: discord.Interaction) -> None:
        state = await games(interaction).game(str(interaction.channel_id))
        await answer(interaction, summary(state), ephemeral=True)

    @app_commands.command(
        name="log", description="The last things that happened, with every die", extras=PRIVATE
    )
    async def log(self, interaction: discord.Interaction) -> None:
        channel = str(interaction.channel_id)
        state = await games(interaction).game(channel)
        _, history = await games(interaction).store.history(channel)
        viewer = eyes_of(state, interaction)  # a referee reads everything
        lines = [line for _, events in history for line in told(events, viewer)][-25:]
        text = with_mentions("\n".join(lines), state) or "Nothing has happened yet"
        await answer(interaction, text[-1990:], ephemeral=True)

    @app_commands.command(
        name="history", description="This channel's finished games, and their logs", extras=PRIVATE
    )
    @app_commands.describe(number="Show this game's whole log (1 is the latest)")
    async def history(self, interaction: discord.Interaction, number: int | None = None) -> None:
        text = await finished_games_text(games(interaction).store, str(interaction.channel_id), number)
        await send_long(interaction, text, ephemeral=True)

    @app_commands.command(name="concede", description="Concede the game for your side")
    async def concede(self, interaction: discord.Interaction) -> None:
        user = str(interaction.user.id)
        outcome = await act(interaction, lambda state: Concede(side=side_of(state, user)))
        await answer(interaction, told_lines(outcome.events, state=outcome.state))

    @app_commands.command(
        name="map", description="The battlefield as your side sees it (only you see it)", extras=PRIVATE
    )
    async def map(self, interaction: discord.Interaction) -> None:
        state = await games(interaction).game(str(interaction.channel_id))
        viewer = eyes_of(state, interaction)  # a referee sees everything
        await answer(
            interaction,
            f"Turn {state.turn}, {viewer or 'spectators'} view",
            file=await battlefield_file(state, viewer),
            ephemeral=True,
        )
