"""Defects an independent run found on Discord: an old game's hand in a new game, a double
click, long names at a full table."""

from __future__ import annotations

import asyncio
import dataclasses
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import discord
import pytest

from core.game import Game
from core.rules import Rules
from tests.discord.test_discord_bot import (
    RENDERER,
    SLOW_WORK,
    hand_button,
    hand_keys,
    table_factory,
)


@pytest.fixture
def make_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[..., Any]:
    return table_factory(tmp_path, monkeypatch)


async def test_an_old_games_hand_while_a_new_game_runs_is_stale(
    make_table: Callable[..., Any],
) -> None:
    async with make_table() as t:
        anya, borya, *_ = t.users
        await t.started(anya, borya)
        old_hand = await t.my_cards(anya)
        keys = hand_keys(old_hand)
        await t.slash(anya, "kill")
        await t.started(anya, borya)  # game 2 in the same channel
        before = await t.version()
        button = hand_button(old_hand, keys[0])
        assert button is not None
        handle = await t.click(anya, old_hand, button["custom_id"])
        no_game = RENDERER.t("ru", "error-no-game").split("\n")[0][:20]
        assert no_game not in handle.text
        assert t.bot.texts.t("ru", "dc-stale-component") in handle.text
        assert await t.version() == before
        t.assert_clean()


async def test_a_double_click_is_one_move_and_no_stale_notice(
    make_table: Callable[..., Any],
) -> None:
    async with make_table() as t:
        anya, borya, vika, _ = t.users
        await t.started(anya, borya, vika)
        await t.install(
            t.position({anya: "r5 r7 g2", borya: "b5 r2 y2", vika: "g9 g8 g7"}, current=None)
        )
        hand = await t.my_cards(anya)
        before = await t.version()
        button = hand_button(hand, "play r7")
        assert button is not None
        first, second = await asyncio.gather(
            t.fake.click(t.bot, anya, hand, button["custom_id"]),
            t.fake.click(t.bot, anya, hand, button["custom_id"]),
        )
        assert first.answered and second.answered
        game = await t.game()
        assert game.top_card.text == "r7" and len(game.hands[t.uid(anya)]) == 2
        assert await t.version() == before + 1  # one move
        stale = RENDERER.t("ru", "error-stale")
        assert stale not in hand.text and stale not in second.text
        assert "play r7" not in hand_keys(hand)
        t.assert_clean()


@pytest.mark.parametrize("switch", ["dm_hands", "turn_ping"])
async def test_a_slow_personal_switch_updates_the_panel_clicked(
    make_table: Callable[..., Any], monkeypatch: pytest.MonkeyPatch, switch: str
) -> None:
    """The flip outlasts `defer_after`: the answer is deferred as an update of the panel, never
    a second panel."""
    async with make_table() as t:
        anya = t.users[0]
        panel = (await t.slash(anya, "settings")).original
        assert panel is not None
        t.slow_past_deferral(monkeypatch, "settings.toggle_personal")
        handle = await t.select(anya, panel, "s:toggle", switch)
        assert handle.callback_type == 6  # deferred as an update
        assert handle.answered_within(SLOW_WORK)
        assert handle.messages == [panel] and handle.followups == []
        on = RENDERER.t("ru", "dc-opt-state", value=RENDERER.t("ru", "value-on"))
        toggles = panel.find(custom_id="s:toggle")
        assert toggles is not None
        (option,) = [o for o in toggles["options"] if o["value"] == switch]
        assert option["description"] == on
        assert len(t.fake.ephemeral_for(anya)) == 1  # one panel
        t.assert_clean()


LONG_NAMES = [f"*{i}*_Игрок_с_очень_длинным_ником_{i}"[:32].ljust(32, "x") for i in range(10)]


async def test_ten_long_names_fit_the_table_and_join_escapes_them(
    make_table: Callable[..., Any],
) -> None:
    async with make_table() as t:
        players = [t.fake.add_user(name, guild=t.world.guild) for name in LONG_NAMES]
        assert all(len(p.name) == 32 for p in players)
        first, second, *rest = players
        table = await t.lobby(first, second)
        for user in rest:
            joined = await t.slash(user, "join")
            # The reply names them with markdown escaped: shown as typed, not in italics.
            assert discord.utils.escape_markdown(user.name) in joined.text
        await t.click(first, table, label=RENDERER.t(t.lang, "btn-start"))
        ids = [t.uid(p) for p in players]
        hands = ["r5"] + ["wild4 wild4 wild wild4 wild"] * 9
        await t.install(
            Game.from_position(
                players=ids,
                hands=dict(zip(ids, hands, strict=True)),
                discard="r1",
                draw="y3 y4 y5 y6 y7 y8",
                rules=dataclasses.replace(Rules.preset("classic"), target=100),
                current=ids[0],
            )
        )
        await t.press(first, await t.my_cards(first), "play r5")
        rec = await t.storage.get_game(1)
        assert rec is not None and rec.status == "finished"
        assert len(table.content) <= 2000 and not table.content.endswith("…")
        # Names are cut, every score is there: the winner's, and the last player's at the end.
        assert LONG_NAMES[0] not in table.content
        tail = table.content.rstrip().split(",")[-1]
        assert "\\*9\\*" in tail and tail.endswith("0 очков"), tail
        t.assert_clean()


@pytest.mark.parametrize("command", ["stats", "rules", "help", "settings"])
async def test_a_read_answers_in_time_while_another_channels_write_hangs(
    make_table: Callable[..., Any], command: str
) -> None:
    """A write holds the storage's writer (blocked until the read was answered); a read-only
    command in another channel answers within Discord's 3 s, a simulated 0.6 s round trip per
    request counted. Had reads queued behind writes, it would wait for the gate and miss it."""
    async with make_table() as t:
        anya = t.users[0]
        await t.slash(anya, "stats")  # the chat is known: later reads need no write
        other = t.fake.add_text_channel(t.world.guild, "uno-2")
        await t.fake.slash(t.bot, anya, "stats", channel=other)
        gate = threading.Event()
        holding = threading.Event()

        def hang(conn: Any) -> None:
            holding.set()
            gate.wait(30)

        write = asyncio.ensure_future(t.storage._write(hang))
        await asyncio.to_thread(holding.wait, 30)
        assert holding.is_set()
        t.fake.latency = 0.6
        try:
            handle = await t.fake.slash(t.bot, anya, command, channel=other)
            assert not write.done()  # the write still hung while the read was answered
            # Answered with its content at once: no deferral ("thinking...") was needed.
            assert handle.callback_type == 4 and not handle.rejected_callbacks
            assert handle.answered_within(3.0), handle.response_time
            assert handle.simulated_delay >= 0.85  # the network was counted
        finally:
            t.fake.latency = 0.0
            gate.set()
            await write
        t.assert_clean()
