"""Components no DynamicItem takes (forged, or from a layout long gone) against the fake Discord.

discord.py leaves such an interaction unanswered, and the user would see "This interaction
failed". The bot answers it privately, in the channel's language (a DM: the person's own), and
changes nothing: no game, no table, no public message. The buttons it does know are still
answered exactly once.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.discord import layout
from bot.discord.items import is_ours, table_id
from tests.adapters.storage_calls import counting
from tests.discord.fake_discord import (
    FakeUser,
    InteractionHandle,
    StoredMessage,
    walk_components,
)
from tests.discord.test_discord_bot import (
    RENDERER,
    Table,
    hand_keys,
    hand_version,
    table_factory,
    versions_now,
)

JSON = dict[str, Any]
# Ids of no kind, and ids of a kind whose fields do not parse: a word for a number, an id of
# 2**63 or more (past the storage's INTEGER), a negative one, an empty act, a legacy prefix.
FORGED_BUTTONS = (
    "uno:zzz",
    "garbage",
    "uno:t:abc",
    "t:abc",
    "l:1:explode",
    "h:1:2:",
    "r:",
    f"h:{2**63}:0:draw",
    f"t:{2**63}",
    f"l:{2**64}:join",
    f"r:{10**30}",
    "r:-1",
    "h:1:-2:draw",
    "hm:1:2:100",
)


@pytest.fixture
def make_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[..., Any]:
    return table_factory(tmp_path, monkeypatch)


def forged(message: StoredMessage, custom_id: str, *, kind: int = 2) -> JSON:
    """The message as a client would send it, its first component of `kind` renamed."""
    data = copy.deepcopy(message.data)
    component = next(c for c in walk_components(data["components"]) if c.get("type") == kind)
    component["custom_id"] = custom_id
    return data


def stale_text(t: Table, lang: str) -> str:
    """The answer as the user reads it: `/new` under its name in that language."""
    return t.bot.texts.t(lang, "dc-stale-component")


async def state(t: Table) -> tuple[Any, ...]:
    """Everything a refused press must leave as it was."""
    rec = await t.storage.active_game(t.chat)
    assert rec is not None
    public = [m.id for m in t.fake.channel_messages(t.world.channel)]
    return rec.version, rec.state, rec.meta, await t.service.settings.settings(t.chat), public


def callbacks(handle: InteractionHandle) -> int:
    return len([c for c in handle.calls if c.path.endswith("/callback")])


def test_each_kind_of_key_is_taken_by_its_item_and_nothing_else_is() -> None:
    """An item takes every id of its kind (it answers the ones that do not parse); ids of no
    kind are the listener's."""
    assert is_ours(table_id(7)) and is_ours("h:1:2:play r7") and is_ours("s:lang")
    assert is_ours(f"h:{2**63}:0:draw") and is_ours("t:abc")
    assert is_ours("uno:t:1") and is_ours("uno:zzz")  # the ids of before the shared grammar
    for custom_id in ("garbage", "xt:1", "", "t:1\n", "UNO:t:1"):
        assert not is_ours(custom_id), custom_id


@pytest.mark.parametrize(("locale", "lang"), [("ru", "ru"), ("uk", "uk")])
async def test_forged_components_get_a_private_answer_and_change_nothing(
    make_table: Callable[..., Any], locale: str, lang: str
) -> None:
    async with make_table(locale=locale) as t:
        anya, borya, vika, gleb = t.users
        table = await t.started(anya, borya, vika)
        hand = await t.my_cards(anya)
        panel = (await t.slash(borya, "settings")).original
        assert panel is not None
        before, seen = await state(t), versions_now(t.fake)
        expected = stale_text(t, lang)
        assert "/" + RENDERER.i18n.command_name(lang, "new") in expected
        assert RENDERER.t(lang, "btn-my-cards") in expected
        presses: list[tuple[FakeUser, StoredMessage, str]] = [
            (user, message, custom_id)
            for custom_id in FORGED_BUTTONS
            for user, message in ((gleb, table), (anya, hand))
        ]
        for user, message, custom_id in presses:
            snapshot = forged(message, custom_id)
            handle = await t.click(user, message, custom_id, snapshot=snapshot, forge=True)
            assert handle.callback_type == 4 and callbacks(handle) == 1, handle
            reply = handle.original
            assert reply is not None and reply.is_ephemeral and reply.ephemeral_to == user.id
            assert reply.text == expected
            assert reply.components() == []
        # A select menu of the /settings panel with an id of no menu the bot has.
        snapshot = forged(panel, "s:nope", kind=3)
        options = next(c for c in walk_components(snapshot["components"]) if c["type"] == 3)
        choice = options["options"][0]["value"]
        handle = await t.fake.select(
            t.bot, borya, panel, "s:nope", [choice], snapshot=snapshot, forge=True
        )
        assert handle.ephemeral and handle.text == expected
        assert await state(t) == before
        # Nothing the bot had sent before was edited: the table, the hand, the panel.
        assert {m: n for m, n in versions_now(t.fake).items() if m in seen} == seen
        t.assert_clean()


async def test_the_bots_own_buttons_are_answered_once(make_table: Callable[..., Any]) -> None:
    """The listener sees every interaction: the ones a DynamicItem takes it leaves alone."""
    async with make_table() as t:
        anya, borya, *_ = t.users
        await t.started(anya, borya)
        table = await t.table_message()
        handle = await t.click(borya, table, table_id(1))
        assert callbacks(handle) == 1
        assert handle.original is not None and handle.original.is_ephemeral
        assert stale_text(t, "ru") not in handle.text
        # Slash commands pass by the listener too.
        rules = await t.slash(borya, "rules")
        assert callbacks(rules) == 1 and stale_text(t, "ru") not in rules.text
        assert not [c for c in t.fake.calls if c.status == 400]
        t.assert_clean()


