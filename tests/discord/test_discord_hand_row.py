"""The hand at a glance, end to end: the real discord.py bot against the fake Discord.

A hand's text shows every card it holds as its card emoji (the playable ones normal, the others
dimmed, in the chat's language), under the text line of the cards, which stays. A long hand
stays within Discord's 2,000 characters, the rest of its cards as text; without emoji the text
is what it always was; and a move makes the same calls with the pictures as without. Every wait
is on an event (the emoji set's `ready`), never on time.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from bot.discord.emoji import card_pictures, emoji_name
from bot.discord.hand_row import GROUP_GAP
from bot.service import User
from core.cards import Card, sort_hand
from tests.discord.fake_discord import Call, StoredMessage, content_emoji
from tests.discord.test_discord_bot import RENDERER, Table
from tests.discord.test_discord_emoji import emoji_id, emoji_ready, make_table

__all__ = ["make_table"]  # the fixture, shared with the emoji tests

LONG_HAND = " ".join(
    ["r2", "r3", "r4", "r5", "r6", "r8", "r9", "rskip", "rrev", "r+2"] * 3
    + ["y2", "y3", "y4", "y5", "y6", "y8", "y9", "yskip", "yrev", "y+2"] * 2
    + ["g2", "g3", "g4", "g5", "g6", "g8", "g9", "gskip", "grev", "g+2"] * 2
    + ["b9", "wild", "wild4"]
)  # 73 cards: more pictures than a message holds


def mention(t: Table, card: str, lang: str, dimmed: bool) -> str:
    emoji = t.fake.app_emojis[emoji_id(t, card, lang, dimmed)]
    return f"<:{emoji['name']}:{emoji['id']}>"


def content(message: StoredMessage) -> str:
    return str(message.data.get("content") or "")


def lines_of(message: StoredMessage) -> list[str]:
    return content(message).split("\n")


def text_line(t: Table, cards: str, colorblind: bool = False) -> str:
    """The hand's text line of `cards`, as the renderer writes it everywhere."""
    return RENDERER.cards(t.lang, sort_hand(Card.parse_many(cards)), colorblind)


async def today_text(t: Table, user: Any) -> str:
    """The hand's text as the renderer writes it (what Discord showed before the pictures)."""
    out = await t.service.queries.hand(User(t.uid(user), user.name), chat_key=t.chat)
    return RENDERER.hand(out.hands[t.uid(user)], out.names)


def assert_own_emoji(t: Table, message: StoredMessage) -> None:
    """Every emoji the text names is one of the application's (a foreign one would show as
    its `:name:`), and none is cut in half."""
    named = content_emoji(content(message))
    assert content(message).count("<:") == len(named)
    assert all(t.fake.app_emojis.get(eid, {}).get("name") == name for name, eid in named)


@pytest.mark.parametrize("locale", ["ru", "uk"])
async def test_the_hand_shows_every_card_playable_ones_bright(
    make_table: Callable[..., Any], locale: str
) -> None:
    async with make_table(locale=locale, card_emoji=True) as t:
        await emoji_ready(t)
        anya, borya, vika, _ = t.users
        # Vika takes her hand by DM: the row is there too.
        await t.service.settings.toggle_personal(f"dc:{t.uid(vika)}", "dm_hands", default=False)
        await t.started(anya, borya, vika)
        cards = "b9 r7 g3 wild4 r5"
        await t.install(t.position({anya: cards, borya: "b5 r2 y2", vika: "g9 r8 g7"}))
        hand = await t.my_cards(anya)
        lang = t.lang

        def pic(card: str, dimmed: bool) -> str:
            return mention(t, card, lang, dimmed)

        # On a red 1: the reds and the Wild Draw Four can be played, green and blue cannot.
        # The hand's order, grouped by color: red, green, blue, then the wild cards.
        title, line, pictures = lines_of(hand)[:3]
        assert line == text_line(t, cards)
        bright = [pic("r5", False) + pic("r7", False), pic("g3", True), pic("b9", True)]
        assert pictures == GROUP_GAP.join([*bright, pic("wild4", False)])
        assert "<:" not in title + line
        assert_own_emoji(t, hand)
        # The red faces carry the language's letter: the other language's emoji are not used.
        other = "uk" if lang == "ru" else "ru"
        assert mention(t, "r7", other, False) not in content(hand)

        await t.press(anya, hand, "play r7")
        # Not her turn any more: nothing can be played, every card dimmed.
        dark = [pic("r5", True), pic("g3", True), pic("b9", True), pic("wild4", True)]
        assert lines_of(hand)[2] == GROUP_GAP.join(dark)
        # Borya plays, Vika's turn: her DM shows her red 8 bright, her greens dimmed.
        await t.press(borya, await t.my_cards(borya), "play r2")
        dm = t.fake.dm_messages(vika)[-1]
        assert text_line(t, "g9 r8 g7") in lines_of(dm)
        (pictures,) = [line for line in lines_of(dm) if "<:" in line]
        assert pictures == GROUP_GAP.join([pic("r8", False), pic("g7", True) + pic("g9", True)])
        assert_own_emoji(t, dm)
        t.assert_clean()


