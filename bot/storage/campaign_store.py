"""The campaign store: each channel's campaigns as JSON, written only over the version read."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import update
from sqlmodel import select

from bot.storage.store import GameStore
from bot.storage.tables import CampaignRow, utcnow
from engine.campaign.phases import Campaign


class StaleCampaign(Exception):
    """Another writer changed the campaign after it was loaded: reload and try again."""


@dataclass(frozen=True)
class StoredCampaign:
    id: int
    channel_id: str
    version: int
    campaign: Campaign


def _stored(row: CampaignRow) -> StoredCampaign:
    assert row.id is not None
    return StoredCampaign(row.id, row.channel_id, row.version, Campaign.model_validate_json(row.campaign))


class CampaignStore:
    """Campaigns in the game store's database (the ``campaigns`` table)."""

    def __init__(self, store: GameStore) -> None:
        self.sessions = store.sessions

    async def create(self, channel_id: str, campaign: Campaign) -> StoredCampaign:
        async with self.sessions() as session, session.begin():
            row = CampaignRow(channel_id=channel_id, campaign=campaign.model_dump_json())
            session.add(row)
            await session.flush()
            return _stored(row)

    async def load(self, campaign_id: int) -> StoredCampaign | None:
        async with self.sessions() as session:
            row = await session.get(CampaignRow, campaign_id)
        return None if row is None else _stored(row)

    async def current(self, channel_id: str) -> StoredCampaign | None:
        """The channel's newest campaign, finished or not."""
        async with self.sessions() as session:
            query = (
                select(CampaignRow)
                .where(CampaignRow.channel_id == channel_id)
                .order_by(CampaignRow.id.desc())
                .limit(1)
            )
            row = (await session.execute(query)).scalars().first()
        return None if row is None else _stored(row)

    async def save(self, stored: StoredCampaign, campaign: Campaign) -> StoredCampaign:
        """Write the campaign over the version ``stored`` was read at, or raise StaleCampaign."""
        version = stored.version + 1
        async with self.sessions() as session, session.begin():
            result = await session.execute(
                update(CampaignRow)
                .where(CampaignRow.id == stored.id, CampaignRow.version == stored.version)
                .values(version=version, campaign=campaign.model_dump_json(), updated_at=utcnow())
            )
            if result.rowcount != 1:
                raise StaleCampaign(stored.id)
        return StoredCampaign(stored.id, stored.channel_id, version, campaign)

    async def unfinished(self) -> list[StoredCampaign]:
        """Every campaign with a phase still to reveal, for re-arming its timers after a restart."""
        async with self.sessions() as session:
            rows = (await session.execute(select(CampaignRow).order_by(CampaignRow.id))).scalars()
            campaigns = [_stored(row) for row in rows]
        return [stored for stored in campaigns if not stored.campaign.finished]
