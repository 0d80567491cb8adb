"""Card emoji end to end: the real discord.py bot against the fake Discord.

At start the bot uploads the card art as application emoji, once; the hand's card buttons (in an
ephemeral and by DM) carry their card's emoji in the chat's language; the table shows its top
card as an embed thumbnail that follows the top card; a refused or partial upload falls back to
text; changed art gets a new emoji and the old one is deleted. Every wait is on an event (the
emoji set's `ready`), never on time.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable, Mapping
from typing import Any

import discord
import pytest

import bot.discord.emoji as emoji_module
from bot.art import emoji_png
from bot.discord import layout
from bot.discord.emoji import CDN, CardEmoji, card_pictures, emoji_name
from core.cards import ALL_CARDS, Card
from tests.discord.fake_discord import FakeDiscord, StoredMessage, walk_components
from tests.discord.test_discord_bot import RENDERER, Table, hand_button, table_factory

JSON = dict[str, Any]
EMOJI_LOG = "bot.discord.emoji"


@pytest.fixture
def make_table(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> Callable[..., Any]:
    return table_factory(tmp_path, monkeypatch)


@pytest.fixture
async def fake_world() -> AsyncIterator[tuple[FakeDiscord, list[discord.Client]]]:
    """The fake with two plain clients of the same application (two processes of the bot)."""
    async with FakeDiscord() as fake:
        fake.setup_guild(["Alice"])
        clients = [discord.Client(intents=discord.Intents.none()) for _ in range(2)]
        for client in clients:
            await fake.boot(client)
        yield fake, clients


async def emoji_ready(t: Table) -> None:
    await t.bot.emoji.ready.wait()


def wanted_names(pictures: Mapping[tuple[str, str, bool], bytes] | None = None) -> set[str]:
    pictures = pictures or card_pictures()
    return {
        emoji_name(Card.parse(text), png, dimmed) for (text, _, dimmed), png in pictures.items()
    }


def emoji_id(t: Table, card: str, lang: str, dimmed: bool = False) -> int:
    """The id of the fake's emoji for `card` in `lang` (as the art draws it today)."""
    name = emoji_name(Card.parse(card), card_pictures()[(card, lang, dimmed)], dimmed)
    found = t.fake.app_emoji(name)
    assert found is not None, name
    return int(found["id"])


def card_buttons(message: StoredMessage) -> dict[str, JSON]:
    """The hand's card buttons by their act (`play r7`, `pick play wild4`)."""
    out = {}
    for comp in walk_components(message.data.get("components") or []):
        cid = str(comp.get("custom_id", ""))
        if cid.startswith("h:"):
            act = cid.split(":", 3)[3]
            if act.startswith(("play ", "pick play ")):
                out[act] = comp
    return out


def card_of(act: str) -> str:
    return act.removeprefix("pick ").split(" ")[1]


def assert_carries_emoji(t: Table, message: StoredMessage, lang: str) -> None:
    buttons = card_buttons(message)
    assert buttons, message.text
    for act, button in buttons.items():
        assert button.get("label"), button  # the text stays for readers and the color mark
        assert int(button["emoji"]["id"]) == emoji_id(t, card_of(act), lang), act
    others = [
        c
        for c in walk_components(message.data.get("components") or [])
        if str(c.get("custom_id", "")).startswith("h:") and c not in buttons.values()
    ]
    assert others and all("emoji" not in c for c in others)  # draw, pass... stay text


async def test_uploaded_once_and_a_restart_uploads_nothing(
    make_table: Callable[..., Any],
) -> None:
    async with make_table(card_emoji=True) as t:
        await emoji_ready(t)
        table = await t.started(*t.users[:2])
        names = wanted_names()
        stored = {e["name"]: e["id"] for e in t.fake.app_emojis.values()}
        assert set(stored) == names
        assert len(t.fake.calls_to("/emojis", "POST")) == len(names)
        # Red faces differ by language (their letter), the others are one emoji for both.
        assert emoji_id(t, "r7", "ru") != emoji_id(t, "r7", "uk")
        assert emoji_id(t, "g7", "ru") == emoji_id(t, "g7", "uk")
        # Each face normal and dimmed: shared faces once, well under Discord's 2,000 per app.
        assert emoji_id(t, "r7", "ru", dimmed=True) not in (emoji_id(t, "r7", "ru"), 0)
        assert emoji_id(t, "r7", "ru", dimmed=True) != emoji_id(t, "r7", "uk", dimmed=True)
        assert emoji_id(t, "g7", "ru", dimmed=True) == emoji_id(t, "g7", "uk", dimmed=True)
        assert len(names) < 2 * 2 * len(ALL_CARDS) and len(names) <= 200
        assert all(len(n) <= 32 for n in names)

        edits = len(table.versions)
        await t.restart()
        await emoji_ready(t)
        assert len(t.fake.calls_to("/emojis", "POST")) == len(names)  # nothing new
        # The list came before the running table was shown again: it kept its picture.
        assert len(table.versions) > edits and len(table.embeds) == 1
        assert t.fake.calls_to("/emojis", "DELETE") == []
        assert {e["name"]: e["id"] for e in t.fake.app_emojis.values()} == stored
        assert t.bot.emoji.count == len(names)
        t.assert_clean()


