"""Campaign-wide ``/stats``: the dice of every battle of the channel's campaign, by player.

For linked Iron Cross battles, each finished battle kept its dice when it ended (see
:func:`engine.campaign.linked.end_battle`); the battle being fought adds the channel's game as it
stands. For a Red Barricades campaign, the dice are the chart rolls of its ledger, each counted
for the side it was rolled for. The channel's newest campaign is the one counted.
"""

from __future__ import annotations

from bot.reply import Strong
from bot.services.game_service import GameError
from bot.services.linked_campaign_service import KIND as LINKED
from bot.services.stats_service import DiceStats, StatsService
from bot.storage.campaign_store import CampaignStore
from bot.storage.store import GameStore
from engine.campaign.calendar import SIDE_NAMES
from engine.campaign.linked import LinkedCampaign
from engine.campaign.phases import Campaign
from engine.dice_stats import PlayerDie, dice_report, dice_words
from engine.wording import counted


class CampaignStats:
    def __init__(self, store: GameStore, games: StatsService) -> None:
        self.games = games
        self.linked = CampaignStore(store, LinkedCampaign, LINKED)
        self.red_barricades = CampaignStore(store, Campaign)

    async def stats(self, channel_id: str) -> DiceStats:
        """The dice of the channel's campaign; refused when the channel has none."""
        linked = await self.linked.current(channel_id)
        barricades = await self.red_barricades.current(channel_id)
        if linked is not None and (barricades is None or linked.id > barricades.id):
            return await self._linked(channel_id, linked.campaign)
        if barricades is not None:
            return ledger_stats(barricades.campaign)
        raise GameError(
            "There is no campaign in this channel: /stats without campaign counts the channel's game"
        )

    async def _linked(self, channel_id: str, campaign: LinkedCampaign) -> DiceStats:
        dice = [die for battle in campaign.history for die in battle.dice]
        unread = sum(battle.unread_rolls for battle in campaign.history)
        fought = f"{counted(len(campaign.history), 'battle')} fought"
        if campaign.battle is not None:
            live = await self.games.channel_dice(channel_id)
            dice += live.dice
            unread += live.unread_rolls
            fought += f", battle {campaign.battle.number} so far"
        sides = {side.player: [name] for name, side in campaign.sides.items()}
        return DiceStats(
            dice_report(dice), unread, sides, ("Campaign ", Strong(campaign.name), f": {fought}")
        )


def ledger_stats(campaign: Campaign) -> DiceStats:
    """A Red Barricades campaign's ledger rolls, by side."""
    dice = [PlayerDie(SIDE_NAMES[entry.side], die) for entry in campaign.books.ledger for die in entry.dice]
    rolls = sum(1 for entry in campaign.books.ledger if entry.dice)
    heading = (
        "Campaign ",
        Strong(campaign.name),
        f": {counted(rolls, 'ledger roll')}, {dice_words(len(dice))}",
    )
    return DiceStats(dice_report(dice), 0, {}, heading)
