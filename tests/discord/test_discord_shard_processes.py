"""Discord with its shards split across two processes over one PostgreSQL database (issue 15).

Two bots, each with a service of its own (its own caches, locks and memory) on one database, as
two processes are: process 1 runs shard 1, where the guild is, and gets its interactions;
process 0 runs shard 0, which gets every DM interaction, and never sees the guild (no
GUILD_CREATE: the channel is not in its cache). A player whose hand comes by DM plays through
process 0, while the others play in the guild through process 1: each process brings up to date
what the other showed -- the table, the DMs, the ephemeral hand another process answered (its
interaction's token is in the database), the turn notifications -- and nothing is shown twice.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

import discord
import pytest

from bot.discord.app import UnoBot
from bot.discord.publisher import TABLE_REF, _Games
from bot.service import Service
from bot.storage.postgres import PostgresStorage
from core.game import Game
from core.rules import Rules
from tests.discord.fake_discord import (
    FakeChannel,
    FakeDiscord,
    FakeUser,
    FakeWorld,
    InteractionHandle,
    StoredMessage,
)
from tests.discord.test_discord_bot import NAMES, RENDERER, hand_button, hand_keys
from tests.service.conftest import FakeClock
from tests.storage.postgres_server import pg_server, postgres_url

__all__ = ["pg_server", "postgres_url"]  # fixtures for these tests

SHARDS = 2


def shard_of(guild_id: int) -> int:
    """Discord's rule: which shard gets a guild's events and interactions."""
    return (guild_id >> 22) % SHARDS


@dataclass
class Cluster:
    fake: FakeDiscord
    world: FakeWorld
    storages: list[Any]
    bots: list[UnoBot]

    @property
    def chat(self) -> str:
        return f"dc:{self.world.channel.id}"

    def process_for(self, channel: FakeChannel) -> UnoBot:
        """The process Discord sends an interaction to: a guild's goes to its shard's, a DM's
        to shard 0's."""
        return self.bots[0 if channel.guild_id is None else shard_of(channel.guild_id)]

    def _check(self, handle: InteractionHandle) -> InteractionHandle:
        assert handle.answered_within(3.0), handle
        return handle

    async def slash(self, user: FakeUser, name: str) -> InteractionHandle:
        bot = self.process_for(self.world.channel)
        return self._check(await self.fake.slash(bot, user, name))

    async def click(
        self, user: FakeUser, message: StoredMessage, custom_id: str | None = None, **kw: Any
    ) -> InteractionHandle:
        bot = self.process_for(self.fake.channels[message.channel_id])
        return self._check(await self.fake.click(bot, user, message, custom_id, **kw))

    async def select(
        self, user: FakeUser, message: StoredMessage, custom_id: str, value: str
    ) -> InteractionHandle:
        bot = self.process_for(self.fake.channels[message.channel_id])
        return self._check(await self.fake.select(bot, user, message, custom_id, [value]))

    async def press(self, user: FakeUser, message: StoredMessage, key: str) -> InteractionHandle:
        button = hand_button(message, key)
        assert button is not None, (key, hand_keys(message))
        return await self.click(user, message, button["custom_id"])

    async def table(self) -> StoredMessage:
        rec = await self.storages[0].active_game(self.chat)
        assert rec is not None
        ref = await self.storages[0].get_ref(rec.id, TABLE_REF)
        assert ref is not None
        return self.fake.message(int(ref))

    async def install(self, game: Game) -> None:
        """Replace the running game's engine state with a hand-made position."""
        storage = self.storages[0]
        rec = await storage.active_game(self.chat)
        assert rec is not None
        meta = dict(
            rec.meta, players=list(game.players), hand_sig={}, hand_ver={}, timeouts={}, recent=[]
        )
        meta.pop("turn", None)  # no turn of the position began yet: the next move's begins
        await storage.commit(
            rec.id, rec.version, state=game.to_dict(), meta=meta, status="running", deadline=None
        )

    def prompts(self) -> list[StoredMessage]:
        """The channel's turn prompts: messages offering "my cards" besides the table."""
        label = RENDERER.t("ru", "btn-my-cards")
        return [
            m
            for m in self.fake.channel_messages(self.world.channel)
            if m.find(label=label) is not None and m.find(custom_id="t:1") is None
        ]

    def assert_clean(self) -> None:
        fake = self.fake
        assert not fake.bot_errors, fake.bot_errors
        assert not fake.internal_errors, fake.internal_errors
        assert not fake.unknown_calls, fake.unknown_calls
        assert not [c for c in fake.calls if c.status == 401]  # no token used past its life


