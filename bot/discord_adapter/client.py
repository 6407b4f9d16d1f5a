"""The bot client: the command tree, the services it is given, and one error handler."""

from __future__ import annotations

import logging
from datetime import timedelta

import discord
from cachetools import TTLCache
from discord import app_commands

from bot.app import Notices, Services
from bot.discord_adapter.action_card import next_steps
from bot.discord_adapter.answers import acknowledge, apology, tell
from bot.discord_adapter.campaign_commands import CampaignCommands
from bot.discord_adapter.card_commands import CardCommands
from bot.discord_adapter.common import deadline_nonce, refusal_text, spectators_file, summary, told_lines
from bot.discord_adapter.dice_commands import (
    ChartCommands,
    OddsCommands,
    measure_command,
    roll_command,
    stats_command,
)
from bot.discord_adapter.force_commands import ForceCommands
from bot.discord_adapter.game_commands import GameCommands
from bot.discord_adapter.help_command import PageButton, TopicSelect, help_command
from bot.discord_adapter.lobby_commands import JoinButton, LobbyCommands, lobby_expiry
from bot.discord_adapter.menu_commands import MESSAGE_MENU_COMMANDS
from bot.discord_adapter.owed_commands import GamesCommands
from bot.discord_adapter.pinned_card import update_game_card
from bot.discord_adapter.play_commands import PLAY_COMMANDS
from bot.discord_adapter.reaction_buttons import NoReactionButton, retire_buttons
from bot.discord_adapter.referee_clock_commands import deadline_announcer
from bot.discord_adapter.referee_commands import RefereeCommands
from bot.discord_adapter.replay_card import StoryPosts, outcome_card
from bot.discord_adapter.rule_commands import RulesCommands, library_command, rule_command
from bot.discord_adapter.schema_commands import check_tree, place_commands, refused_here
from bot.discord_adapter.served import ServedClient
from bot.discord_adapter.side_threads import post_to_threads
from bot.discord_adapter.table_buttons import AddPieceSelect, UndoPieceButton
from bot.discord_adapter.table_commands import TableCommands
from bot.discord_adapter.tap_orders import ReactButton, TurnButton, TurnSelect
from bot.discord_adapter.tap_setup import SetUpButton, SetUpSelect
from bot.discord_adapter.team_commands import TeamCommands
from bot.services.deadline_loop import EVERY, DeadlineLoop
from bot.services.game_service import GameError, Outcome
from engine.errors import IllegalCommand

log = logging.getLogger(__name__)
STALE = "This button or menu is out of date: use the newest message."  # one no item of the bot's reads


