"""The outbox on Discord (issue 15): what a stopped process committed but had not shown is shown
by the next one at start, the table edited and the results posted, each once; a publication
marks its entries sent."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from bot.service import User
from tests.discord.test_discord_bot import RENDERER, Table, table_factory


@pytest.fixture
def make_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[..., Any]:
    return table_factory(tmp_path, monkeypatch)


def unsent(database: Path) -> int:
    with closing(sqlite3.connect(database)) as db:
        (count,) = db.execute("SELECT count(*) FROM outbox WHERE sent_at IS NULL").fetchone()
    return int(count)


def left_texts(t: Table, name: str) -> list[str]:
    """The channel's messages saying that `name` left the game."""
    words = RENDERER.t(t.lang, "event-player-left", player=name, count=7).split(",")[0]
    return [
        m.content for m in t.fake.channel_messages(t.world.channel) if m.content.startswith(words)
    ]


async def test_a_commit_left_unshown_is_shown_once_at_start(make_table: Callable[..., Any]) -> None:
    async with make_table() as t:
        anya, borya, vika, _ = t.users
        table = await t.started(anya, borya, vika)
        assert t.bot.delivery is not None
        await t.bot.delivery.settled()
        assert unsent(t.db_path) == 0  # every commit so far was shown and marked sent
        await t.shutdown_for_restart()
        # The old process commits Vika's leave and stops before showing anything of it.
        out = await t.service.lobby.leave(t.chat, User(t.uid(vika), "Вика"))
        assert out.ok and out.outbox is not None
        assert unsent(t.db_path) == 1 and left_texts(t, "Вика") == []
        assert "Вика" in table.content

        await t.boot_after_restart()
        assert t.bot.delivery is not None
        await t.bot.delivery.settled()
        assert len(left_texts(t, "Вика")) == 1  # the results, posted once
        assert "Вика" not in table.content.split("\n\n")[1]  # the table edited: two seats
        assert unsent(t.db_path) == 0

        await t.restart()  # nothing is left to show: nothing is posted again
        assert t.bot.delivery is not None
        await t.bot.delivery.settled()
        assert len(left_texts(t, "Вика")) == 1
        t.assert_clean()


async def test_results_answered_by_a_command_are_not_posted_again(
    make_table: Callable[..., Any],
) -> None:
    """/leave answers with the results publicly; a process that stopped before marking its
    entry sent leaves it to the next, which edits the table but posts nothing twice."""
    async with make_table() as t:
        anya, borya, vika, _ = t.users
        await t.started(anya, borya, vika)
        await t.slash(vika, "leave")
        assert t.bot.delivery is not None
        await t.bot.delivery.settled()
        answered = left_texts(t, "Вика")
        assert len(answered) == 1
        await t.shutdown_for_restart()
        with closing(sqlite3.connect(t.db_path)) as db, db:  # as if never marked sent
            db.execute("UPDATE outbox SET sent_at = NULL WHERE id = (SELECT max(id) FROM outbox)")
        assert unsent(t.db_path) == 1
        await t.boot_after_restart()
        assert t.bot.delivery is not None
        await t.bot.delivery.settled()
        assert unsent(t.db_path) == 0
        assert left_texts(t, "Вика") == answered
        t.assert_clean()
