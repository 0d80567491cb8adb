"""Whose turn it is, on Discord: nobody is left with a dead hand, and who asks is notified.

An ephemeral hand can be edited only with its interaction's token, which dies after 15 minutes
and is not kept across a restart. When a turn begins and the player's hand cannot be brought up
to date, the channel gets a short message naming them with the "my cards" button (a ping only
if they asked for it: `turn_ping`, their own switch in /settings); it is deleted when their turn
ends. With hands by DM, a turn that begins re-sends the DM when they asked to be notified.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.adapters.busy import refuse_first
from tests.discord.fake_discord import FakeUser, StoredMessage
from tests.discord.test_discord_bot import RENDERER, Table, hand_keys, table_factory


@pytest.fixture
def make_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[..., Any]:
    return table_factory(tmp_path, monkeypatch)


def prompts(t: Table, user: FakeUser) -> list[StoredMessage]:
    """The channel's live messages that name `user` and offer "my cards"."""
    label = RENDERER.t(t.lang, "btn-my-cards")
    return [
        m
        for m in t.fake.channel_messages(t.world.channel)
        if not m.deleted and user.mention in m.content and m.find(label=label) is not None
    ]


def pinged(t: Table, user: FakeUser) -> list[int]:
    return [mid for mid, uid in t.fake.pings if uid == user.id]


async def switch_ping(t: Table, user: FakeUser) -> str:
    """Flip the member's "mention me when my turn begins"; its state as the panel says."""
    panel = (await t.slash(user, "settings")).original
    assert panel is not None and panel.is_ephemeral
    await t.select(user, panel, "s:toggle", "turn_ping")
    toggles = panel.find(custom_id="s:toggle")
    assert toggles is not None
    (option,) = [o for o in toggles["options"] if o["value"] == "turn_ping"]
    return str(option["description"])


async def test_restart_with_an_ephemeral_hand_older_than_15_minutes(
    make_table: Callable[..., Any],
) -> None:
    async with make_table() as t:
        anya, borya, vika, _ = t.users
        await t.started(anya, borya, vika)
        await t.install(
            t.position({borya: "b5 r2 y2", anya: "r5 r7 g2", vika: "g9 g8 g7"}, current=None)
        )
        anya_hand = await t.my_cards(anya)
        opened = t.handles[-1]
        borya_hand = await t.my_cards(borya)
        shown = anya_hand.text
        t.fake.advance(16 * 60)  # both tokens are dead (50027)
        await t.restart()
        await t.press(borya, borya_hand, "play r2")  # his old buttons still play
        assert (await t.game()).current_player == t.uid(anya)
        # Her ephemeral cannot be edited: it is left alone, and the channel names her with
        # "my cards", without a ping (she did not ask for one).
        assert [c for c in opened.calls if c.method == "PATCH"] == []
        assert anya_hand.text == shown
        (prompt,) = prompts(t, anya)
        assert pinged(t, anya) == [] and prompts(t, borya) == prompts(t, vika) == []
        handle = await t.click(anya, prompt, label=RENDERER.t(t.lang, "btn-my-cards"))
        fresh = handle.original
        assert fresh is not None and fresh.is_ephemeral and fresh.ephemeral_to == anya.id
        assert "play r5" in hand_keys(fresh)
        await t.press(anya, fresh, "play r5")
        assert (await t.game()).current_player == t.uid(vika)
        assert prompt.deleted  # her turn is over: the prompt is gone
        t.assert_clean()


async def test_a_turn_pings_who_asked_and_only_them(make_table: Callable[..., Any]) -> None:
    async with make_table() as t:
        anya, borya, vika, _ = t.users
        on = RENDERER.t("ru", "dc-opt-state", value=RENDERER.t("ru", "value-on"))
        off = RENDERER.t("ru", "dc-opt-state", value=RENDERER.t("ru", "value-off"))
        assert await switch_ping(t, anya) == on
        await t.started(anya, borya, vika)
        await t.install(
            t.position(
                {borya: "b5 r2 y2 y9", anya: "r5 r7 g2 g3", vika: "r9 g8 g7 g6"}, current=None
            )
        )
        hands = {user: await t.my_cards(user) for user in (anya, borya, vika)}  # all live
        await t.press(borya, hands[borya], "play r2")
        # Anya's turn begins: she asked, so a channel message pings her; nobody else.
        (prompt,) = prompts(t, anya)
        assert pinged(t, anya) == [prompt.id]
        assert pinged(t, borya) == pinged(t, vika) == []
        assert "play r5" in hand_keys(hands[anya])  # her live hand was updated as well
        await t.press(anya, hands[anya], "play r5")
        assert prompt.deleted  # deleted when her turn ended
        # Vika's turn: she did not ask and her hand is live: nothing in the channel.
        assert prompts(t, vika) == [] and pinged(t, vika) == []
        await t.press(vika, hands[vika], "play r9")
        # Switched off: Anya's next turn (live hand) brings no message at all.
        assert await switch_ping(t, anya) == off
        await t.press(borya, hands[borya], "play y9")
        assert (await t.game()).current_player == t.uid(anya)
        assert prompts(t, anya) == [] and pinged(t, anya) == [prompt.id]
        t.assert_clean()