@pytest.mark.parametrize("locale", ["ru", "uk"])
async def test_hand_buttons_carry_their_cards_emoji(
    make_table: Callable[..., Any], locale: str
) -> None:
    async with make_table(locale=locale, card_emoji=True) as t:
        await emoji_ready(t)
        anya, borya, vika, _ = t.users
        # Borya takes his hand by DM: his buttons carry the emoji there too.
        await t.service.settings.toggle_personal(f"dc:{t.uid(borya)}", "dm_hands", default=False)
        await t.started(anya, borya, vika)
        position = {anya: "r7 r5 g3 wild4 b9", borya: "b5 r2 y2", vika: "g9 g8 g7"}
        await t.install(t.position(position))
        hand = await t.my_cards(anya)
        assert set(card_buttons(hand)) == {"play r7", "play r5", "pick play wild4"}
        assert_carries_emoji(t, hand, t.lang)
        await t.press(anya, hand, "play r7")
        assert set(card_buttons(hand)) == set()  # not her turn: no card buttons
        dm = t.fake.dm_messages(borya)[-1]
        assert set(card_buttons(dm)) == {"play r2"}
        assert_carries_emoji(t, dm, t.lang)
        # The second step (a wild's colors) is about colors, not cards: text as before.
        await t.install(t.position(position))
        hand = await t.my_cards(anya)
        await t.press(anya, hand, "pick play wild4")
        steps = [c for c in walk_components(hand.data["components"]) if c.get("type") == 2]
        assert steps and all("emoji" not in c for c in steps)
        t.assert_clean()


