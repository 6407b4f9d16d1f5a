"""Settings from the environment (or a .env file)."""

from __future__ import annotations

from pydantic_settings import BaseSettings, SettingsConfigDict


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
