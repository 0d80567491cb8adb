"""Settings from the environment and `.env`: which adapters run, where the database lives."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.deadlines import DEFAULT_LOBBY_IDLE
from bot.service.outbox import LEASE


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_file=".env", env_file_encoding="utf-8", extra="ignore", env_ignore_empty=True
    )

    telegram_token: SecretStr | None = None
    discord_token: SecretStr | None = None
    # Where the data lives: a SQLite file (a path or sqlite:///path, one bot process per file)
    # or postgresql://user:password@host:port/db (any number of bot processes).
    database: str | Path = "data/uno.sqlite3"
    # A self-hosted Bot API server (or a test's fake one) instead of api.telegram.org.
    telegram_api_base: str | None = None
    # Webhook mode for production; polling when no URL is set.
    webhook_url: str | None = None
    webhook_path: str = "/telegram"
    webhook_host: str = "0.0.0.0"
    webhook_port: int = 8080
    webhook_secret: SecretStr | None = None
    # Seconds a computer player waits before moving, so humans can call UNO or catch first.
    bot_delay: float = 1.5
    # Minutes a lobby may wait with no join, leave, settings change or start before it closes by
    # itself (0: never); an abandoned lobby would otherwise block its chat until someone /kills it.
    lobby_idle_minutes: float = Field(default=DEFAULT_LOBBY_IDLE / 60, ge=0)
    # Seconds an outbox entry (what a commit must still show) stays claimed by the process that
    # committed it; past that, a process whose claim ran out is taken to be gone and any process
    # sends the entry. Longer than any send should take, a group's budget waits included.
    outbox_lease: float = Field(default=LEASE, gt=0)
    log_level: str = "INFO"
    # Telegram: the user who owns the bot's sticker sets (`python -m bot stickers` makes them;
    # the bot keeps them up to date at start). Without it the bot uses the sets as they are,
    # or text results in inline mode when there are none.
    sticker_owner_id: int | None = None

    @property
    def lobby_idle(self) -> float | None:
        """The lobby idle time in seconds, as the service takes it (None: lobbies never expire)."""
        return self.lobby_idle_minutes * 60 or None