async def test_the_color_blind_text_line_stays_above_the_pictures(
    make_table: Callable[..., Any],
) -> None:
    async with make_table(card_emoji=True) as t:
        await emoji_ready(t)
        anya, borya, vika, _ = t.users
        panel = (await t.slash(anya, "settings")).original
        assert panel is not None
        await t.select(anya, panel, "s:toggle", "colorblind")
        await t.started(anya, borya, vika)
        await t.install(t.position({anya: "r7 g3", borya: "b5 r2 y2", vika: "g9 g8 g7"}))
        hand = await t.my_cards(anya)
        line, pictures = lines_of(hand)[1:3]
        assert line == text_line(t, "r7 g3", colorblind=True) != text_line(t, "r7 g3")
        assert pictures == GROUP_GAP.join(
            [mention(t, "r7", "ru", False), mention(t, "g3", "ru", True)]
        )
        t.assert_clean()


async def test_a_long_hand_fits_its_message(make_table: Callable[..., Any]) -> None:
    async with make_table(card_emoji=True) as t:
        await emoji_ready(t)
        anya, borya, vika, _ = t.users
        await t.started(anya, borya, vika)
        # Twenty-five cards with the longest emoji names (dimmed action cards): all pictures.
        actions = ["yskip", "yrev", "y+2", "gskip", "grev", "g+2", "bskip", "brev", "b+2"]
        cards = " ".join([*actions, *actions, "y8", "y9", "g8", "g9", "b8", "b9", "wild4"])
        await t.install(t.position({anya: cards, borya: "b5 r2 y2", vika: "g9 g8 g7"}))
        hand = await t.my_cards(anya)
        assert len(content(hand)) <= 2000
        assert len(content_emoji(lines_of(hand)[2])) == 25
        assert_own_emoji(t, hand)
        # Seventy-three: as many pictures as fit, the first cards; the rest as their labels.
        await t.install(t.position({anya: LONG_HAND, borya: "b5 r2 y2", vika: "g9 g8 g7"}))
        hand = await t.my_cards(anya)
        assert len(content(hand)) <= 2000
        assert_own_emoji(t, hand)
        line, pictures = lines_of(hand)[1:3]
        assert line == text_line(t, LONG_HAND)
        shown = content_emoji(pictures)
        ordered = [c.text for c in sort_hand(Card.parse_many(LONG_HAND))]
        assert 25 < len(shown) < len(ordered)
        # On a red 1: every red card and both wild cards can be played.
        playable = {c for c in ordered if c.startswith("r") or c.startswith("wild")}
        expected = [emoji_id(t, c, "ru", c not in playable) for c in ordered]
        assert [eid for _, eid in shown] == expected[: len(shown)]
        rest = re.sub(r"<:[^>]+>", "", pictures).split()
        assert " ".join(rest) == " ".join(
            RENDERER.card("ru", Card.parse(c), False) for c in ordered[len(shown) :]
        )
        # A wild's second step writes its question under that hand: it fits as well.
        await t.press(anya, hand, "pick play wild4")
        assert len(content(hand)) <= 2000 and "<:" in content(hand)
        assert content(hand).endswith(
            RENDERER.t(
                "ru", "step-color-title", card=RENDERER.card("ru", Card.parse("wild4"), False)
            )
        )
        t.assert_clean()