async def test_a_forged_component_in_a_dm_answers_in_the_persons_language(
    make_table: Callable[..., Any],
) -> None:
    """A DM has no channel setting: the answer follows the person's own Discord language."""
    async with make_table(locale="ru") as t:
        anya = t.users[0]
        t.fake.users[anya.id].locale = "uk"
        dm = await t.bot.create_dm(discord.Object(anya.id))
        view = layout.rematch_view(1, "ru", RENDERER)
        assert view is not None
        sent = await dm.send("-", view=view)
        message = t.fake.message(sent.id)
        assert message.is_dm
        old = "uno:old-layout:1"
        handle = await t.click(anya, message, old, snapshot=forged(message, old), forge=True)
        assert handle.original is not None and handle.original.is_ephemeral
        assert handle.text == stale_text(t, "uk")
        assert await t.storage.active_game(t.chat) is None
        t.assert_clean()


async def test_mangled_keys_of_a_current_hand_are_refused_in_it(
    make_table: Callable[..., Any],
) -> None:
    """Ids a DynamicItem takes but whose key means nothing: the hand, refreshed, says why."""
    async with make_table() as t:
        anya, borya, *_ = t.users
        await t.started(anya, borya)
        hand = await t.my_cards(anya)
        version = hand_version(hand)
        before = await state(t)
        for key, notice in (("pick play zzz", "error-stale"), ("pick play wild4", "error-stale"),
                            ("zzz", "error-bad-action")):  # fmt: skip
            custom_id = f"h:1:{version}:{key}"
            assert is_ours(custom_id)
            handle = await t.click(
                anya, hand, custom_id, snapshot=forged(hand, custom_id), forge=True
            )
            assert handle.original_id == hand.id and callbacks(handle) == 1
            assert RENDERER.t("ru", notice) in hand.text, key
            assert hand_version(hand) == version
        assert await state(t) == before
        t.assert_clean()


async def test_ids_at_the_limit_reach_the_service_and_beyond_it_do_not(
    make_table: Callable[..., Any],
) -> None:
    """2**63 - 1 is an id the storage holds (no such game: the button is stale); 2**63 and more
    are forged, answered as stale before anything reaches the storage."""
    async with make_table() as t:
        anya, borya, *_ = t.users
        await t.started(anya, borya)
        hand = await t.my_cards(anya)
        before = await state(t)
        at_limit, beyond = f"h:{2**63 - 1}:0:draw", f"h:{2**63}:0:draw"
        with counting(t.storage) as calls:
            handle = await t.click(
                anya, hand, at_limit, snapshot=forged(hand, at_limit), forge=True
            )
            assert handle.text == stale_text(t, "ru")  # no such game: a stale button
            for custom_id in (beyond, f"t:{2**63}", f"l:{2**64}:join", f"r:{10**30}"):
                handle = await t.click(
                    anya, hand, custom_id, snapshot=forged(hand, custom_id), forge=True
                )
                assert handle.text == stale_text(t, "ru"), custom_id
        assert max(calls.ints()) == 2**63 - 1
        assert await state(t) == before
        t.assert_clean()


async def test_the_components_of_before_the_shared_grammar_keep_working(
    make_table: Callable[..., Any],
) -> None:
    """A table sent before the upgrade (`uno:t:<game>`) still opens the hand; an old hand's
    menu key is refused with a fresh hand, nothing else."""
    async with make_table() as t:
        anya, borya, *_ = t.users
        await t.started(anya, borya)
        table = await t.table_message()
        mover = anya if (await t.game()).current_player == t.uid(anya) else borya
        old = "uno:t:1"
        handle = await t.click(mover, table, old, snapshot=forged(table, old), forge=True)
        assert handle.original is not None and handle.original.is_ephemeral
        assert stale_text(t, "ru") not in handle.text
        assert "draw" in hand_keys(handle.original)
        before = await state(t)
        hand = handle.original
        version = hand_version(hand)
        legacy = f"uno:h:1:{version}:wild:wild4"
        handle = await t.click(mover, hand, legacy, snapshot=forged(hand, legacy), forge=True)
        assert handle.original_id == hand.id
        assert await state(t) == before
        t.assert_clean()


async def test_a_hand_button_replayed_on_the_table_is_refused(
    make_table: Callable[..., Any],
) -> None:
    """A modified client sends a player's valid hand button from the public table: it would
    put that hand on the table for everyone. Hand actions come only from the player's own
    ephemeral or DM message; this one is answered privately and changes nothing."""
    async with make_table() as t:
        anya, borya, *_ = t.users
        await t.started(anya, borya)
        mover = anya if (await t.game()).current_player == t.uid(anya) else borya
        hand = await t.my_cards(mover)
        table = await t.table_message()
        shown, edits = table.text, len(table.versions)
        before = await state(t)
        for key in hand_keys(hand):
            custom_id = f"h:1:{hand_version(hand)}:{key}"
            handle = await t.click(
                mover, table, custom_id, snapshot=forged(table, custom_id), forge=True
            )
            assert handle.original is not None and handle.original.is_ephemeral
            assert handle.text == stale_text(t, "ru")
            assert table.text == shown and len(table.versions) == edits
        assert await state(t) == before
        t.assert_clean()
