"""Settings are read from the storage at most once per chat until this process changes them."""

from __future__ import annotations

from typing import Any

import pytest

from bot.service import Service
from bot.storage import Storage
from tests.service.conftest import ALICE, BORIS, FakeClock
from tests.service.test_service import CHAT, started


@pytest.fixture
def reads(storage: Storage, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    seen: list[str] = []
    real = storage.get_settings

    async def counted(key: str) -> Any:
        seen.append(key)
        return await real(key)

    monkeypatch.setattr(storage, "get_settings", counted)
    return seen


async def test_moves_read_no_settings_once_the_chat_is_known(
    storage: Storage, clock: FakeClock, reads: list[str]
) -> None:
    service = Service(storage, clock=clock, seed=lambda: 7)
    await started(service, ALICE, BORIS)
    # The chat's settings, once, when it opened its first game; each player's own switches,
    # once, when their hand was dealt (the outcome carries them: `bot.service.in_force`).
    known = [CHAT, *sorted(f"user:tg:{user.id}" for user in (ALICE, BORIS))]
    assert [reads[0], *sorted(reads[1:])] == known
    for _ in range(10):
        table = (await service.queries.table(CHAT)).table
        assert table is not None and table.current is not None
        user = ALICE if table.current == ALICE.id else BORIS
        hand = (await service.queries.hand(user, chat_key=CHAT)).hands[user.id]
        assert await service.settings.lang(CHAT) == "ru"
        assert (await service.settings.settings(CHAT)).timer == 90
        choice = hand.choices[0]
        action = choice.colors[0] if choice.colors else choice.action
        assert (await service.play.act(user, action, chat_key=CHAT, version=hand.version)).ok
    assert [reads[0], *sorted(reads[1:])] == known


async def test_a_change_is_seen_at_once_and_survives_a_restart(
    service: Service, storage: Storage, clock: FakeClock
) -> None:
    await started(service, ALICE, BORIS)
    assert (await service.settings.change_setting(CHAT, ALICE, "timer", "30")).ok
    assert (await service.settings.settings(CHAT)).timer == 30
    assert (await service.settings.toggle_setting(CHAT, ALICE, "colorblind")).ok
    assert (await service.settings.settings(CHAT)).colorblind
    again = Service(storage, clock=clock)
    assert (await again.settings.settings(CHAT)).timer == 30 and (
        await again.settings.settings(CHAT)
    ).colorblind


async def test_personal_switches_are_cached_too(service: Service, reads: list[str]) -> None:
    assert await service.settings.toggle_personal("tg:1", "dm_hands", default=False) is True
    assert await service.settings.toggle_personal("tg:1", "dm_hands", default=False) is False
    assert await service.settings.personal("tg:1") == {"dm_hands": False}
    assert reads == ["user:tg:1"]