async def test_without_emoji_the_text_is_as_before(make_table: Callable[..., Any]) -> None:
    async with make_table() as t:  # no card emoji
        anya, borya, vika, _ = t.users
        await t.started(anya, borya, vika)
        position = t.position({anya: "r7 g3 wild4", borya: "b5 r2 y2", vika: "g9 g8 g7"})
        await t.install(position)
        before = content(await t.my_cards(anya))
        assert before == await today_text(t, anya) and "<:" not in before
        # The same hand with the pictures: one line more, the rest unchanged.
        t.bot_options["card_emoji"] = True
        await t.restart()
        await emoji_ready(t)
        await t.install(position)
        after = lines_of(await t.my_cards(anya))
        assert "<:" in after[2] and "\n".join(after[:2] + after[3:]) == before
        # Emoji refused at the next start: the text as before again.
        t.fake.fail_next("GET /emojis", 403, code=50001, message="Missing Access")
        await t.restart()
        await emoji_ready(t)
        assert t.bot.emoji.count == 0
        await t.install(position)
        assert content(await t.my_cards(anya)) == before
        t.assert_clean()


async def test_a_dimmed_emoji_not_uploaded_is_its_label(make_table: Callable[..., Any]) -> None:
    async with make_table() as t:
        # Room for the normal faces only (they go first): no dimmed card has its picture.
        pictures = card_pictures().items()
        normal = {emoji_name(Card.parse(k[0]), png) for k, png in pictures if not k[2]}
        t.fake.app_emoji_limit = len(normal)
        t.bot_options["card_emoji"] = True
        await t.restart()
        await emoji_ready(t)
        assert not [e for e in t.fake.app_emojis.values() if "_dimmed_" in e["name"]]
        anya, borya, vika, _ = t.users
        await t.started(anya, borya, vika)
        await t.install(t.position({anya: "r7 g3 b9", borya: "b5 r2 y2", vika: "g9 g8 g7"}))
        hand = await t.my_cards(anya)
        label = RENDERER.card("ru", Card.parse("g3"), False)
        blue = RENDERER.card("ru", Card.parse("b9"), False)
        assert lines_of(hand)[2] == GROUP_GAP.join([mention(t, "r7", "ru", False), label, blue])
        t.assert_clean()


def move_calls(calls: list[Call]) -> list[str]:
    """What a move asked of Discord, ids and tokens left out: `PATCH /channels/#/messages/#`."""
    return sorted(f"{c.method} {re.sub(r'[^/]*[0-9][^/]*', '#', c.path)}" for c in calls)


async def one_move(t: Table) -> list[str]:
    """Borya plays a red 2 from his hand, after Anya's move: Anya's hand and the table are
    edited, Vika's hand by DM too (her turn begins). The calls of Borya's move, ids left out."""
    anya, borya, vika, _ = t.users
    await t.install(t.position({anya: "r7 r5 g3", borya: "b5 r2 y2", vika: "g9 r8 g7"}))
    hands = {user: await t.my_cards(user) for user in (anya, borya)}
    await t.press(anya, hands[anya], "play r7")  # Vika's DM exists from here on
    mark = len(t.fake.calls)
    await t.press(borya, hands[borya], "play r2")
    assert (await t.game()).current_player == t.uid(vika)
    return move_calls(t.fake.calls[mark:])


async def test_a_move_makes_the_same_calls_with_the_pictures(
    make_table: Callable[..., Any],
) -> None:
    async with make_table() as t:
        anya, borya, vika, _ = t.users
        await t.service.settings.toggle_personal(f"dc:{t.uid(vika)}", "dm_hands", default=False)
        await t.started(anya, borya, vika)
        plain = await one_move(t)
        t.bot_options["card_emoji"] = True
        await t.restart()
        await emoji_ready(t)
        pictures = await one_move(t)
        assert "<:" in t.fake.dm_messages(vika)[-1].data["content"]
        assert pictures == plain and plain
        print("discord, one hand-button move with card pictures:", pictures)
        assert not [c for c in pictures if "/emojis" in c]
        t.assert_clean()