class IronCrossBot(ServedClient):
    """Holds the services it is given (built once, :mod:`bot.app`); commands reach them through
    ``interaction.client``.

    The process runs the Discord shards ``shard_ids`` of ``shard_count`` (all of them, as many
    as Discord recommends, when not given): several processes on one PostgreSQL share a bot's
    servers that way, and its deadlines through :class:`~bot.services.deadline_loop.DeadlineLoop`.

    No message pings anyone unless it says whom (:func:`~bot.discord_adapter.markdown.pinging`): a
    mention in a message otherwise only names the user, and @everyone, @here and roles never ping."""

    def __init__(
        self,
        services: Services,
        *,
        sync_guild: int | None = None,
        sync_commands: bool = False,
        shard_ids: list[int] | None = None,
        shard_count: int | None = None,
        deadline_every: timedelta = EVERY,
    ) -> None:
        super().__init__(
            intents=discord.Intents.default(),
            allowed_mentions=discord.AllowedMentions.none(),  # a send names the users it means to ping
            shard_ids=shard_ids,
            shard_count=shard_count,
        )
        self.deadline_every = deadline_every
        self.deadlines: DeadlineLoop | None = None
        self.persistent_items: tuple[type[discord.ui.DynamicItem], ...] = ()  # each kind, as registered
        # the interactions called back, for their tokens' 15 minutes (Discord takes one callback each)
        self.called_back: TTLCache[int, bool] = TTLCache(maxsize=100_000, ttl=15 * 60)
        self.services = services
        self.games, self.dice, self.rules = services.games, services.dice, services.rules
        self.forces, self.tables, self.cards = services.forces, services.tables, services.cards
        self.stats, self.campaign_stats = services.stats, services.campaign_stats
        self.owed, self.pings = services.owed, services.pings
        self.campaigns, self.linked_campaigns = services.campaigns, services.linked_campaigns
        self.replays, self.pictures = services.replays, services.pictures
        self.stand_ins, self.pins, self.lobbies = services.stand_ins, services.pins, services.lobbies
        self.stories = StoryPosts(self, self.services.replays)  # follows a game-over card
        self.sync_commands = sync_commands
        self.sync_guild = sync_guild  # a test server to publish the commands to, not every server
        self.tree = app_commands.CommandTree(self)
        self.tree.on_error = self.on_app_command_error
        self.tree.interaction_check = self.acknowledge_first
        self.tree.add_command(GameCommands())
        for command in PLAY_COMMANDS:
            self.tree.add_command(command)
        self.tree.add_command(help_command)
        self.tree.add_command(measure_command)
        self.tree.add_command(roll_command)
        self.tree.add_command(ChartCommands())
        self.tree.add_command(OddsCommands())
        self.tree.add_command(rule_command)
        self.tree.add_command(library_command)
        self.tree.add_command(RulesCommands())
        self.tree.add_command(ForceCommands())
        self.tree.add_command(TableCommands())
        self.tree.add_command(CardCommands())
        campaign, owed = CampaignCommands(self), GamesCommands(self)
        self.tree.add_command(campaign)
        self.tree.add_command(owed)
        self.tree.add_command(stats_command)
        self.tree.add_command(RefereeCommands())
        self.tree.add_command(TeamCommands())
        self.tree.add_command(LobbyCommands())
        for menu in MESSAGE_MENU_COMMANDS:
            self.tree.add_command(menu)
        place_commands(self.tree)  # a user may install the lookups; the games stay in servers
        check_tree(self.tree)  # every command is one of the schema's, with its options
        services.tell(
            Notices(
                window_closed=self.announce,
                deadline_passed=deadline_announcer(self),  # a referee's deadline, told to the channel
                game_over=self.stories.game_over,
                ping=owed.send_ping,
                reminder=campaign.remind,
                reveal=campaign.announce_reveal,
                carried=campaign.post,
                stand_in_acted=self.stand_in_acted,
                lobby_expired=lobby_expiry(self),
            )
        )
        services.picture_every_action()  # each card's picture drawn while its action commits
        self.add_dynamic_items(
            ReactButton,
            NoReactionButton,
            TurnButton,
            TurnSelect,
            SetUpButton,
            SetUpSelect,
            PageButton,
            TopicSelect,
            AddPieceSelect,
            UndoPieceButton,
            JoinButton,
        )

    def add_dynamic_items(self, *items: type[discord.ui.DynamicItem]) -> None:
        """Register buttons and menus that outlive the process (their custom ids carry what they
        need), remembered to tell an id none of them reads."""
        self.persistent_items += items
        super().add_dynamic_items(*items)

    async def setup_hook(self) -> None:
        """Spawn the picture workers (:mod:`bot.picture_pool`), index the bot's own rule
        summaries, then start firing the stored deadlines: on SQLite (one process) every stored
        timer is re-armed, as before; on PostgreSQL, where several processes may share the
        database, each claims its share of what falls due (:mod:`bot.services.deadline_loop`),
        and the loop also runs on SQLite to take over a claim a process left behind. Sync the
        slash commands only when asked (Discord allows 200 command creations a day per guild)."""
        await self.pictures.start()
        if self.sync_commands:
            await self.publish_commands()
        await self.rules.ship()
        if self.games.store.engine.dialect.name == "sqlite":
            await self.games.resume()
            await self.campaigns.resume()
            await self.pings.resume()
            await self.lobbies.resume()
        await self.stand_ins.resume()  # each process may: the game's version decides who acts
        self.deadlines = DeadlineLoop(
            self.games, self.pings, self.campaigns, every=self.deadline_every, lobbies=self.lobbies
        )
        self.deadlines.start()

    async def close(self) -> None:
        if self.deadlines is not None:
            await self.deadlines.close()
        await self.stories.close()
        await self.stand_ins.close()
        await self.lobbies.close()
        await self.pictures.close()
        if self.shards:  # connected: the sharded client closes its shards
            await super().close()
        else:  # never connected (a start-up that failed, a test): only what a client opens
            await discord.Client.close(self)

    async def publish_commands(self) -> None:
        """Publish the slash commands: to every server (Discord takes up to an hour to show
        changes), or, given a test server, there only as a copy of them, shown at once."""
        if self.sync_guild is None:
            await self.tree.sync()
            return
        guild = discord.Object(id=self.sync_guild)
        self.tree.copy_global_to(guild=guild)
        await self.tree.sync(guild=guild)
        log.info("published the commands to the test server %s only", self.sync_guild)

    async def stand_in_acted(self, channel_id: str, heading: str, outcome: Outcome) -> None:
        """Post what the stand-in did by itself (its turn, a side taken over or handed back) as a
        card like a player's."""
        await self.announce(channel_id, outcome, heading=heading)

    async def announce(
        self, channel_id: str, outcome: Outcome, heading: str = "The reaction window closed."
    ) -> None:
        """Post what happened with no command of a player (by default, a reaction window closed
        by itself): a card with the picture and the buttons for what comes next."""
        text = heading + "\n" + told_lines(outcome.events, state=outcome.state)
        picture = await spectators_file(self, outcome)
        steps = next_steps(outcome, int(channel_id))
        text += "\n\n" + summary(outcome.state)
        card, files = outcome_card(outcome, text, picture, steps)
        channel = self.get_partial_messageable(int(channel_id))  # the nonce: posted once, though sent again
        await channel.send(view=card, files=files, nonce=deadline_nonce())
        await post_to_threads(self, channel_id, outcome)
        await retire_buttons(self, channel_id, outcome.closed_window_message)
        await update_game_card(self, channel_id, outcome)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A button or menu whose custom id none of the bot's items reads (forged, or of a kind
        the bot no longer has) is answered as out of date, privately, rather than left to fail."""
        if interaction.type is not discord.InteractionType.component:
            return
        custom_id = str((interaction.data or {}).get("custom_id", ""))
        templates = (item.__discord_ui_compiled_template__ for item in self.persistent_items)
        if not any(template.fullmatch(custom_id) for template in templates):
            await tell(interaction, STALE)

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        """Refusals go privately to the user who asked; anything else is logged, and the user is
        told truthfully whether their command was stored."""
        cause = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        if isinstance(error, app_commands.TransformerError) and error.__cause__ is not None:
            cause = error.__cause__  # an option that could not be read, such as a position
        if isinstance(cause, GameError | IllegalCommand):
            text = await refusal_text(interaction, cause)
        else:
            log.error("command failed in channel %s", interaction.channel_id, exc_info=cause)
            text = await apology(interaction)
        await tell(interaction, text)

    async def acknowledge_first(self, interaction: discord.Interaction) -> bool:
        """Every slash command is acknowledged before its work starts, inside Discord's three
        seconds (privately where its answer is private); one that may open a form instead
        (``extras["form"]``) answers by itself. One used where it is not offered (a game where
        no server installed the bot) is refused, privately, and nothing is done."""
        command = interaction.command
        if interaction.type is discord.InteractionType.application_command and command is not None:
            refusal = refused_here(interaction)
            if refusal is not None:
                await tell(interaction, refusal)
                return False
            if not command.extras.get("form"):
                private = command.extras.get("private", False) or secret_asked(interaction.data)
                return await acknowledge(interaction, private=private)
        return True


def secret_asked(data) -> bool:
    """The command was given ``secret:true`` (a roll only its roller sees), at any depth of
    subcommands."""
    options = list((data or {}).get("options", []))
    while options:
        option = options.pop()
        if option.get("name") == "secret" and option.get("value") is True:
            return True
        options.extend(option.get("options", []))
    return False
