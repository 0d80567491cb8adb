"""What one move made with a hand button costs the storage, end to end through the fake Discord:
at most one settings read (the service's, for the move itself; the adapter takes the language
from the service's answer and decides once per game where each hand goes) and no refs read (the
table's and the DMs' message ids are read once per game)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.adapters.settings_reads import settings_reads
from tests.adapters.storage_calls import counting
from tests.discord.test_discord_bot import RENDERER, table_factory


@pytest.fixture
def make_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[..., Any]:
    return table_factory(tmp_path, monkeypatch)


@pytest.mark.parametrize("dm_hands", [False, True])
async def test_a_hand_button_move_reads_the_settings_at_most_once(
    make_table: Callable[..., Any], dm_hands: bool
) -> None:
    async with make_table() as t:
        _, borya, vika, _ = t.users
        hands = await _first_move(t, dm_hands)
        with counting(t.storage) as calls:
            handle = await t.press(borya, hands[borya], "play r3")
            await t.fake.settle()
        assert handle.callback_type == 7
        assert (await t.game()).current_player == str(vika.id)  # the move was made
        print(f"discord (dm_hands={dm_hands}), one hand-button move:", dict(calls.counts))
        assert calls.counts["commit"] == 1
        assert calls.settings_reads <= 1
        assert calls.refs_reads == 0
        t.assert_clean()


@pytest.mark.parametrize("dm_hands", [False, True])
async def test_a_hand_button_move_is_published_with_the_settings_it_carries(
    make_table: Callable[..., Any], dm_hands: bool
) -> None:
    """The service reads the changed hands' switches once; the publisher, deciding where each
    hand goes and whom to ping, asks the service for none of them again."""
    async with make_table() as t:
        _, borya, vika, _ = t.users
        hands = await _first_move(t, dm_hands)
        with settings_reads(t.service) as reads:
            await t.press(borya, hands[borya], "play r3")
            await t.fake.settle()
        assert (await t.game()).current_player == str(vika.id)
        print(f"discord (dm_hands={dm_hands}), one move's settings reads:", dict(reads))
        assert reads["service.personal"] >= 2  # borya's and vika's hands
        assert reads["adapter.settings"] == 0 and reads["adapter.personal"] == 0
        t.assert_clean()


async def _first_move(t: Any, dm_hands: bool) -> dict[Any, Any]:
    """A dealt game of three, its hands shown (by DM, each player's own choice, or as
    ephemerals), and its first move made (not counted): each player's hand message."""
    anya, borya, vika, _ = t.users
    players = (anya, borya, vika)
    if dm_hands:
        for user in players:
            panel = (await t.slash(user, "settings")).original
            assert panel is not None
            await t.select(user, panel, "s:toggle", "dm_hands")
    await t.started(*players)
    await t.install(t.position({anya: "r5 r7 g2", borya: "r3 y1 y2", vika: "r4 b1 b2"}))
    if dm_hands:
        table = await t.table_message()
        for user in players:
            await t.click(user, table, label=RENDERER.t("ru", "btn-my-cards"))
        hands = {u: t.fake.dm_messages(u)[0] for u in players}
    else:
        hands = {u: await t.my_cards(u) for u in players}
    await t.press(anya, hands[anya], "play r5")
    await t.fake.settle()
    return hands
