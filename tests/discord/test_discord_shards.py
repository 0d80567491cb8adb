"""Discord shards split across processes: the settings reach discord.py's sharded client, and
its IDENTIFY names this process's shards of the whole count (seen by the fake gateway)."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

import pytest
import yarl
from discord.gateway import DiscordWebSocket

from bot.config import Settings
from bot.discord.app import ShardedUnoBot, UnoBot, create_bot
from bot.service import Service
from bot.storage import Storage
from tests.discord.fake_discord import FakeDiscord


def settings(monkeypatch: pytest.MonkeyPatch, **env: str) -> Settings:
    for name in ("DISCORD_SHARD_COUNT", "DISCORD_SHARD_IDS"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return Settings(_env_file=None)  # type: ignore[call-arg]


def test_shard_settings_are_read_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    assert settings(monkeypatch).discord_shard_count is None
    s = settings(monkeypatch, DISCORD_SHARD_COUNT="4", DISCORD_SHARD_IDS="1, 3")
    assert (s.discord_shard_count, s.discord_shard_ids) == (4, [1, 3])
    for bad in ({"DISCORD_SHARD_COUNT": "2", "DISCORD_SHARD_IDS": "2"}, {"DISCORD_SHARD_IDS": "0"}):
        with pytest.raises(ValueError, match="DISCORD_SHARD"):
            settings(monkeypatch, **bad)


async def test_the_shards_of_this_process_identify_to_the_gateway(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    config = settings(monkeypatch, DISCORD_SHARD_COUNT="3", DISCORD_SHARD_IDS="2")
    storage = await Storage.open(tmp_path / "uno.sqlite3")
    try:
        service = Service(storage)
        async with FakeDiscord() as fake:
            monkeypatch.setattr(DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(fake.gateway_url))
            bot = create_bot(config, service, timers=False)
            assert isinstance(bot, ShardedUnoBot)
            assert (bot.shard_count, bot.shard_ids) == (3, [2])
            running = asyncio.create_task(bot.start("fake-token"))
            try:
                [identify] = await fake.wait_identified(1)
                assert identify["shard"] == [2, 3]
                assert identify["token"] == "fake-token"
            finally:
                await bot.close()
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(running, 10)
    finally:
        await storage.close()


async def test_without_shard_settings_the_bot_is_one_connection(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    storage = await Storage.open(tmp_path / "uno.sqlite3")
    try:
        bot = create_bot(settings(monkeypatch), Service(storage), timers=False)
        assert type(bot) is UnoBot and bot.shard_count is None
        await bot.close()
    finally:
        await storage.close()
