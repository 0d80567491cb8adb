"""Self-test of the fake Discord's application emoji: what it keeps, and what it refuses the way
Discord does (names, duplicates, size, non-images, the 2,000 limit, unknown emoji in components),
driven by the real discord.py client."""

from __future__ import annotations

import io
import math
import random
from collections.abc import AsyncIterator
from typing import Any

import discord
import pytest
from discord import ui
from PIL import Image

from bot.art import emoji_png
from core.cards import Card
from tests.discord.fake_discord import MAX_EMOJI_BYTES, FakeDiscord, FakeWorld

PNG = emoji_png(Card.parse("r7"))


def noise_png(size: int) -> bytes:
    """A PNG of random pixels (it does not compress) of about `size` bytes."""
    side = math.isqrt(size // 3) + 1
    image = Image.frombytes("RGB", (side, side), random.Random(7).randbytes(side * side * 3))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


BIG = noise_png(MAX_EMOJI_BYTES)


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord() as fake:
        yield fake


@pytest.fixture
def world(fake: FakeDiscord) -> FakeWorld:
    return fake.setup_guild(["Alice"], locale="ru")


@pytest.fixture
async def client(fake: FakeDiscord, world: FakeWorld) -> discord.Client:
    bot = discord.Client(intents=discord.Intents.none())
    await fake.boot(bot)
    return bot


def error_codes(fake: FakeDiscord) -> list[str]:
    """The `_errors` codes of the fake's last answer (discord.py keeps only their messages)."""

    def walk(node: Any) -> list[str]:
        if not isinstance(node, dict):
            return []
        codes = [e["code"] for e in node.get("_errors", [])]
        return codes + [c for k, v in node.items() if k != "_errors" for c in walk(v)]

    return walk((fake.calls[-1].response or {}).get("errors"))


async def test_create_list_delete(fake: FakeDiscord, client: discord.Client) -> None:
    created = await client.create_application_emoji(name="r7_card", image=PNG)
    assert created.name == "r7_card" and created.is_application_owned()
    listed = await client.fetch_application_emojis()
    assert [(e.id, e.name) for e in listed] == [(created.id, "r7_card")]
    assert (await client.fetch_application_emoji(created.id)).name == "r7_card"
    await created.delete()
    assert await client.fetch_application_emojis() == []
    with pytest.raises(discord.NotFound):
        await created.delete()
    assert not fake.unknown_calls and not fake.internal_errors


@pytest.mark.parametrize(
    ("name", "image", "error"),
    [
        ("x", PNG, "STRING_TYPE_REGEX"),  # too short
        ("a" * 33, PNG, "STRING_TYPE_REGEX"),  # too long
        ("red-7", PNG, "STRING_TYPE_REGEX"),  # not [A-Za-z0-9_]
        ("r7", BIG, "BINARY_TYPE_MAX_SIZE"),
        ("r7", PNG[:40] + b"the rest is no picture", "IMAGE_INVALID"),
    ],
)
async def test_create_refuses_what_discord_refuses(
    fake: FakeDiscord, client: discord.Client, name: str, image: bytes, error: str
) -> None:
    with pytest.raises(discord.HTTPException) as exc:
        await client.create_application_emoji(name=name, image=image)
    assert exc.value.status == 400 and exc.value.code == 50035
    assert error_codes(fake) == [error]
    assert fake.app_emojis == {}


async def test_the_size_limit_is_256_kib(client: discord.Client) -> None:
    assert len(BIG) > MAX_EMOJI_BYTES
    image = noise_png(MAX_EMOJI_BYTES - 4096)
    assert len(image) <= MAX_EMOJI_BYTES
    assert (await client.create_application_emoji(name="big", image=image)).name == "big"


async def test_duplicate_names_and_the_limit(fake: FakeDiscord, client: discord.Client) -> None:
    await client.create_application_emoji(name="r7", image=PNG)
    with pytest.raises(discord.HTTPException) as exc:
        await client.create_application_emoji(name="r7", image=PNG)
    assert exc.value.code == 50035
    assert error_codes(fake) == ["APPLICATION_EMOJI_NAME_ALREADY_TAKEN"]
    fake.app_emoji_limit = 2
    await client.create_application_emoji(name="r8", image=PNG)
    with pytest.raises(discord.HTTPException) as exc:
        await client.create_application_emoji(name="r9", image=PNG)
    assert exc.value.status == 400 and exc.value.code == 30008
    assert sorted(e["name"] for e in fake.app_emojis.values()) == ["r7", "r8"]


def _button_view(emoji: discord.PartialEmoji) -> ui.View:
    view = ui.View(timeout=None)
    view.add_item(ui.Button(label="7", custom_id="card", emoji=emoji))
    return view


def _menu_view(emoji: discord.PartialEmoji) -> ui.View:
    view = ui.View(timeout=None)
    option = discord.SelectOption(label="7", value="r7", emoji=emoji)
    view.add_item(ui.Select(custom_id="menu", options=[option]))
    return view


@pytest.mark.parametrize("make_view", [_button_view, _menu_view])
async def test_a_component_with_an_unknown_emoji_is_refused(
    fake: FakeDiscord, world: FakeWorld, client: discord.Client, make_view: Any
) -> None:
    channel = client.get_partial_messageable(world.channel.id)
    unknown = discord.PartialEmoji(name="r7", id=fake.snowflake())
    with pytest.raises(discord.HTTPException) as exc:
        await channel.send("hand", view=make_view(unknown))
    assert exc.value.status == 400 and "Invalid emoji" in str(exc.value)
    assert error_codes(fake) == ["COMPONENT_INVALID_EMOJI"]
    assert fake.channel_messages(world.channel) == []

    emoji = await client.create_application_emoji(name="r7", image=PNG)
    sent = await channel.send("hand", view=make_view(emoji._to_partial()))
    stored = fake.message(sent.id)
    (component,) = [c for c in fake.components(stored) if c.get("type") != 1]
    carried = component.get("emoji") or component["options"][0]["emoji"]
    assert int(carried["id"]) == emoji.id
    # An edit naming an emoji that is gone is refused too.
    await emoji.delete()
    with pytest.raises(discord.HTTPException):
        await sent.edit(content="hand", view=make_view(emoji._to_partial()))


async def test_embed_thumbnails_are_recorded_and_checked(
    fake: FakeDiscord, world: FakeWorld, client: discord.Client
) -> None:
    channel = client.get_partial_messageable(world.channel.id)
    url = "https://cdn.discordapp.com/emojis/1.png"
    sent = await channel.send("table", embed=discord.Embed(title="r7").set_thumbnail(url=url))
    assert fake.message(sent.id).embeds[0]["thumbnail"]["url"] == url
    await sent.edit(embeds=[])
    assert fake.message(sent.id).embeds == []
    with pytest.raises(discord.HTTPException) as exc:
        await channel.send("table", embed=discord.Embed(title="r7").set_thumbnail(url="ftp://x"))
    assert exc.value.code == 50035 and error_codes(fake) == ["URL_TYPE_INVALID_SCHEME"]
