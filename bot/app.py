"""The composition root: every service, built once at start-up over one store, and handed to the
front end this process runs (the Discord client, :mod:`bot.discord_adapter.client`, or the console
table, :mod:`bot.console`).

The services do not know the front end. They answer structured replies (:mod:`bot.reply`), which
each front end writes its own way (Markdown and mentions in Discord, plain text at the console),
and each front end hands them, once, where it posts what no command of its own asked for
(:class:`Notices`: a window closed by its timer, a ping, a campaign's reminder...).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.picture_pool import NICENESS, PicturePool
from bot.services.campaign_service import CampaignService, Reminded, Revealed
from bot.services.campaign_stats import CampaignStats
from bot.services.card_service import CardService
from bot.services.dice_service import DiceService
from bot.services.force_service import ForceService
from bot.services.game_service import GameService
from bot.services.linked_campaign_service import Battled, Carried, LinkedCampaignService
from bot.services.lobby_service import Expired, LobbyService
from bot.services.outcome import Outcome
from bot.services.owed_service import OwedService
from bot.services.ping_service import Ping, TurnPings
from bot.services.pinned_cards import PinnedCards
from bot.services.replay_service import Replays
from bot.services.rules_service import RulesService
from bot.services.stand_in_service import StandIns
from bot.services.stats_service import StatsService
from bot.services.table_service import TableService
from bot.storage.deadline_claims import Claims
from bot.storage.store import GameStore
from engine.dice import DiceSource, SeededDice
from engine.game_state import GameState


@dataclass(frozen=True)
class Notices:
    """Where a front end posts what happens with no command of its own to answer, each its own
    way (Discord: to the channel, a thread or a direct message; the console: printed); one left
    out is told to nobody.

    - ``window_closed(channel, outcome)``: a reaction window closed by its timer;
    - ``deadline_passed(channel, text, outcome)``: a referee's deadline fell, and what the game
      did (None: nothing);
    - ``game_over(channel, game)``: a game ended (its story follows);
    - ``ping(ping)``: a player the game waits for is reminded;
    - ``reminder(channel, players, reply)`` and ``reveal(channel, reply, open_phase)``: a
      campaign's deadline nears, a phase's orders are revealed;
    - ``carried(channel, reply)`` and ``battle(channel, outcome)``: a linked campaign's battle
      ended and was carried over, the next battle is set up;
    - ``stand_in_acted(channel, heading, outcome)``: the stand-in played its side's turn, or took
      a side over or handed it back by itself (the heading says which);
    - ``lobby_expired(lobby)``: a lobby's time ran out (its post says so)."""

    window_closed: Callable[[str, Outcome], Awaitable[None]] | None = None
    deadline_passed: Callable[[str, str, Outcome | None], Awaitable[None]] | None = None
    game_over: Callable[[str, GameState], Awaitable[None]] | None = None
    ping: Callable[[Ping], Awaitable[None]] | None = None
    reminder: Reminded | None = None
    reveal: Revealed | None = None
    carried: Carried | None = None
    battle: Battled | None = None
    stand_in_acted: Callable[[str, str, Outcome], Awaitable[None]] | None = None
    lobby_expired: Expired | None = None


@dataclass(frozen=True)
class Services:
    """Every service of one process, each built once."""

    games: GameService
    dice: DiceService
    rules: RulesService
    forces: ForceService
    tables: TableService
    cards: CardService
    stats: StatsService
    campaign_stats: CampaignStats
    owed: OwedService
    pings: TurnPings
    campaigns: CampaignService
    linked_campaigns: LinkedCampaignService
    replays: Replays
    pictures: PicturePool  # where the battlefield pictures are drawn, and the stand-in decides
    stand_ins: StandIns  # the sides the bot plays
    pins: PinnedCards  # each channel's pinned game card (Discord)
    lobbies: LobbyService  # the open games posted for anyone to join (Discord)

    @property
    def store(self) -> GameStore:
        return self.games.store

    def tell(self, notices: Notices) -> None:
        """Post what happens with no command to answer where the front end says (each notice
        once: a front end tells the services once, as it starts)."""
        self.games.on_window_closed = notices.window_closed
        self.games.clocks.on_deadline_passed = notices.deadline_passed
        if notices.game_over is not None:
            self.games.on_game_over.append(notices.game_over)
        self.pings.on_ping = notices.ping
        self.campaigns.on_reminder, self.campaigns.on_reveal = notices.reminder, notices.reveal
        self.linked_campaigns.on_carried, self.linked_campaigns.on_battle = notices.carried, notices.battle
        self.stand_ins.on_acted = notices.stand_in_acted
        self.lobbies.on_expired = notices.lobby_expired

    def picture_every_action(self) -> None:
        """For a front end that posts the spectators' picture with every action (Discord): begin
        it as soon as the action is decided, in the picture workers, so that it is drawn while
        the action's write commits (:attr:`Outcome.picture`, :meth:`PicturePool.spectators`)."""
        self.games.picturing = self.pictures.begin

    @classmethod
    def start(
        cls,
        store: GameStore,
        dice: Callable[[], DiceSource] = SeededDice,
        claims: Claims | None = None,
        picture_workers: int = 0,
        picture_niceness: int = NICENESS,
    ) -> Services:
        """The services of a process, over its store, with its dice, its claimer of deadlines
        (several processes may share a PostgreSQL store) and its processes drawing pictures
        (0: a thread), each ``picture_niceness`` below the bot's priority."""
        pictures = PicturePool(picture_workers, picture_niceness)
        return cls.around(GameService(store, dice, claims=claims), pictures)

    @classmethod
    def around(cls, games: GameService, pictures: PicturePool | None = None) -> Services:
        """Every other service, over the game service's store, and with its dice, clock and
        claimer of deadlines (one a process); pictures drawn in a thread unless given workers."""
        store = games.store
        forces, stats, tables = ForceService(store), StatsService(store), TableService(store)
        pictures = pictures or PicturePool()
        return cls(
            games=games,
            dice=DiceService(store, games.dice),
            rules=RulesService(store),
            forces=forces,
            tables=tables,
            cards=CardService(store),
            stats=stats,
            campaign_stats=CampaignStats(store, stats),
            owed=OwedService(store),
            pings=TurnPings(games),
            campaigns=CampaignService(store, games.dice, games.clock, claims=games.claims, posts=games.posts),
            linked_campaigns=LinkedCampaignService(games, forces, stats, tables),
            replays=Replays(store),
            pictures=pictures,
            stand_ins=StandIns(games, pictures),  # deciding in the pictures' workers
            pins=PinnedCards(store),
            lobbies=LobbyService(games),
        )
