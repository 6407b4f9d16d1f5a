"""The campaign store: each channel's campaigns as JSON, written only over the version read.

One table holds campaigns of several kinds (Red Barricades, linked battles); a store reads and
writes one kind, as its own model. A channel runs one unfinished campaign of each kind: the
schema refuses a second (:class:`CampaignRunning`), however many are created at once."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from operator import attrgetter
from typing import Generic, TypeVar

from pydantic import BaseModel
from sqlalchemy import Connection, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import col, select

from bot.storage.deadline_claims import stamp
from bot.storage.store import GameStore
from bot.storage.tables import CampaignRow, utcnow
from engine.campaign.phases import Campaign, alarms

C = TypeVar("C", bound=BaseModel)


class StaleCampaign(Exception):
    """Another writer changed the campaign after it was loaded: reload and try again."""


def next_alarm(campaign: Campaign) -> datetime | None:
    """When a Red Barricades campaign's open phase next needs its timers, if ever."""
    return min((alarm.at for alarm in alarms(campaign)), default=None)


class CampaignRunning(Exception):
    """The channel already runs an unfinished campaign of this kind."""


@dataclass(frozen=True)
class StoredCampaign(Generic[C]):
    id: int
    channel_id: str
    version: int
    campaign: C


class CampaignStore(Generic[C]):
    """Campaigns of one ``kind`` in the game store's database (the ``campaigns`` table);
    ``finished`` tells a campaign that is over and ``due`` when its next alarm rings (found by
    the processes' claim loops, :mod:`bot.services.deadline_loop`), which the store writes
    beside it."""

    def __init__(
        self,
        store: GameStore,
        model: type[C] = Campaign,
        kind: str = "red_barricades",
        finished: Callable[[C], bool] = attrgetter("finished"),
        due: Callable[[C], datetime | None] = next_alarm,  # type: ignore[assignment]
    ) -> None:
        self.sessions = store.sessions
        self.model, self.kind, self.finished, self.due = model, kind, finished, due

    def _due(self, campaign: C) -> str | None:
        moment = self.due(campaign)
        return None if moment is None else stamp(moment)

    def _stored(self, row: CampaignRow) -> StoredCampaign[C]:
        assert row.id is not None
        campaign = self.model.model_validate_json(row.campaign)
        return StoredCampaign(row.id, row.channel_id, row.version, campaign)

    async def create(self, channel_id: str, campaign: C) -> StoredCampaign[C]:
        """Store a new campaign, or raise CampaignRunning if the channel runs one of this kind."""
        row = CampaignRow(
            channel_id=channel_id,
            kind=self.kind,
            campaign=campaign.model_dump_json(),
            finished=self.finished(campaign),
            due=self._due(campaign),
        )
        try:
            async with self.sessions() as session, session.begin():
                session.add(row)
                await session.flush()
                return self._stored(row)
        except IntegrityError:
            raise CampaignRunning(channel_id) from None

    async def load(self, campaign_id: int) -> StoredCampaign[C] | None:
        async with self.sessions() as session:
            row = await session.get(CampaignRow, campaign_id)
        return None if row is None or row.kind != self.kind else self._stored(row)

    async def current(self, channel_id: str) -> StoredCampaign[C] | None:
        """The channel's newest campaign of the store's kind, finished or not."""
        async with self.sessions() as session:
            query = (
                select(CampaignRow)
                .where(CampaignRow.channel_id == channel_id, CampaignRow.kind == self.kind)
                .order_by(CampaignRow.id.desc())
                .limit(1)
            )
            row = (await session.execute(query)).scalars().first()
        return None if row is None else self._stored(row)

    async def save(
        self, stored: StoredCampaign[C], campaign: C, also: Callable[[Connection], None] | None = None
    ) -> StoredCampaign[C]:
        """Write the campaign over the version ``stored`` was read at, with what ``also`` writes
        in the same transaction, or raise StaleCampaign."""
        version = stored.version + 1
        async with self.sessions() as session, session.begin():
            result = await session.execute(
                update(CampaignRow)
                .where(CampaignRow.id == stored.id, CampaignRow.version == stored.version)
                .values(
                    version=version,
                    campaign=campaign.model_dump_json(),
                    finished=self.finished(campaign),
                    updated_at=utcnow(),
                    due=self._due(campaign),
                    claimed_by=None,  # its next alarm is claimed afresh
                    claimed_until=None,
                )
            )
            if result.rowcount != 1:
                raise StaleCampaign(stored.id)
            if also is not None:
                await session.run_sync(lambda written: also(written.connection()))
        return StoredCampaign(stored.id, stored.channel_id, version, campaign)

    async def note_due(self, stored: StoredCampaign[C]) -> None:
        """Write when the campaign's next alarm rings, if it is still as ``stored`` (a campaign
        kept from before the store wrote it)."""
        async with self.sessions() as session, session.begin():
            await session.execute(
                update(CampaignRow)
                .where(CampaignRow.id == stored.id, CampaignRow.version == stored.version)
                .values(due=self._due(stored.campaign))
            )

    def stored(self, row: CampaignRow) -> StoredCampaign[C]:
        """A campaign as read by someone else (the claim loop)."""
        return self._stored(row)

    async def unfinished(self) -> list[StoredCampaign[C]]:
        """Every campaign not yet finished, for re-arming its timers after a restart."""
        async with self.sessions() as session:
            query = (
                select(CampaignRow)
                .where(CampaignRow.kind == self.kind, col(CampaignRow.finished).is_(False))
                .order_by(CampaignRow.id)
            )
            return [self._stored(row) for row in (await session.execute(query)).scalars()]
