"""The composition root: every service, built once at start-up over one store, and handed to the
front end this process runs (the Discord client, :mod:`bot.discord_adapter.client`, or the console
table, :mod:`bot.console`).

The services do not know the front end. They answer structured replies (:mod:`bot.reply`), which
each front end writes its own way (Markdown and mentions in Discord, plain text at the console),
and each front end plugs in where a notice is posted (``on_window_closed``, ``on_reminder``,
``on_ping``...).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.picture_pool import PicturePool
from bot.services.campaign_service import CampaignService
from bot.services.campaign_stats import CampaignStats
from bot.services.card_service import CardService
from bot.services.dice_service import DiceService
from bot.services.force_service import ForceService
from bot.services.game_service import GameService
from bot.services.linked_campaign_service import LinkedCampaignService
from bot.services.owed_service import OwedService
from bot.services.ping_service import TurnPings
from bot.services.rules_service import RulesService
from bot.services.stats_service import StatsService
from bot.services.table_service import TableService
from bot.storage.deadline_claims import Claims
from bot.storage.store import GameStore
from engine.dice import DiceSource, SeededDice


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
    pictures: PicturePool  # where the battlefield pictures are drawn

    @property
    def store(self) -> GameStore:
        return self.games.store

    @classmethod
    def start(
        cls,
        store: GameStore,
        dice: Callable[[], DiceSource] = SeededDice,
        claims: Claims | None = None,
        picture_workers: int = 0,
    ) -> Services:
        """The services of a process, over its store, with its dice, its claimer of deadlines
        (several processes may share a PostgreSQL store) and its processes drawing pictures
        (0: a thread)."""
        return cls.around(GameService(store, dice, claims=claims), PicturePool(picture_workers))

    @classmethod
    def around(cls, games: GameService, pictures: PicturePool | None = None) -> Services:
        """Every other service, over the game service's store, and with its dice, clock and
        claimer of deadlines (one a process); pictures drawn in a thread unless given workers."""
        store = games.store
        forces, stats, tables = ForceService(store), StatsService(store), TableService(store)
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
            pictures=pictures or PicturePool(),
        )
