"""Self-test of the fake Discord REST server and interaction driver (fake_discord.py)."""

from __future__ import annotations

import copy
import re
import time
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import discord.http
import pytest
from discord import app_commands, ui
from discord.ext import commands

from tests.discord.fake_discord import EPHEMERAL, ComponentRefused, FakeDiscord, FakeWorld

TRANSLATIONS = {
    "ru": {"ping": "пинг", "Check that the bot answers": "Проверить, что бот отвечает"},
    "uk": {"ping": "пінг", "Check that the bot answers": "Перевірити, що бот відповідає"},
}


class TinyTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        return TRANSLATIONS.get(locale.value, {}).get(string.message)


class PlayButton(ui.DynamicItem[ui.Button[Any]], template=r"uno:(?P<game>\d+):(?P<v>\d+)"):
    def __init__(self, game: int, version: int) -> None:
        super().__init__(
            ui.Button(
                label=f"Play v{version}",
                custom_id=f"uno:{game}:{version}",
                style=discord.ButtonStyle.primary,
            )
        )
        self.game = game
        self.version = version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str], /
    ) -> PlayButton:
        return cls(int(match["game"]), int(match["v"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = interaction.client
        assert isinstance(bot, TinyBot)
        bot.clicks.append((self.game, self.version, interaction.user.id))
        view = ui.View(timeout=None)
        view.add_item(PlayButton(self.game, self.version + 1))
        await interaction.response.edit_message(content=f"pong v{self.version + 1}", view=view)


class PingCog(commands.Cog):
    def __init__(self, bot: TinyBot) -> None:
        self.bot = bot

    @app_commands.command(
        name=app_commands.locale_str("ping"),
        description=app_commands.locale_str("Check that the bot answers"),
    )
    async def ping(self, interaction: discord.Interaction) -> None:
        self.bot.interactions.append(interaction)
        view = ui.View(timeout=None)
        view.add_item(PlayButton(7, 1))
        await interaction.response.send_message("pong v1", view=view, ephemeral=True)


class TinyBot(commands.Bot):
    def __init__(self) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default())
        self.interactions: list[discord.Interaction] = []
        self.clicks: list[tuple[int, int, int]] = []
        self.ready_seen = False

    async def setup_hook(self) -> None:
        await self.tree.set_translator(TinyTranslator())
        self.add_dynamic_items(PlayButton)
        await self.add_cog(PingCog(self))

    async def on_ready(self) -> None:
        self.ready_seen = True


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    original_base = discord.http.Route.BASE
    async with FakeDiscord() as fake:
        patched = discord.http.Route.BASE
        assert patched == f"{fake.base_url}/api/v10"
        yield fake
    restored = discord.http.Route.BASE
    assert restored == original_base


@pytest.fixture
def world(fake: FakeDiscord) -> FakeWorld:
    return fake.setup_guild(["Alice", "Bob", "Carol"], locale="ru", user_locales=["ru", "uk", "ru"])


async def booted(fake: FakeDiscord) -> TinyBot:
    bot = TinyBot()
    await fake.boot(bot)
    return bot


async def test_boot_and_sync_records_localized_payload(fake: FakeDiscord, world: FakeWorld) -> None:
    bot = await booted(fake)
    assert bot.ready_seen
    assert bot.user is not None and bot.user.id == fake.app_id
    assert bot.application_id == fake.app_id
    guild = bot.get_guild(world.guild.id)
    assert guild is not None and guild.get_channel(world.channel.id) is not None
    assert guild.preferred_locale is discord.Locale.russian

    synced = await bot.tree.sync()
    assert [c.name for c in synced] == ["ping"]
    (record,) = fake.sync_payloads
    assert record.guild_id is None
    (cmd,) = record.payload
    assert cmd["name"] == "ping"
    assert cmd["name_localizations"] == {"ru": "пинг", "uk": "пінг"}
    assert cmd["description_localizations"]["uk"] == "Перевірити, що бот відповідає"
    assert fake.command("пінг") is not None  # localized lookup
    assert not fake.unknown_calls


async def test_ping_and_dynamic_button_survive_restart(fake: FakeDiscord, world: FakeWorld) -> None:
    alice, bob, _carol = world.users
    bot = await booted(fake)
    await bot.tree.sync()

    h = await fake.slash(bot, alice, "пинг")  # localized name resolves to /ping
    assert h.answered_within(3.0)
    assert h.callback_type == 4 and h.ephemeral
    msg = h.original
    assert msg is not None and msg.content == "pong v1" and msg.flags & EPHEMERAL
    assert fake.ephemeral_for(alice) == [msg]
    assert fake.ephemeral_for(bob) == []
    assert "pong v1" not in fake.all_visible_texts(public_only=True)
    assert "Play v1" in fake.all_visible_texts(public_only=False)
    assert fake.channel_messages(world.channel) == []
    interaction = bot.interactions[-1]
    assert interaction.locale is discord.Locale.russian
    assert interaction.guild_locale is discord.Locale.russian
    synced = fake.command("ping")
    assert synced is not None and h.payload["data"]["id"] == synced["id"]
    assert interaction.command is not None and interaction.command.name == "ping"

    with pytest.raises(AssertionError, match="cannot see"):
        await fake.click(bot, bob, msg, "uno:7:1")

    click = await fake.click(bot, alice, msg, label="Play v1")
    assert click.callback_type == 7 and click.answered_within(3.0)
    assert bot.clicks == [(7, 1, alice.id)]
    assert msg.content == "pong v2" and msg.versions[0]["content"] == "pong v1"
    assert fake.find_component(msg, custom_id="uno:7:2") is not None

    # "restart": a brand-new bot process must still route the old message's button
    await fake.shutdown(bot)
    assert bot.is_closed()
    bot2 = await booted(fake)
    click2 = await fake.click(bot2, alice, msg, "uno:7:2")
    assert click2.answered and bot2.clicks == [(7, 2, alice.id)]
    assert msg.content == "pong v3"

    # a stale client still showing version 1 sends the old custom_id
    stale = await fake.click(bot2, alice, msg, "uno:7:1", snapshot=msg.versions[0])
    assert stale.answered and bot2.clicks[-1] == (7, 1, alice.id)


async def test_dm_to_closed_user_is_forbidden_50007(fake: FakeDiscord, world: FakeWorld) -> None:
    alice, bob, _ = world.users
    fake.set_dm_closed(bob)
    bot = await booted(fake)

    user = await bot.fetch_user(alice.id)
    await user.send("your hand")
    assert [m.content for m in fake.dm_messages(alice)] == ["your hand"]
    assert "your hand" not in fake.all_visible_texts()

    closed = await bot.fetch_user(bob.id)
    with pytest.raises(discord.Forbidden) as err:
        await closed.send("your hand")
    assert err.value.code == 50007 and err.value.status == 403
    assert fake.dm_messages(bob) == []


async def test_original_response_token_expires_after_15_minutes(
    fake: FakeDiscord, world: FakeWorld, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(discord.utils, "utcnow", fake.utcnow)
    bot = await booted(fake)
    await bot.tree.sync()
    fake.fail_next("/callback", status=429, retry_after=0.05)  # the webhook adapter retries too
    h = await fake.slash(bot, world.users[0], "ping", wait_tasks=False)
    assert [c.status for c in h.calls] == [429, 200]
    assert h.response_time is not None and 0.05 <= h.response_time < 3.0
    interaction = bot.interactions[-1]

    fake.advance(14 * 60)
    edited = await interaction.edit_original_response(content="still fresh")
    assert edited.content == "still fresh" and h.original is not None
    assert h.original.content == "still fresh"

    fake.advance(2 * 60)  # 16 minutes after the interaction
    assert interaction.is_expired() and h.token_expired()
    with pytest.raises(discord.HTTPException) as err:
        await interaction.edit_original_response(content="too late")
    assert err.value.code == 50027 and err.value.status == 401
    assert h.original.content == "still fresh"
    assert fake.calls[-1].path.endswith("/messages/@original") and fake.calls[-1].status == 401


async def test_validation_rate_limits_and_channel_messages(
    fake: FakeDiscord, world: FakeWorld
) -> None:
    bot = await booted(fake)
    channel = bot.get_channel(world.channel.id)
    assert isinstance(channel, discord.TextChannel)

    with pytest.raises(discord.HTTPException) as err:
        await channel.send("x" * 2001)
    assert err.value.status == 400 and err.value.code == 50035
    assert "content" in err.value.text

    too_long = {"type": 2, "style": 1, "label": "x", "custom_id": "c" * 101}
    with pytest.raises(discord.HTTPException) as err:
        await bot.http.request(
            discord.http.Route("POST", "/channels/{channel_id}/messages", channel_id=channel.id),
            json={"content": "hi", "components": [{"type": 1, "components": [too_long]}]},
        )
    assert err.value.code == 50035 and "custom_id" in err.value.text
    six_rows = [
        {"type": 1, "components": [{"type": 2, "style": 1, "label": "b", "custom_id": f"b{i}"}]}
        for i in range(6)
    ]
    with pytest.raises(discord.HTTPException):
        await bot.http.request(
            discord.http.Route("POST", "/channels/{channel_id}/messages", channel_id=channel.id),
            json={"content": "hi", "components": six_rows},
        )

    # 429 with Via: discord.py sleeps retry_after and retries on its own
    fake.fail_next("POST /channels/", status=429, retry_after=0.05)
    started = time.monotonic()
    sent = await channel.send("after rate limit")
    assert time.monotonic() - started >= 0.05
    statuses = [c.status for c in fake.calls_to(f"/channels/{channel.id}/messages", "POST")]
    assert statuses[-2:] == [429, 200]
    assert fake.calls_to("/messages", "POST")[-2].response["retry_after"] == 0.05

    # 429 without Via looks like a Cloudflare ban: raised at once
    fake.fail_next("/channels/", status=429, via=False)
    with pytest.raises(discord.HTTPException) as err:
        await channel.send("banned")
    assert err.value.status == 429

    edited = await sent.edit(content="edited")
    assert edited.content == "edited"
    assert [m.content for m in fake.channel_messages(world.channel)] == ["edited"]
    assert fake.all_visible_texts() == ["edited"]
    await sent.delete()
    assert fake.channel_messages(world.channel) == []

    # raw Content-Type check: exactly application/json
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"{fake.base_url}/api/v10/users/@me") as resp,
    ):
        assert resp.headers["Content-Type"] == "application/json"
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"{fake.base_url}/api/v10/nope") as resp,
    ):
        assert resp.status == 404 and (await resp.json())["code"] == 0
    assert fake.unknown_calls[-1].path == "/nope"


