"""Issue 15, a lobby's creation in the outbox, with a real kill: the bot's process is stopped with
SIGKILL right after `/new` was committed, while the lobby message is being sent. Started again on
the same database, it sends the lobby from the outbox, once, and the game it opened can be joined
and started (without the outbox the chat had a lobby nobody saw, and `/new` was refused until the
lobby expired)."""

from __future__ import annotations

import asyncio
import sqlite3
from contextlib import closing
from pathlib import Path

from tests.telegram.fake_bot_api import FakeBotAPI, StoredMessage
from tests.telegram.test_kill import BOUND, kill, spawn


def lobby_data(message: StoredMessage, op: str) -> str | None:
    """The callback data of the message's lobby button `op` (join, addbot, start)."""
    for button in message.buttons:
        data = str(button.get("callback_data", ""))
        if data.startswith("l:") and data.endswith(":" + op):
            return data
    return None


def lobbies(api: FakeBotAPI, chat: int) -> list[StoredMessage]:
    """The bot's messages in `chat` that are (or were) a lobby: they carry its join button."""
    return [m for m in api.messages(chat) if m.from_bot and lobby_data(m, "join")]


def stored(database: Path) -> tuple[list[tuple[int, str, int]], int]:
    """The games (id, status, version) and the unsent outbox entries, from the file itself."""
    with closing(sqlite3.connect(database)) as db:
        games = db.execute("SELECT id, status, version FROM games ORDER BY id").fetchall()
        (unsent,) = db.execute("SELECT count(*) FROM outbox WHERE sent_at IS NULL").fetchone()
    return [tuple(g) for g in games], int(unsent)


async def test_a_kill_right_after_a_lobby_is_opened(api: FakeBotAPI, tmp_path: Path) -> None:
    database = tmp_path / "uno.sqlite3"
    group = api.new_group("Вечер карт")
    alisa, boris = (api.new_user(name) for name in ("Алиса", "Борис"))
    for user in (alisa, boris):
        api.user_starts_bot(user)
    child = await spawn(api, database)
    try:
        # /new is committed; the lobby message is held on its way and the process dies.
        held = api.hold(("sendMessage",), [group.id])
        api.send_message(alisa, group, "/new")
        await asyncio.wait_for(held.wait(), BOUND)
        await kill(child)
        api.release_holds()
        games, unsent = stored(database)
        assert [status for _, status, _ in games] == ["lobby"] and unsent == 1
        assert lobbies(api, group.id) == []  # nobody saw it

        since = api.call_count
        child = await spawn(api, database)
        await api.wait_for(
            lambda c: c.ok and c.is_("sendMessage") and c.chat_id == group.id, BOUND, since=since
        )
        [lobby] = lobbies(api, group.id)
        assert "Алиса" in lobby.plain_text
        join = lobby_data(lobby, "join")
        assert join is not None and join.startswith(f"l:{games[0][0]}:")

        # The game it opened is the chat's: joined by its button, started by its creator.
        since = api.call_count
        query = api.press(boris, group.id, lobby.message_id, join)
        await api.wait_for(
            lambda c: c.is_("answerCallbackQuery") and c.params.get("callback_query_id") == query,
            BOUND,
            since=since,
        )
        assert lobbies(api, group.id) == [api.message(group.id, lobby.message_id)]  # edited
        start = lobby_data(api.message(group.id, lobby.message_id), "start")
        assert start is not None
        since = api.call_count
        api.press(alisa, group.id, lobby.message_id, start)
        for user in (alisa, boris):  # each gets a hand in the private chat
            await api.wait_for(
                lambda c, u=user: c.ok and c.method in ("sendMessage", "sendPhoto")  # type: ignore[misc]
                and c.chat_id == u.id,
                BOUND,
                since=since,
            )  # fmt: skip
        games, _ = stored(database)
        assert [status for _, status, _ in games] == ["running"]
        # One lobby message in all: the one the restarted process sent.
        sent = [
            c
            for c in api.calls("sendMessage", chat_id=group.id)
            if c.ok and "l:" in str(c.params.get("reply_markup", ""))
        ]
        assert len(sent) == 1
    finally:
        if child.returncode is None:
            await kill(child)
