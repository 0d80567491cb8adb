"""Switches flipped by the service: each flip reads and writes under one lock, so concurrent
presses are as many flips (two presses end where they started), never one lost."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.service import Service
from bot.service.chat_settings import SWITCHES, ChatSettings
from bot.storage import Storage
from core.rules import Scoring
from tests.service.conftest import ALICE, BORIS
from tests.service.test_service import CHAT


@pytest.fixture
def slow_reads(storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every settings read takes a while: concurrent flips overlap unless something orders them."""
    real = storage.get_settings

    async def slow(key: str) -> dict[str, Any] | None:
        data = await real(key)
        await asyncio.sleep(0.02)
        return data

    monkeypatch.setattr(storage, "get_settings", slow)


def _state(settings: ChatSettings) -> tuple[Any, ...]:
    return (settings.rules(), settings.colorblind, settings.dm_hands, settings.strong_bots)


@pytest.mark.parametrize("switch", SWITCHES)
def test_toggled_flips_one_switch_and_back(switch: str) -> None:
    house = ChatSettings(preset="house")
    once = house.toggled(switch)
    assert _state(once) != _state(house)
    assert once.toggled(switch) == house  # back to the preset, with no override left


def test_toggled_refuses_what_is_not_a_switch() -> None:
    for key in ("timer", "preset", "lang", "target", "nonsense"):
        with pytest.raises(ValueError):
            ChatSettings().toggled(key)


@pytest.mark.usefixtures("slow_reads")
@pytest.mark.parametrize("presses", [2, 3])
async def test_concurrent_toggles_are_all_applied(service: Service, presses: int) -> None:
    before = await service.settings.settings(CHAT)
    outs = await asyncio.gather(
        *(service.settings.toggle_setting(CHAT, ALICE, "scoring") for _ in range(presses))
    )
    assert all(out.ok for out in outs)
    # Each outcome carries what its own flip produced: tally, winner, tally, ...
    seen = [out.settings.rules().scoring for out in outs if out.settings is not None]
    assert len(seen) == presses and seen.count(Scoring.TALLY) == (presses + 1) // 2
    after = (await service.settings.settings(CHAT)).rules().scoring
    expected = before.rules().scoring if presses % 2 == 0 else Scoring.TALLY
    assert after is expected


async def test_toggle_is_refused_like_any_change(service: Service) -> None:
    assert (await service.lobby.new_game(CHAT, ALICE)).ok
    refused = await service.settings.toggle_setting(CHAT, BORIS, "jump_in")
    assert refused.error is not None and refused.error.key == "error-not-allowed"
    assert (await service.settings.toggle_setting(CHAT, BORIS, "jump_in", is_admin=True)).ok
    bad = await service.settings.toggle_setting(CHAT, ALICE, "timer")
    assert bad.error is not None and bad.error.key == "error-bad-setting"
    assert (await service.settings.settings(CHAT)).rules().jump_in


@pytest.mark.usefixtures("slow_reads")
async def test_concurrent_personal_toggles_are_all_applied(service: Service) -> None:
    values = await asyncio.gather(
        service.settings.toggle_personal("dc:7", "dm_hands", default=False),
        service.settings.toggle_personal("dc:7", "dm_hands", default=False),
    )
    assert sorted(values) == [False, True]
    assert (await service.settings.personal("dc:7"))["dm_hands"] is False
    # The default counts only until the person chose.
    assert await service.settings.toggle_personal("dc:8", "dm_hands", default=True) is False
    assert await service.settings.toggle_personal("dc:8", "dm_hands", default=False) is True
