"""A lobby's creation in the outbox on Discord (issue 15): a process that stopped after `/new`
was committed and before the lobby was posted leaves it to the next one, which posts it once at
start; the game it opened is joined and started by its buttons."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot.service import User
from tests.discord.test_discord_bot import RENDERER, table_factory


@pytest.fixture
def make_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[..., Any]:
    return table_factory(tmp_path, monkeypatch)


async def test_a_lobby_left_unposted_is_posted_once_at_start(
    make_table: Callable[..., Any],
) -> None:
    async with make_table() as t:
        anya, borya, *_ = t.users
        await t.shutdown_for_restart()
        # The old process commits /new and stops before anything is posted.
        out = await t.service.lobby.new_game(t.chat, User(t.uid(anya), "Аня"))
        assert out.ok and out.outbox is not None
        assert t.fake.channel_messages(t.world.channel) == []

        await t.boot_after_restart()
        await t.fake.settle()
        table = await t.table_message()
        assert [m.id for m in t.fake.channel_messages(t.world.channel)] == [table.id]
        assert "Аня" in table.content
        await t.click(borya, table, label=RENDERER.t(t.lang, "btn-join"))
        await t.click(anya, table, label=RENDERER.t(t.lang, "btn-start"))
        assert (await t.game()).players == [t.uid(anya), t.uid(borya)]
        assert await t.table_message() == table  # the lobby became the table: one message
        t.assert_clean()
