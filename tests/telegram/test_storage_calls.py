"""What one move made with a hand button costs the storage, end to end through the fake Bot API:
at most one settings read (the service's, for the move itself) and no refs read (the adapter keeps
the message ids it read once per game). The adapter itself never calls the storage."""

from __future__ import annotations

import pytest

from tests.adapters.settings_reads import settings_reads
from tests.adapters.storage_calls import counting
from tests.telegram.conftest import Harness
from tests.telegram.test_play import position


@pytest.mark.parametrize("harness", [{"players": 3}], indirect=True)
async def test_a_hand_button_move_reads_the_settings_at_most_once(harness: Harness) -> None:
    h = harness
    a, b, c = h.users
    await h.new_game(players=3)
    await h.install(position(h, ["r5 r7 g2", "r3 y1 y2", "r4 b1 b2"]))
    await h.play(a, "r5")  # the first move after the hands were opened: not counted
    await h.settle()
    assert h.storage is not None
    hand, data = await h.hand(b), (await h.acts(b))["play r3"]  # the harness reads refs itself
    with counting(h.storage) as calls:
        answer = await h.press(b, b.id, hand.message_id, data)
        await h.settle()
    assert answer.text is None
    assert (await h.game()).current_player == str(c.id)  # the move was made and shown
    print("telegram, one hand-button move:", dict(calls.counts))
    assert calls.counts["commit"] == 1
    assert calls.settings_reads <= 1
    assert calls.refs_reads == 0


@pytest.mark.parametrize("harness", [{"players": 3}], indirect=True)
async def test_a_hand_button_move_is_published_with_the_settings_it_carries(
    harness: Harness,
) -> None:
    """The service reads the chat's settings and the changed hands' switches once; the adapter,
    publishing the table (its picture setting) and the hands (their pings, their pictures),
    asks the service for none of them again."""
    h = harness
    a, b, c = h.users
    await h.new_game(players=3)
    await h.install(position(h, ["r5 r7 g2", "r3 y1 y2", "r4 b1 b2"]))
    await h.play(a, "r5")
    await h.settle()
    assert h.service is not None
    hand, data = await h.hand(b), (await h.acts(b))["play r3"]
    with settings_reads(h.service) as reads:
        answer = await h.press(b, b.id, hand.message_id, data)
        await h.settle()
    assert answer.text is None
    assert (await h.game()).current_player == str(c.id)
    print("telegram, one hand-button move's settings reads:", dict(reads))
    assert reads["service.chat"] >= 1 and reads["service.personal"] >= 2  # b's and c's hands
    assert reads["adapter.settings"] == 0 and reads["adapter.personal"] == 0
