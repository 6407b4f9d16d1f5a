"""``/team``: a team game's sides (2015 rulebook p. 25). Who commands what, the commanding
officer (CO) handing out the bonus tokens, and the reserve pool the CO holds: players ask for a
unit, the CO grants or refuses. What only a side may know (its reserves, its requests, the bonus
still to give) is answered to the user alone and goes to the side's private thread."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.discord_adapter.answers import answer
from bot.discord_adapter.common import games, players_game, side_of, suggestions
from bot.discord_adapter.markdown import markdown
from bot.discord_adapter.referees import apply_as_user, eyes_of, tell
from bot.discord_adapter.schema_commands import schema_command
from bot.services.game_service import GameError
from bot.services.team_view import team_text
from bot.text_orders import find_unit
from engine.commands import AnswerReserve, Command, GiveBonusTokens, RequestReserve
from engine.game_state import GameState
from engine.teams import BONUS_TOKENS, make_team_game


def display_name(interaction: discord.Interaction, user: str) -> str:
    """A player's name for a list of suggestions (mentions are not shown there)."""
    member = interaction.guild.get_member(int(user)) if interaction.guild and user.isdigit() else None
    return member.display_name if member else f"user {user}"


async def side_players(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete: the players of the user's side."""
    playing = await players_game(interaction)
    if playing is None:
        return []
    state, side = playing
    return suggestions(current, {display_name(interaction, p): p for p in state.sides[side].players})


async def reserve_pool(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete: the units of the side's reserve pool nobody has asked for yet."""
    playing = await players_game(interaction)
    if playing is None or (team := playing[0].sides[playing[1]].team) is None:
        return []
    state, side = playing
    asked = {r.unit for r in team.requests}
    pool = [
        u
        for u in state.units_of(side)
        if u.in_reserve and not u.destroyed and not u.reserve_available and u.id not in asked
    ]
    return suggestions(current, {u.true_name or u.name: u.id for u in pool})


async def requests(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete: the side's requests for reserves waiting for the CO's answer."""
    playing = await players_game(interaction)
    if playing is None or (team := playing[0].sides[playing[1]].team) is None:
        return []
    state = playing[0]
    asked = [(state.units[r.unit], r.player) for r in team.requests]
    shown = {f"{u.true_name or u.name} for {display_name(interaction, player)}": u.id for u, player in asked}
    return suggestions(current, shown)


async def _team_act(interaction: discord.Interaction, build) -> None:
    """Apply the user's team command for their side; its side-only news goes to them alone."""
    state = await games(interaction).game(str(interaction.channel_id))
    side = side_of(state, str(interaction.user.id))
    command: Command = build(state, side, str(interaction.user.id))  # the tree tells refusals
    await tell(interaction, await apply_as_user(interaction, command), side)


class TeamCommands(app_commands.Group):
    def __init__(self) -> None:
        super().__init__(name="team", description="Team games: who commands what, bonus tokens, reserves")

    @schema_command("team show")
    async def show(self, interaction: discord.Interaction) -> None:
        state = await games(interaction).game(str(interaction.channel_id))
        if state.team_size is None:
            raise GameError("This is not a team game: /game new scenario: teams: sets one up")
        seen_by = eyes_of(state, interaction)
        shown = team_text(state, seen_by)
        await answer(interaction, markdown(shown), ephemeral=shown != team_text(state, None))

    @schema_command("team give")
    @app_commands.autocomplete(player=side_players)
    async def give(
        self, interaction: discord.Interaction, player: str, tokens: app_commands.Range[int, 1, BONUS_TOKENS]
    ) -> None:
        def build(state: GameState, side: str, user: str) -> Command:
            return GiveBonusTokens(side=side, player=user, shares=((player, tokens),))

        await _team_act(interaction, build)

    @schema_command("team request")
    @app_commands.autocomplete(unit=reserve_pool)
    async def request(self, interaction: discord.Interaction, unit: str) -> None:
        def build(state: GameState, side: str, user: str) -> Command:
            return RequestReserve(side=side, player=user, unit=find_unit(state, unit, side))

        await _team_act(interaction, build)

    @schema_command("team grant")
    @app_commands.autocomplete(unit=requests)
    async def grant(self, interaction: discord.Interaction, unit: str) -> None:
        await _answer(interaction, unit, grant=True)

    @schema_command("team refuse")
    @app_commands.autocomplete(unit=requests)
    async def refuse(self, interaction: discord.Interaction, unit: str) -> None:
        await _answer(interaction, unit, grant=False)


async def _answer(interaction: discord.Interaction, unit: str, grant: bool) -> None:
    def build(state: GameState, side: str, user: str) -> Command:
        return AnswerReserve(side=side, player=user, unit=find_unit(state, unit, side), grant=grant)

    await _team_act(interaction, build)


def make_teams_and_referees(
    battle: GameState,
    teams: int,
    bonus: str,
    referee: discord.abc.Snowflake | None,
    referee_role: discord.abc.Snowflake | None,
) -> str:
    """``/game new``'s team and referee options, as the console's ``teams: bonus: referee:``
    (p. 25); what the new game's announcement adds about them."""
    lines = []
    if teams > 1:
        if battle.planned_scenario is None:
            raise GameError("A team game is a scenario game: choose a scenario as well as teams")
        make_team_game(battle, teams, bonus)
        lines.append(
            f"A team game: {teams} players a side, each with their own force; the first to join a side "
            f"is its commanding officer (with an infantry command unit). See `/team show`."
        )
    battle.referees = [str(referee.id)] if referee else []
    battle.referee_roles = (str(referee_role.id),) if referee_role else ()
    named = [f"<@{r}>" for r in battle.referees] + [f"holders of <@&{r}>" for r in battle.referee_roles]
    if named:
        lines.append(f"Refereed by {' and '.join(named)}: `/ref` corrects, rules and sees everything.")
    return "\n".join(lines)
