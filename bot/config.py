"""Settings from the environment and `.env`: which adapters run, where the database lives."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from pydantic import Field, SecretStr, ValidationInfo, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from bot.service.clock import DEADLINE_LEASE, DEADLINE_POLL
from bot.service.deadlines import DEFAULT_LOBBY_IDLE
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

    # Several processes over one PostgreSQL database (docs/operations.md):
    # seconds a due deadline claimed by one process stays its own (if it dies, another takes the
    # deadline over after that), and how often, at most, a process looks for deadlines that
    # other processes set.
    deadline_lease: float = Field(default=DEADLINE_LEASE, gt=0)
    deadline_poll: float = Field(default=DEADLINE_POLL, gt=0)
    # Seconds a chat's settings are kept in memory when other processes may change them
    # (PostgreSQL only; with a SQLite file this process is the only writer and keeps them).
    settings_ttl: float = Field(default=5.0, gt=0)
    # A Telegram group's message budget: GROUP_LIMIT messages in any GROUP_PERIOD seconds.
    group_limit: int = Field(default=20, gt=1)
    group_period: float = Field(default=60.0, gt=0)
    # Discord sharding: how many shards in all (None: one connection, no sharding), and which
    # of them this process runs (comma-separated ids; None: all of them).
    discord_shard_count: int | None = Field(default=None, gt=0)
    discord_shard_ids: Annotated[list[int] | None, NoDecode] = None

    # The web table (bot/web, a Telegram Mini App): its public HTTPS address (no button in the
    # chats without it), the Mini App's short name registered with BotFather (the group's
    # button opens https://t.me/<bot>/<name>?startapp=<game>), where it listens, and how many
    # seconds Telegram's launch data (initData) stays valid.
    webapp_url: str | None = None
    webapp_name: str | None = None
    web_host: str = "127.0.0.1"
    web_port: int = Field(default=8081, gt=0, lt=65536)
    webapp_max_age: float = Field(default=86400.0, gt=0)

    @field_validator("discord_shard_ids", mode="before")
    @classmethod
    def _shard_ids(cls, value: object) -> object:
        """`0,2` (the environment's form) as [0, 2]."""
        if isinstance(value, str):
            return [int(part) for part in value.replace(" ", "").split(",") if part]
        return value

    @field_validator("discord_shard_ids")
    @classmethod
    def _shards_in_range(cls, ids: list[int] | None, info: ValidationInfo) -> list[int] | None:
        count = info.data.get("discord_shard_count")
        if ids is not None and count is None:
            raise ValueError("DISCORD_SHARD_IDS needs DISCORD_SHARD_COUNT")
        if ids is not None and count is not None and not all(0 <= i < count for i in ids):
            raise ValueError(f"every id of DISCORD_SHARD_IDS must be from 0 to {count - 1}")
        return ids

    @property
    def lobby_idle(self) -> float | None:
        """The lobby idle time in seconds, as the service takes it (None: lobbies never expire)."""
        return self.lobby_idle_minutes * 60 or None
