"""The storage contract of a lobby's creation and its outbox entry (issue 15), on every backend:
the entry is written with the new game or not at all, as a commit writes its own."""

from __future__ import annotations

from typing import Any

import pytest

from bot.storage import GameExists, OutboxEntry, StoragePort

CHAT = "tg:-100123"
LEASE = 30.0
FAR = 1e12  # a time when every claim has run out


async def test_a_created_game_writes_its_entries_claimed_until_its_claim(
    storage: StoragePort,
) -> None:
    payload: dict[str, Any] = {"lang": "uk", "names": {"u1": "Ann"}}
    g = await storage.create_game(CHAT, {"n": 1}, outbox=[payload], claim=500.0)
    assert len(g.outbox) == 1
    assert g == await storage.get_game(g.id)  # the ids are the call's, not the row's
    assert await storage.claim_outbox("tg:", 499.0, LEASE) == []  # still claimed
    [entry] = await storage.claim_outbox("tg:", 500.0, LEASE)
    assert entry == OutboxEntry(g.outbox[0], CHAT, g.id, 0, payload, g.created_at, 0)
    plain = await storage.create_game("tg:-100456", {})
    assert plain.outbox == ()  # no payload, no entry
    assert await storage.claim_outbox("tg:", FAR, LEASE) == [entry]


async def test_a_refused_creation_writes_no_entry(storage: StoragePort) -> None:
    first = await storage.create_game(CHAT, {})
    with pytest.raises(GameExists):
        await storage.create_game(CHAT, {}, outbox=[{"lang": "ru"}], claim=1.0)
    with pytest.raises((ValueError, TypeError)):  # a payload that is not JSON: refused first
        await storage.create_game("tg:-100456", {}, outbox=[{"x": {1, 2}}])
    assert await storage.claim_outbox("", FAR, LEASE) == []
    assert await storage.active_game(CHAT) == first
    assert await storage.active_game("tg:-100456") is None
