"""Bring the database schema up to date at start-up (Alembic).

The upgrade runs in one transaction with its version stamp (``migrations/env.py``): a start-up
killed part-way leaves the database at its old revision, and the next start upgrades it again.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from alembic import command
from alembic.config import Config

MIGRATIONS = Path(__file__).parent / "migrations"


def alembic_config(database_url: str) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("sqlalchemy.url", database_url)
    return config


async def upgrade_to_head(database_url: str) -> None:
    """Run pending migrations; Alembic's environment runs its own event loop, so in a thread."""
    await asyncio.to_thread(command.upgrade, alembic_config(database_url), "head")