@pytest.fixture
def cluster(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> Callable[[], contextlib.AbstractAsyncContextManager[Cluster]]:
    @contextlib.asynccontextmanager
    async def make() -> AsyncIterator[Cluster]:
        clock = FakeClock()
        storages: list[Any] = []
        try:
            async with FakeDiscord() as fake:
                monkeypatch.setattr(discord.utils, "utcnow", fake.utcnow)
                world = fake.setup_guild(NAMES["ru"][:3], locale="ru")
                while shard_of(world.guild.id) != 1:  # a guild of shard 1
                    fake.advance(0.001)
                    world = fake.setup_guild(NAMES["ru"][:3], locale="ru")
                bots = []
                for shard in range(SHARDS):
                    storage = await PostgresStorage.open(postgres_url, clock=clock)
                    storages.append(storage)
                    service = Service(storage, clock=clock, bot_delay=2.0, seed=lambda: 4242)
                    await service.start()
                    bot = UnoBot(
                        service, renderer=RENDERER, timers=False, card_emoji=False,
                        clock=fake.clock, shard_id=shard, shard_count=SHARDS,
                    )  # fmt: skip
                    mine = [g for g in fake.guilds.values() if shard_of(g.id) == shard]
                    await fake.boot(bot, guilds=mine)
                    await bot.tree.sync()
                    bots.append(bot)
                    if bot.delivery is not None:
                        fake.settle_also.append(bot.delivery.settled)
                yield Cluster(fake, world, storages, bots)
                await fake.settle()
        finally:
            for storage in storages:
                await storage.close()

    return make


async def switch(c: Cluster, user: FakeUser, value: str) -> None:
    """Flip one of the member's own switches in /settings (in the guild: process 1)."""
    panel = (await c.slash(user, "settings")).original
    assert panel is not None and panel.is_ephemeral
    await c.select(user, panel, "s:toggle", value)


async def test_a_dm_player_and_a_guild_player_on_two_processes(
    cluster: Callable[[], contextlib.AbstractAsyncContextManager[Cluster]],
) -> None:
    async with cluster() as c:
        anya, borya, vika = c.world.users
        guild, channel = c.world.guild, c.world.channel
        assert c.process_for(channel) is c.bots[1]
        assert c.bots[0].get_guild(guild.id) is None and c.bots[0].get_channel(channel.id) is None
        # Anya and Borya get their hands by DM, Anya asks to be notified of her turns; Vika
        # plays from the ephemeral "my cards" hand in the channel.
        for user in (anya, borya):
            await switch(c, user, "dm_hands")
        await switch(c, anya, "turn_ping")
        new = await c.slash(anya, "new")
        table = new.original
        assert table is not None
        await c.click(borya, table, label=RENDERER.t("ru", "btn-join"))
        await c.slash(vika, "join")
        await c.click(anya, table, label=RENDERER.t("ru", "btn-start"))
        await c.install(
            Game.from_position(
                players=[str(anya.id), str(borya.id), str(vika.id)],
                hands={str(anya.id): "r5 r7 g2", str(borya.id): "b5 r2 y2 y9",
                       str(vika.id): "g9 g8 g7"},
                discard="r1",
                draw="y3 y4 y5 y6 y7 y8 y9 b1 b2 b3 b4 b5 b6 b7 b8",
                rules=Rules.preset("classic"),
                current=str(anya.id),
            )
        )  # fmt: skip
        await c.click(anya, await c.table(), label=RENDERER.t("ru", "btn-my-cards"))
        vika_hand = (await c.click(vika, await c.table(), label="🃏 Мои карты")).original
        assert vika_hand is not None and vika_hand.is_ephemeral
        (anya_dm,) = c.fake.dm_messages(anya)
        (borya_dm,) = c.fake.dm_messages(borya)

        # Anya plays from her DM: process 0 answers, edits the table of a channel it has never
        # seen, and Borya's DM.
        press = await c.press(anya, anya_dm, "play r7")
        assert press.payload["context"] == 1 and press.original_id == anya_dm.id
        assert RENDERER.t("ru", "table-turn", name=NAMES["ru"][1]) in (await c.table()).content
        assert "play r2" in hand_keys(borya_dm)
        # Borya too: Vika's turn begins, and her ephemeral hand -- answered by process 1 -- is
        # brought up to date by process 0, so the channel needs no turn prompt for her.
        await c.press(borya, borya_dm, "play r2")
        assert "draw" in hand_keys(vika_hand) and "play g9" not in hand_keys(vika_hand)
        assert c.prompts() == []

        # Vika draws in the channel (process 1), which passes the turn: Anya's turn begins and
        # her DM is sent anew, which notifies her.
        await c.press(vika, vika_hand, "draw")
        (pinged,) = c.fake.dm_messages(anya)
        assert pinged.id != anya_dm.id and "play r5" in hand_keys(pinged)
        # Her move goes through process 0 again, Borya's too (an ephemeral edit again), and
        # Vika's draw through process 1: Anya's turn begins again, and she is notified again
        # though process 1 did not see her last turn end.
        await c.press(anya, pinged, "play r5")
        await c.press(borya, borya_dm, "play b5")
        assert "draw" in hand_keys(vika_hand)
        await c.press(vika, vika_hand, "draw")
        (again,) = c.fake.dm_messages(anya)
        assert again.id != pinged.id and "draw" in hand_keys(again)  # g2 on b5: no move
        tables = [m for m in c.fake.channel_messages(channel) if m.find(custom_id="t:1")]
        assert tables == [await c.table()]  # one table message all along
        assert RENDERER.t("ru", "table-turn", name=NAMES["ru"][0]) in tables[0].content

        # Somebody deletes the table: process 0 posts a new one with Anya's next move, and
        # process 1, which knew the old one, edits that new one with Vika's (no third table).
        tables[0].deleted = True
        await c.press(anya, again, "draw")  # y5: she may play it
        (anya_dm,) = c.fake.dm_messages(anya)
        await c.press(anya, anya_dm, "play y5")
        await c.press(borya, borya_dm, "play y9")
        assert "play g9" in hand_keys(vika_hand)
        await c.press(vika, vika_hand, "play g9")
        (table,) = [m for m in c.fake.channel_messages(channel) if m.find(custom_id="t:1")]
        assert table == await c.table() and table.id != tables[0].id
        assert RENDERER.t("ru", "table-turn", name=NAMES["ru"][0]) in table.content
        assert len(c.fake.dm_messages(anya)) == len(c.fake.dm_messages(borya)) == 1
        assert c.prompts() == []
        c.assert_clean()


def test_games_ended_elsewhere_are_forgotten_past_a_bound() -> None:
    """A process forgets a game when it shows its end; one that ended in another process is
    forgotten once the process remembers `KEPT_GAMES` others it showed more lately."""
    forgotten: list[int] = []
    games = _Games(2, forgotten.append)
    games[1], games[2] = 5, 7
    assert games.get(1) == 5  # shown lately again
    games[3] = 1
    assert forgotten == [2] and set(games) == {1, 3}