async def test_by_dm_a_turn_that_begins_is_a_new_dm_for_who_asked(
    make_table: Callable[..., Any],
) -> None:
    async with make_table() as t:
        anya, borya, vika, _ = t.users
        for user in (anya, borya):
            panel = (await t.slash(user, "settings")).original
            assert panel is not None
            await t.select(user, panel, "s:toggle", "dm_hands")
        await switch_ping(t, anya)
        await t.started(anya, borya, vika)
        await t.install(
            t.position({borya: "b5 r2 y2", anya: "r5 r7 g2", vika: "g9 g8 g7"}, current=None)
        )
        table = await t.table_message()
        for user in (anya, borya):  # their DMs show the installed position
            await t.click(user, table, label=RENDERER.t(t.lang, "btn-my-cards"))
        (borya_dm,) = [m for m in t.fake.dm_messages(borya) if not m.deleted]
        before = [m for m in t.fake.dm_messages(anya) if not m.deleted]
        await t.press(borya, borya_dm, "play r2")
        # Anya's turn: her old DM is replaced by a new one (a DM notifies; an edit would not).
        (now,) = [m for m in t.fake.dm_messages(anya) if not m.deleted]
        assert now not in before and "play r5" in hand_keys(now)
        # Borya did not ask: his DM is edited in place, and the channel names nobody.
        assert [m for m in t.fake.dm_messages(borya) if not m.deleted] == [borya_dm]
        assert prompts(t, anya) == prompts(t, borya) == []
        t.assert_clean()


@pytest.mark.parametrize("refused", [(), ("table",), ("hand",)])
async def test_on_start_every_open_game_is_shown_again(
    make_table: Callable[..., Any], monkeypatch: pytest.MonkeyPatch, refused: tuple[str, ...]
) -> None:
    """The stored state moved on while no bot ran (here: installed behind its back); the
    restarted bot edits the table and tells whoever's turn it is, before anyone presses. Also
    when its first read of the game's table, or of the hand, is refused as busy (the process
    too loaded to run it in time): it is made again, not taken for "no game" or "no hand"."""
    async with make_table() as t:
        anya, borya, vika, _ = t.users
        panel = (await t.slash(borya, "settings")).original
        assert panel is not None
        await t.select(borya, panel, "s:toggle", "dm_hands")
        table = await t.started(anya, borya, vika)
        table_click = RENDERER.t(t.lang, "btn-my-cards")
        await t.click(borya, table, label=table_click)  # his DM hand
        (borya_dm,) = [m for m in t.fake.dm_messages(borya) if not m.deleted]
        await t.shutdown_for_restart()
        await t.install(
            t.position({borya: "b5 r2 y2", anya: "r5 r7 g2", vika: "g9 g8 g7"}, current=None)
        )
        turn = RENDERER.t(t.lang, "table-turn", name="Боря")
        assert turn not in table.content
        edits = len(table.versions)
        refusals = refuse_first(monkeypatch, **dict.fromkeys(refused, 1))
        await t.boot_after_restart()
        assert refusals == list(refused)
        assert len(table.versions) > edits and turn in table.content  # re-edited, current
        # Borya's turn, his hand by DM: the DM shows the stored hand, buttons and all.
        assert "play r2" in hand_keys(borya_dm)
        await t.press(borya, borya_dm, "play r2")
        # Anya's turn next: no ephemeral of hers is live, so the channel names her.
        assert len(prompts(t, anya)) == 1
        assert (await t.game()).current_player == t.uid(anya)
        t.assert_clean()