async def test_the_card_menu_carries_the_emoji(
    make_table: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(layout, "MAX_ROWS", 2)  # the cards go into a select menu
    async with make_table(card_emoji=True) as t:
        await emoji_ready(t)
        anya, borya, vika, _ = t.users
        await t.started(anya, borya, vika)
        cards = "r2 r3 r4 r5 r6 r7 g1 wild"
        await t.install(t.position({anya: cards, borya: "b5 r2 y2", vika: "g9 g8 g7"}))
        hand = await t.my_cards(anya)
        (menu,) = [c for c in t.fake.components(hand) if c.get("type") == 3]
        assert len(menu["options"]) == len(cards.split())  # all playable on r1
        for option in menu["options"]:
            assert int(option["emoji"]["id"]) == emoji_id(t, card_of(option["value"]), "ru")
        t.assert_clean()


async def test_the_table_shows_its_top_card_and_follows_it(
    make_table: Callable[..., Any],
) -> None:
    async with make_table(card_emoji=True) as t:
        await emoji_ready(t)
        anya, borya, vika, _ = t.users
        table = await t.lobby(anya, borya, vika)
        assert table.embeds == []  # a lobby has no top card
        await t.click(anya, table, label=RENDERER.t("ru", "btn-start"))
        top = (await t.game()).top_card
        assert table.embeds[0]["thumbnail"]["url"] == CDN.format(id=emoji_id(t, top.text, "ru"))
        await t.install(t.position({anya: "r7 r5", borya: "b5 r2 y2", vika: "g9 g8 g7"}))
        uploads = len(t.fake.calls_to("/emojis"))
        edits = len(table.versions)
        await t.press(anya, await t.my_cards(anya), "play r7")
        (embed,) = table.embeds
        assert embed["thumbnail"]["url"] == CDN.format(id=emoji_id(t, "r7", "ru"))
        assert embed["title"] == RENDERER.i18n.card_name("ru", Card.parse("r7"))
        await t.press(borya, await t.my_cards(borya), "play r2")
        assert table.embeds[0]["thumbnail"]["url"] == CDN.format(id=emoji_id(t, "r2", "ru"))
        # The picture rides on the table's own edits: one per move, no emoji call at all.
        assert len(table.versions) == edits + 2
        assert len(t.fake.calls_to("/emojis")) == uploads
        t.assert_clean()


@pytest.mark.parametrize("refused", ["POST /emojis", "GET /emojis"])
async def test_a_refused_upload_falls_back_to_text(
    make_table: Callable[..., Any], caplog: pytest.LogCaptureFixture, refused: str
) -> None:
    caplog.set_level(logging.INFO, logger=EMOJI_LOG)
    async with make_table() as t:  # started without emoji: the next start tries
        t.fake.fail_next(refused, 403, code=50001, message="Missing Access")
        t.bot_options["card_emoji"] = True
        await t.restart()
        await emoji_ready(t)
        assert t.fake.app_emojis == {} and t.bot.emoji.count == 0
        assert len(t.fake.calls_to("/emojis", "POST")) == (1 if refused.startswith("POST") else 0)
        warnings = [r for r in caplog.records if r.name == EMOJI_LOG and r.levelname == "WARNING"]
        assert len(warnings) == 1, [r.getMessage() for r in warnings]
        anya, borya, vika, _ = t.users
        table = await t.started(anya, borya, vika)
        await t.install(t.position({anya: "r7 r5", borya: "b5 r2 y2", vika: "g9 g8 g7"}))
        hand = await t.my_cards(anya)
        button = hand_button(hand, "play r7")
        assert button is not None and button["label"] and "emoji" not in button
        await t.press(anya, hand, "play r7")
        assert table.embeds == [] and "🟥 7" in table.content
        t.assert_clean()


async def test_a_partial_upload_uses_what_it_has(
    make_table: Callable[..., Any], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger=EMOJI_LOG)
    async with make_table() as t:
        t.fake.app_emoji_limit = 10
        t.bot_options["card_emoji"] = True
        await t.restart()
        await emoji_ready(t)
        assert len(t.fake.app_emojis) == t.bot.emoji.count == 10
        assert [r.levelname for r in caplog.records if r.name == EMOJI_LOG] == ["WARNING"]
        uploaded = {e["name"] for e in t.fake.app_emojis.values()}
        anya, borya, vika, _ = t.users
        await t.started(anya, borya, vika)
        cards = [c.text for c in ALL_CARDS if c.color is not None and c.color.value == "r"]
        await t.install(t.position({anya: " ".join(cards), borya: "b5 y2", vika: "g9 g8"}))
        hand = await t.my_cards(anya)
        with_emoji = without = 0
        for act, button in card_buttons(hand).items():
            name = emoji_name(
                Card.parse(card_of(act)), card_pictures()[(card_of(act), "ru", False)]
            )
            if name in uploaded:
                with_emoji += 1
                assert int(button["emoji"]["id"]) == emoji_id(t, card_of(act), "ru")
            else:
                without += 1
                assert "emoji" not in button and button["label"]
        assert with_emoji and without
        t.assert_clean()


async def test_changed_art_gets_a_new_emoji_and_the_old_one_goes(
    make_table: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    async with make_table(card_emoji=True) as t:
        await emoji_ready(t)
        own = t.fake.add_app_emoji("server_logo")  # the operator's own: never touched
        mine = t.fake.add_app_emoji("r7_dimmed")  # no hash: not one of ours either
        stale = t.fake.add_app_emoji("r7_dimmed_0badc0de")  # a dimmed picture of older art
        old_r7 = emoji_id(t, "r7", "ru")
        before = set(t.fake.app_emojis) - {int(stale["id"])}
        posts = len(t.fake.calls_to("/emojis", "POST"))
        redrawn = dict(card_pictures())
        redrawn[("r7", "ru", False)] = emoji_png(Card.parse("r7"), dimmed=True, lang="ru")
        monkeypatch.setattr(emoji_module, "card_pictures", lambda: redrawn)
        await t.restart()
        await emoji_ready(t)
        (new,) = set(t.fake.app_emojis) - before
        assert t.fake.app_emojis[new]["name"] == emoji_name(
            Card.parse("r7"), redrawn[("r7", "ru", False)]
        )
        assert old_r7 not in t.fake.app_emojis and before - set(t.fake.app_emojis) == {old_r7}
        assert int(own["id"]) in t.fake.app_emojis and int(mine["id"]) in t.fake.app_emojis
        assert int(stale["id"]) not in t.fake.app_emojis
        assert len(t.fake.calls_to("/emojis", "POST")) == posts + 1
        assert len(t.fake.calls_to("/emojis", "DELETE")) == 2
        # The Ukrainian red 7 was a picture of its own: still there, still used.
        assert t.fake.app_emoji(emoji_name(Card.parse("r7"), card_pictures()[("r7", "uk", False)]))
        anya, borya, vika, _ = t.users
        await t.started(anya, borya, vika)
        await t.install(t.position({anya: "r7 r5", borya: "b5 r2 y2", vika: "g9 g8 g7"}))
        button = hand_button(await t.my_cards(anya), "play r7")
        assert button is not None and int(button["emoji"]["id"]) == new
        t.assert_clean()


async def test_two_processes_uploading_at_once_share_the_emoji(fake_world: Any) -> None:
    """Two processes of the bot start together: both find nothing, both upload; a name the
    other took first is adopted from a fresh list, not a reason to give up."""
    fake, clients = fake_world
    first, second = (CardEmoji(client) for client in clients)
    assert await first.load() and await second.load()
    await asyncio.gather(first.upload(), second.upload())
    names = wanted_names()
    # Both began with the same name: one of them was refused it, and went on.
    assert [c.status for c in fake.calls_to("/emojis", "POST")].count(400) >= 1
    assert sorted(e["name"] for e in fake.app_emojis.values()) == sorted(names)
    assert first.count == second.count == len(names)
    for text, lang, dimmed in card_pictures():
        card = Card.parse(text)
        mine, theirs = first.emoji(card, lang, dimmed), second.emoji(card, lang, dimmed)
        assert mine == theirs is not None
