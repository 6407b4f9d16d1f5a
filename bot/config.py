"""Settings from the environment (or a .env file)."""

from __future__ import annotations

import os
from datetime import timedelta

from pydantic import model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.picture_pool import NICENESS


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", extra="ignore")

    discord_token: str | None = None
    dev_guild_id: int | None = None  # a test server: --sync publishes the commands there only
    database_url: str = "sqlite+aiosqlite:///ironcross.db"
    reaction_seconds: int = 120
    metrics_port: int | None = None  # serve Prometheus metrics on this port (bot.metrics); off if unset
    pictures_dir: str = "pictures"  # where the console table saves the battlefield after each action
    log_level: str = "INFO"  # the console table logs warnings only, to keep the terminal clear
    log_json: bool = True  # JSON lines; false for plain text
    # Several processes on one PostgreSQL: each runs the Discord shards it is given, "0,1" of
    # SHARD_COUNT; unset, one process runs as many as Discord recommends.
    shard_ids: str = ""
    shard_count: int | None = None
    deadline_every_seconds: float = 1.0  # how often a process claims the deadlines fallen due
    deadline_lease_seconds: float = 30.0  # how long a claim holds if its process dies
    picture_workers: int | None = None  # processes drawing the pictures (unset: one a core; 0: a thread)
    picture_niceness: int = NICENESS  # how far below the bot's priority they draw (0 to 19)
    backup_dir: str | None = None  # where the running bot keeps its backups (unset: none taken)
    backup_every_hours: float = 24.0  # how often it takes one
    backup_keep: int = 7  # how many it keeps, the newest

    @model_validator(mode="after")
    def _shards_fit(self) -> Settings:
        ids = self.shards
        if ids and self.shard_count is None:
            raise ValueError("SHARD_IDS needs SHARD_COUNT, the number of shards of all processes together")
        if self.shard_count is not None and self.shard_count < 1:
            raise ValueError("SHARD_COUNT is at least 1")
        if ids and not all(0 <= shard < self.shard_count for shard in ids):
            raise ValueError(f"SHARD_IDS are 0 to {self.shard_count - 1} with SHARD_COUNT {self.shard_count}")
        if self.deadline_every_seconds <= 0 or self.deadline_lease_seconds <= 0:
            raise ValueError("DEADLINE_EVERY_SECONDS and DEADLINE_LEASE_SECONDS are positive")
        if self.picture_workers is not None and self.picture_workers < 0:
            raise ValueError("PICTURE_WORKERS is 0 (a thread) or more")
        if not 0 <= self.picture_niceness <= 19:
            raise ValueError("PICTURE_NICENESS is 0 (the bot's own priority) to 19 (the lowest)")
        if self.backup_every_hours <= 0 or self.backup_keep < 1:
            raise ValueError("BACKUP_EVERY_HOURS is positive and BACKUP_KEEP at least 1")
        return self

    @property
    def shards(self) -> list[int] | None:
        """The shards this process runs (None: all of them), read from ``SHARD_IDS``."""
        parts = [part.strip() for part in self.shard_ids.split(",") if part.strip()]
        if not all(part.isascii() and part.isdigit() for part in parts):
            raise ValueError(f"SHARD_IDS is a list of shard numbers such as 0,1 - not {self.shard_ids!r}")
        return sorted({int(part) for part in parts}) or None

    @property
    def deadline_lease(self) -> timedelta:
        return timedelta(seconds=self.deadline_lease_seconds)

    @property
    def deadline_every(self) -> timedelta:
        return timedelta(seconds=self.deadline_every_seconds)

    @property
    def backup_every(self) -> timedelta:
        return timedelta(hours=self.backup_every_hours)

    @property
    def pictures(self) -> int:
        """How many worker processes draw the pictures (:mod:`bot.picture_pool`)."""
        return (os.cpu_count() or 1) if self.picture_workers is None else self.picture_workers
