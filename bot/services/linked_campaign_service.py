"""LinkedCampaignService: linked Iron Cross battles in a channel (:mod:`engine.campaign.linked`).

A campaign starts from two players' saved forces. ``battle`` sets up the next scenario game in
the channel and brings both sides' forces as they stand; when that game ends, the game service
calls :meth:`LinkedCampaignService.game_over` and the result is carried into the campaign: losses,
damaged units, reinforcement points, the history and the battle's dice (for the campaign's
``/stats``). Adapters hear of it through ``on_carried``, and of each battle set up as the channel's
game through ``on_battle`` (the console's table plays it). The players end the campaign with ``end``;
only then may the channel start another.
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from collections.abc import Awaitable, Callable, Mapping
from operator import attrgetter

from pydantic import ValidationError

from bot.reply import Mention, Piece, Reply, Strong
from bot.services.force_service import ForceService
from bot.services.game_service import GameError, GameService, Outcome, duration_text, refusals
from bot.services.limits import bounded_name
from bot.services.stats_service import StatsService
from bot.services.table_service import TableService
from bot.storage.campaign_store import CampaignRunning, CampaignStore, StaleCampaign, StoredCampaign
from bot.storage.writes import TRIES, back_off
from engine.campaign import linked
from engine.campaign.linked import SIDES, LinkedCampaign, LinkedRules
from engine.errors import IllegalCommand
from engine.game_state import GameState
from engine.scenarios.book import find_scenario
from engine.scenarios.quick_battle import scenario_battle, table_title
from engine.tables.layout import BattleTable
from engine.wording import side_label, side_name

log = logging.getLogger(__name__)

KIND = "linked"
Carried = Callable[[str, Reply], Awaitable[None]]  # channel, what the battle's end did to the campaign
Battled = Callable[[str, Outcome], Awaitable[None]]  # channel, its new game with both sides joined


class LinkedCampaignService:
    """Linked campaigns by channel, over the game service's store; it hears of every game's end.
    Its replies name players as :class:`Mention` pieces, each front end writing them its way."""

    def __init__(
        self,
        games: GameService,
        forces: ForceService,
        stats: StatsService,
        tables: TableService,
        on_carried: Carried | None = None,
        on_battle: Battled | None = None,
    ) -> None:
        self.games = games
        self.forces = forces
        self.stats = stats
        self.tables = tables
        self.campaigns = CampaignStore(
            games.store, LinkedCampaign, KIND, finished=attrgetter("ended"), due=lambda _campaign: None
        )
        self.on_carried = on_carried
        self.on_battle = on_battle
        self._locks: defaultdict[str, asyncio.Lock] = defaultdict(asyncio.Lock)
        games.on_game_over.append(self.game_over)

    async def create(
        self,
        channel_id: str,
        guild_id: str,
        name: str,
        players: Mapping[str, tuple[str, str]],
        rules: Mapping[str, int | str] | None = None,
    ) -> Reply:
        """A campaign between the players' saved forces: ``players`` maps allies and axis to
        (player, force name); ``rules`` sets the options of :class:`LinkedRules`."""
        name = bounded_name("A campaign's name", name)
        try:
            options = LinkedRules.model_validate(rules or {})
        except ValidationError as error:
            first = error.errors()[0]
            raise GameError(f"{first['loc'][0]}: {first['msg']}") from None
        async with self._locks[channel_id]:
            await self._refuse_if_running(channel_id)
            forces = {
                side: (player, await self.forces.force(guild_id, player, force))
                for side, (player, force) in players.items()
            }
            with refusals():
                campaign = linked.new_linked_campaign(name, forces, options)
            try:
                await self.campaigns.create(channel_id, campaign)
            except CampaignRunning:  # set up at the same moment by another process
                await self._refuse_if_running(channel_id)
                raise GameError("This channel already runs a linked campaign") from None
        return Reply.of(
            ("Linked campaign ", Strong(campaign.name), " set up."), *linked.standings_text(campaign)
        )

    async def battle(
        self,
        channel_id: str,
        user_id: str,
        scenario: str,
        table: str = "village",
        attacker: str | None = None,
        attacker_choice: str | None = None,
        reaction_seconds: int = 120,
        *,
        guild_id: str,
        seed: str | int | None = None,
    ) -> tuple[Reply, Outcome]:
        """Set up the campaign's next battle as the channel's game, both forces brought to it,
        on a built-in table, one saved in the server, or a random one from ``seed`` (as
        ``/game new table:``), and tell ``on_battle`` of it. A campaign player asks; a game still
        running in the channel refuses it."""
        ground = await self.tables.battlefield(guild_id, table, seed)
        with refusals():
            state = scenario_battle(scenario, ground, attacker, attacker_choice)  # type: ignore[arg-type]
        planned = state.planned_scenario
        assert planned is not None
        async with self._locks[channel_id]:
            stored = await self._current(channel_id)
            self._player(stored.campaign, user_id)
            with refusals():
                campaign = linked.start_battle(stored.campaign, planned.id, planned.roles)
            stored = await self._save(stored, campaign)
        try:
            outcome = await self.games.new_game(channel_id, state, reaction_seconds, user_id)
            for side in SIDES:
                join = linked.joining(campaign, side)
                outcome = await self.games.act(channel_id, join.player, join)
        except GameError:
            async with self._locks[channel_id]:
                stored = await self._current(channel_id)
                if stored.campaign.battle == campaign.battle:
                    await self._save(stored, stored.campaign.model_copy(update={"battle": None}))
            raise
        if self.on_battle:
            await self.on_battle(channel_id, outcome)
        return self._battle_text(campaign, ground, reaction_seconds), outcome

    async def buy(
        self, channel_id: str, user_id: str, side: str, unit: str, label: str | None = None
    ) -> Reply:
        """A side's player buys a unit with the side's reinforcement points."""
        campaign = await self._change(
            channel_id, user_id, side, lambda c: linked.spend_reinforcements(c, side, unit, label)
        )
        bought = campaign.sides[side].force.units[-1]
        points = campaign.sides[side].points
        left = f"{side_name(side, start=True)} buy {bought.label} ({bought.profile}): "
        left += f"{points} reinforcement points left"
        return Reply.of(left, *linked.standings_text(campaign))

    async def command(self, channel_id: str, user_id: str, side: str, unit: str) -> str:
        """A side's player names another of its units the command unit."""
        campaign = await self._change(
            channel_id, user_id, side, lambda c: linked.name_command_unit(c, side, unit)
        )
        chosen = next(u for u in campaign.sides[side].force.units if u.command)
        return f"{chosen.label} is now {side_name(side)}' command unit"

    async def retire(self, channel_id: str, user_id: str, side: str, unit: str) -> Reply:
        """A side's player takes a unit out of the side's force for good."""
        campaign = await self._change(channel_id, user_id, side, lambda c: linked.retire_unit(c, side, unit))
        retired = campaign.sides[side].retired[-1]
        retiring = f"{side_name(side, start=True)} retire {retired.label}"
        return Reply.of(retiring, *linked.standings_text(campaign))

    async def end(self, channel_id: str, user_id: str) -> Reply:
        """A campaign player ends the campaign between battles: its result, final standings and
        history."""
        async with self._locks[channel_id]:
            stored = await self._current(channel_id)
            self._player(stored.campaign, user_id)
            with refusals():
                campaign = linked.end_campaign(stored.campaign)
            await self._save(stored, campaign)
        return Reply.of(linked.result_text(campaign)) + self._standings(campaign)

    async def standings(self, channel_id: str) -> Reply:
        return self._standings((await self._current(channel_id)).campaign)

    async def game_over(self, channel_id: str, final: GameState) -> None:
        """The game service's hook: a game in the channel ended. If it was the campaign's battle,
        its result is carried into the campaign, on a fresh read if the campaign changed in the
        meantime. A failure here never undoes the game's end."""
        try:
            async with self._locks[channel_id]:
                for lost in range(TRIES):
                    await back_off(lost)
                    stored = await self.campaigns.current(channel_id)
                    if stored is None or stored.campaign.battle is None:
                        return
                    rolled = await self.stats.channel_dice(channel_id)
                    campaign = linked.end_battle(
                        stored.campaign, final, tuple(rolled.dice), rolled.unread_rolls
                    )
                    try:
                        await self.campaigns.save(stored, campaign)
                        break
                    except StaleCampaign:
                        continue
                else:
                    raise GameError("The campaign kept changing under the battle's end")
        except (IllegalCommand, GameError) as refusal:
            log.warning("battle not carried", extra={"channel": channel_id, "reason": str(refusal)})
            return
        log.info("battle carried", extra={"channel": channel_id, "battle": campaign.history[-1].number})
        if self.on_carried:
            carried = (Strong(campaign.name), f", battle {linked.battle_line(campaign.history[-1])}")
            await self.on_carried(channel_id, Reply.of(carried, *linked.standings_text(campaign)))

    # -- helpers --------------------------------------------------------------------------------

    @staticmethod
    def _standings(campaign: LinkedCampaign) -> Reply:
        return Reply.of(*linked.standings_text(campaign), "History:", linked.history_text(campaign))

    @staticmethod
    def _battle_text(campaign: LinkedCampaign, table: str | BattleTable, reaction_seconds: int) -> Reply:
        battle = campaign.battle
        assert battle is not None
        scenario = find_scenario(battle.scenario)
        sides: list[Piece] = []
        for side in SIDES:
            fielded = ", ".join(battle.fielded[side])
            player = Mention(campaign.sides[side].player)
            sides += ["; "] * bool(sides) + [Strong(side_label(side)), " (", player, ")"]
            sides.append(f" {battle.roles[side]}: {fielded}")
        heading = (Strong(campaign.name), f", battle {battle.number}: ", Strong(scenario.title))
        where = f" (p. {scenario.page}) on the {table_title(table)}. "
        return Reply.of(
            (*heading, where, *sides, "."),
            f"Reaction windows stay open {duration_text(reaction_seconds)}. "
            "Both forces are here: set up with /deploy, then /game start.",
        )

    async def _change(
        self, channel_id: str, user_id: str, side: str, change: Callable[[LinkedCampaign], LinkedCampaign]
    ) -> LinkedCampaign:
        async with self._locks[channel_id]:
            stored = await self._current(channel_id)
            with refusals():
                stored.campaign.side(side)
            if stored.campaign.sides[side].player != user_id:
                player = stored.campaign.sides[side].player
                raise GameError(f"Only {side_name(side)}' player, ", Mention(player), ", may do that")
            with refusals():
                campaign = change(stored.campaign)
            await self._save(stored, campaign)
        return campaign

    async def _refuse_if_running(self, channel_id: str) -> None:
        current = await self.campaigns.current(channel_id)
        if current is not None and not current.campaign.ended:
            raise GameError(
                f"{current.campaign.name} is still running in this channel: "
                "its players end it first with /campaign linked end"
            )

    @staticmethod
    def _player(campaign: LinkedCampaign, user_id: str) -> None:
        if campaign.side_of(user_id) is None:
            raise GameError(f"Only the players of {campaign.name} may do that")

    async def _save(self, stored: StoredCampaign, campaign: LinkedCampaign) -> StoredCampaign:
        try:
            return await self.campaigns.save(stored, campaign)
        except StaleCampaign:
            raise GameError("The campaign changed under this command: try again") from None

    async def _current(self, channel_id: str) -> StoredCampaign[LinkedCampaign]:
        stored = await self.campaigns.current(channel_id)
        if stored is None:
            raise GameError(
                "There is no linked campaign in this channel: start one with /campaign linked new"
            )
        return stored