class ColourSelect(ui.Select[Any]):
    def __init__(self) -> None:
        super().__init__(
            custom_id="uno:colour",
            placeholder="Pick a colour",
            options=[discord.SelectOption(label=c, value=c) for c in ("red", "green", "blue")],
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()  # type 6: deferred update of the clicked message
        await interaction.edit_original_response(content=f"colour: {self.values[0]}", view=None)
        await interaction.followup.send(f"you chose {self.values[0]}", ephemeral=True)


class GameGroup(app_commands.Group, name="game", description="UNO games"):
    def __init__(self, bot: FullBot) -> None:
        super().__init__()
        self.bot = bot

    @app_commands.command(name="new", description="Start a game")
    @app_commands.choices(
        mode=[app_commands.Choice(name="Classic", value="classic"),
              app_commands.Choice(name="Fast", value="fast")]
    )  # fmt: skip
    async def new(
        self,
        interaction: discord.Interaction,
        mode: app_commands.Choice[str],
        rival: discord.Member | None = None,
        rounds: int = 1,
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        view = ui.View(timeout=None)
        view.add_item(ColourSelect())
        name = rival.display_name if rival else "nobody"
        await interaction.followup.send(f"{mode.value} vs {name} x{rounds}", view=view)
        await interaction.followup.send("a game started")  # second followup: not ephemeral

    @app_commands.command(name="slow", description="Answers too late")
    async def slow(self, interaction: discord.Interaction) -> None:
        self.bot.fake.advance(3.5)  # pretend the handler took 3.5 s
        await interaction.response.send_message("late")

    @app_commands.command(name="twice", description="Acknowledges twice")
    async def twice(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("once")
        try:
            await self.bot.http.request(
                discord.http.Route(
                    "POST",
                    "/interactions/{interaction_id}/{token}/callback",
                    interaction_id=interaction.id,
                    token=interaction.token,
                ),
                json={"type": 4, "data": {"content": "twice"}},
            )
        except discord.HTTPException as exc:
            self.bot.errors.append(exc.code)

    @app_commands.command(name="find", description="Autocomplete")
    async def find(self, interaction: discord.Interaction, query: str) -> None:
        await interaction.response.send_message(query)

    @find.autocomplete("query")
    async def find_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=w, value=w) for w in ("red", "reverse") if current in w]

    @app_commands.command(name="deal", description="DM the hand")
    async def deal(self, interaction: discord.Interaction) -> None:
        view = ui.View(timeout=None)
        view.add_item(PlayButton(9, 1))
        await interaction.user.send("your hand", view=view)
        await interaction.response.send_message("dealt", ephemeral=True)


class FullBot(TinyBot):
    def __init__(self, fake: FakeDiscord) -> None:
        super().__init__()
        self.fake = fake
        self.errors: list[int] = []

    async def setup_hook(self) -> None:
        await super().setup_hook()
        self.tree.add_command(GameGroup(self))


async def test_driver_options_defer_followups_select_dm(
    fake: FakeDiscord, world: FakeWorld
) -> None:
    alice, bob, carol = world.users
    bot = FullBot(fake)
    await fake.boot(bot)
    await bot.tree.sync()
    game = fake.command("game")
    assert game is not None and [o["name"] for o in game["options"]][:2] == ["new", "slow"]

    with pytest.raises(AssertionError, match="required option"):
        await fake.slash(bot, alice, "game new")
    with pytest.raises(AssertionError, match="not one of"):
        await fake.slash(bot, alice, "game new", {"mode": "slowest"})

    h = await fake.slash(bot, alice, "game new", {"mode": "fast", "rival": bob, "rounds": 3})
    assert h.callback_type == 5 and h.deferred
    assert h.original is not None and h.original.is_ephemeral and not h.original.is_loading
    assert h.original.content == "fast vs Bob x3"  # first followup replaced the loading message
    assert [m.is_ephemeral for m in h.messages] == [True, False]
    assert fake.all_visible_texts() == ["a game started"]
    assert "Pick a colour" in fake.visible_texts_for(alice)
    assert "Pick a colour" not in fake.visible_texts_for(bob)

    sel = await fake.select(bot, alice, h.original, "uno:colour", ["green"])
    assert sel.callback_type == 6 and sel.original_id == h.original.id
    assert h.original.content == "colour: green" and fake.components(h.original) == []
    assert [m.content for m in sel.followups] == ["you chose green"]
    assert sel.followups[0].is_ephemeral
    with pytest.raises(AssertionError, match="no component"):
        await fake.select(bot, alice, h.original, "uno:colour", ["red"])

    with pytest.raises(AssertionError, match="too late"):
        await fake.slash(bot, carol, "game slow", timeout=0.5)
    late = list(fake.interactions.values())[-1]
    assert late.rejected_callbacks and late.rejected_callbacks[0].response["code"] == 10062
    assert fake.bot_errors == ["Ignoring exception in command 'slow'"]
    fake.logged_errors.clear()

    await fake.slash(bot, carol, "game twice")
    assert bot.errors == [40060]

    ac = await fake.autocomplete(bot, bob, "game find", {"query": "re"}, focused="query")
    assert [c["value"] for c in ac.choices] == ["red", "reverse"]

    deal = await fake.slash(bot, bob, "game deal")
    assert deal.ephemeral and deal.original is not None and deal.original.content == "dealt"
    (dm,) = fake.dm_messages(bob)
    assert dm.content == "your hand" and dm.visible_to(bob.id) and not dm.visible_to(alice.id)
    click = await fake.click(bot, bob, dm, "uno:9:1")  # a click inside the DM channel
    assert "guild_id" not in click.payload and click.payload["user"]["id"] == str(bob.id)
    assert click.payload["context"] == 1
    assert dm.content == "pong v2" and bot.clicks[-1] == (9, 1, bob.id)
    assert not fake.unknown_calls and not fake.bot_errors
    await fake.settle()


async def test_refuses_what_discord_refuses(fake: FakeDiscord, world: FakeWorld) -> None:
    """A custom id the message never had, over 2,000 characters, no Send Messages."""
    alice, _bob, _ = world.users
    bot = await booted(fake)
    await bot.tree.sync()
    msg = (await fake.slash(bot, alice, "ping")).original
    assert msg is not None
    forged = {**msg.data, "components": copy.deepcopy(msg.raw_components)}
    forged["components"][0]["components"][0]["custom_id"] = "uno:7:99"
    with pytest.raises(ComponentRefused):
        await fake.click(bot, alice, msg, "uno:7:99", snapshot=forged)
    assert bot.clicks == []
    modified_client = await fake.click(bot, alice, msg, "uno:7:99", snapshot=forged, forge=True)
    assert modified_client.answered and bot.clicks == [(7, 99, alice.id)]

    channel = bot.get_partial_messageable(world.channel.id)
    with pytest.raises(discord.HTTPException) as too_long:
        await channel.send("x" * 2001)
    assert too_long.value.code == 50035
    posted = await channel.send("x" * 2000)

    world.channel.bot_can_send = False
    with pytest.raises(discord.Forbidden) as denied:
        await channel.send("hello")
    assert denied.value.code == 50013 and denied.value.status == 403
    await posted.edit(content="edited")  # its own message stays editable
    assert fake.message(posted.id).content == "edited"
    answered = await fake.slash(bot, alice, "ping")  # interaction responses need no permission
    assert answered.original is not None and answered.original.content == "pong v1"


async def test_response_time_counts_the_simulated_network(
    fake: FakeDiscord, world: FakeWorld
) -> None:
    alice = world.users[0]
    bot = await booted(fake)
    await bot.tree.sync()
    fake.latency = 1.0  # the callback's own round trip: 1.5 s simulated
    quick = await fake.slash(bot, alice, "ping")
    assert 1.5 <= quick.simulated_delay < 1.6 and quick.answered_within(3.0)
    fake.latency = 2.5  # 3.75 s: Discord has given up
    with pytest.raises(AssertionError, match="too late"):
        await fake.slash(bot, alice, "ping")
