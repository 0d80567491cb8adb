"""Two processes over one database race over a game's table message (issue 15).

Process A posts the lobby for /new, and Discord has created it, but A does not know its id yet
(the response is slow); meanwhile process B takes a /join and a /start, finds no table message
stored and posts one. Whichever stores its message first is the game's table: the other deletes
its own and shows the newest state in the stored one. The channel ends with one table message,
no lobby buttons left under a dealt game, and every later edit goes to the stored table.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable

from bot.discord.items import table_id
from bot.discord.publisher import TABLE_REF
from tests.discord.fake_discord import StoredMessage
from tests.discord.test_discord_bot import RENDERER, hand_button
from tests.discord.test_discord_shard_processes import Cluster, cluster
from tests.storage.postgres_server import pg_server, postgres_url

__all__ = ["cluster", "pg_server", "postgres_url"]  # fixtures for these tests

MY_CARDS = RENDERER.t("ru", "btn-my-cards")
LOBBY_LABELS = (RENDERER.t("ru", "btn-join"), RENDERER.t("ru", "btn-start"))


def with_buttons(c: Cluster, game_id: int) -> list[StoredMessage]:
    """The channel's messages that still offer a table's or a lobby's buttons; not the turn
    prompts, which offer "my cards" too."""
    prompts = {RENDERER.t("ru", "dc-turn-prompt", mention=u.mention) for u in c.world.users}
    return [
        m
        for m in c.fake.channel_messages(c.world.channel)
        if (m.find(custom_id=table_id(game_id)) is not None and m.content not in prompts)
        or any(m.find(label=label) is not None for label in LOBBY_LABELS)
    ]


async def test_a_game_dealt_elsewhere_while_its_lobby_is_posted_has_one_table(
    cluster: Callable[[], contextlib.AbstractAsyncContextManager[Cluster]],
) -> None:
    async with cluster() as c:
        anya, borya, _vika = c.world.users
        a, b = c.bots[1], c.bots[0]  # A: the guild's shard; B: another process
        channel = c.world.channel
        hold = c.fake.hold_next("/callback", method="POST")
        opening = asyncio.create_task(c.fake.slash(a, anya, "new"))
        await hold.reached.wait()
        (lobby,) = c.fake.channel_messages(channel)  # in the channel; A does not know its id
        assert lobby.find(label=LOBBY_LABELS[0]) is not None

        await c.fake.slash(b, borya, "join")
        await c.fake.slash(b, anya, "start")
        hold.release()
        await opening
        await c.fake.settle()

        rec = await c.storages[0].active_game(c.chat)
        assert rec is not None and rec.status == "running"
        stored = await c.storages[0].get_ref(rec.id, TABLE_REF)
        assert stored is not None
        table = c.fake.message(int(stored))
        assert not table.deleted and table.find(label=MY_CARDS) is not None
        assert with_buttons(c, rec.id) == [table]  # one table, and no lobby buttons left anywhere

        # Process A shows the next state of the game: in the stored table, and nowhere else.
        edits = len(c.fake.calls)
        dealt = (await a.service.queries.table(c.chat)).table
        assert dealt is not None
        current = next(u for u in c.world.users if str(u.id) == dealt.current)
        hand = (await c.fake.click(a, current, table, label=MY_CARDS)).original
        assert hand is not None and hand.is_ephemeral
        button = hand_button(hand, "draw")
        assert button is not None
        await c.fake.click(a, current, hand, button["custom_id"])
        await c.fake.settle()
        patched = {
            call.path.rsplit("/", 1)[-1]
            for call in c.fake.calls[edits:]
            if call.method == "PATCH" and call.path.startswith(f"/channels/{channel.id}/")
        }
        assert patched == {stored}
        assert with_buttons(c, rec.id) == [table]
        c.assert_clean()


async def test_the_process_that_stores_its_table_second_deletes_its_own(
    cluster: Callable[[], contextlib.AbstractAsyncContextManager[Cluster]],
) -> None:
    async with cluster() as c:
        anya, borya, _vika = c.world.users
        a, b = c.bots[1], c.bots[0]
        channel = c.world.channel
        opened = c.fake.hold_next("/callback", method="POST")
        opening = asyncio.create_task(c.fake.slash(a, anya, "new"))
        await opened.reached.wait()
        (lobby,) = c.fake.channel_messages(channel)
        # B takes a /join, finds no table stored and posts one; A learns its lobby's id and
        # stores it before B learns the id of its own.
        posted = c.fake.hold_next(f"/channels/{channel.id}/messages", method="POST")
        joining = asyncio.create_task(c.fake.slash(b, borya, "join"))
        await posted.reached.wait()
        opened.release()
        await opening
        posted.release()
        await joining
        await c.fake.settle()

        rec = await c.storages[0].active_game(c.chat)
        assert rec is not None
        assert await c.storages[0].get_ref(rec.id, TABLE_REF) == str(lobby.id)
        assert posted.call is not None and posted.call.response is not None
        assert c.fake.message(int(posted.call.response["id"])).deleted  # B's copy is gone
        assert with_buttons(c, rec.id) == [lobby]
        assert borya.name in lobby.content  # the newest state, though A posted an older one

        await c.fake.slash(b, anya, "start")
        await c.fake.settle()
        assert lobby.find(label=MY_CARDS) is not None and with_buttons(c, rec.id) == [lobby]
        c.assert_clean()


async def test_a_deleted_table_is_posted_again_once_by_two_processes_at_once(
    cluster: Callable[[], contextlib.AbstractAsyncContextManager[Cluster]],
) -> None:
    async with cluster() as c:
        anya, borya, vika = c.world.users
        a, b = c.bots[1], c.bots[0]
        channel = c.world.channel
        lobby = (await c.fake.slash(a, anya, "new")).original
        assert lobby is not None
        lobby.deleted = True  # somebody deletes it
        # Both processes find it gone and post a new one; A's id comes back last.
        posted = c.fake.hold_next(f"/channels/{channel.id}/messages", method="POST")
        joining = asyncio.create_task(c.fake.slash(a, vika, "join"))
        await posted.reached.wait()
        await c.fake.slash(b, borya, "join")
        posted.release()
        await joining
        await c.fake.settle()

        rec = await c.storages[0].active_game(c.chat)
        assert rec is not None
        stored = await c.storages[0].get_ref(rec.id, TABLE_REF)
        assert stored is not None and stored != str(lobby.id)
        (table,) = with_buttons(c, rec.id)
        assert str(table.id) == stored
        assert borya.name in table.content and vika.name in table.content
        c.assert_clean()


async def test_a_lobby_pressed_before_its_id_was_stored_becomes_the_table(
    cluster: Callable[[], contextlib.AbstractAsyncContextManager[Cluster]],
) -> None:
    async with cluster() as c:
        anya, borya, _vika = c.world.users
        a, b = c.bots[1], c.bots[0]
        opened = c.fake.hold_next("/callback", method="POST")
        opening = asyncio.create_task(c.fake.slash(a, anya, "new"))
        await opened.reached.wait()
        (lobby,) = c.fake.channel_messages(c.world.channel)
        # Its buttons are pressed at once, and B answers: no second message is posted.
        await c.fake.click(b, borya, lobby, label=LOBBY_LABELS[0])
        await c.fake.click(b, anya, lobby, label=LOBBY_LABELS[1])
        opened.release()
        await opening
        await c.fake.settle()

        rec = await c.storages[0].active_game(c.chat)
        assert rec is not None and rec.status == "running"
        assert await c.storages[0].get_ref(rec.id, TABLE_REF) == str(lobby.id)
        assert c.fake.channel_messages(c.world.channel, include_deleted=True)[0] is lobby
        assert with_buttons(c, rec.id) == [lobby] and lobby.find(label=MY_CARDS) is not None
        assert not [m for m in c.fake.messages.values() if m.deleted]
        c.assert_clean()
