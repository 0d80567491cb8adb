"""Settings from the environment and `.env`: which adapters run, where the database lives."""

from __future__ import annotations

from pathlib import Path

from pydantic import SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_file=".env", env_file_encoding="utf-8", extra="ignore", env_ignore_empty=True
    )

    telegram_token: SecretStr | None = None
    discord_token: SecretStr | None = None
    database: Path = Path("data/uno.sqlite3")
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
    log_level: str = "INFO"
