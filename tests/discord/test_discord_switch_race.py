"""Two quick presses of one /settings switch are two flips, not one.

Reads of the settings are slowed down so that both presses are in flight at once: a handler that
read the value outside the service's lock and then wrote its opposite would see the same value
twice and flip it only once.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.discord.test_discord_bot import Table, table_factory

SLOW_READ = 0.05  # seconds added to every settings read


@pytest.fixture
def make_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[..., Any]:
    return table_factory(tmp_path, monkeypatch)


def slow_settings_reads(t: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    real = t.storage.get_settings

    async def slow(key: str) -> dict[str, Any] | None:
        data = await real(key)
        await asyncio.sleep(SLOW_READ)
        return data

    monkeypatch.setattr(t.storage, "get_settings", slow)


async def press_twice_at_once(t: Table, switch: str) -> None:
    anya = t.users[0]
    panel = (await t.slash(anya, "settings")).original
    assert panel is not None
    await asyncio.gather(
        t.select(anya, panel, "s:toggle", switch),
        t.select(anya, panel, "s:toggle", switch),
    )


@pytest.mark.parametrize("switch", ["jump_in", "scoring", "colorblind", "creepers"])
async def test_two_concurrent_flips_of_a_chat_switch_cancel_out(
    make_table: Callable[..., Any], monkeypatch: pytest.MonkeyPatch, switch: str
) -> None:
    async with make_table() as t:
        before = await t.service.settings.settings(t.chat)
        slow_settings_reads(t, monkeypatch)
        await press_twice_at_once(t, switch)
        after = await t.service.settings.settings(t.chat)
        assert after.rules() == before.rules() and after.colorblind == before.colorblind
        # And one press alone still flips it.
        panel = (await t.slash(t.users[0], "settings")).original
        assert panel is not None
        await t.select(t.users[0], panel, "s:toggle", switch)
        flipped = await t.service.settings.settings(t.chat)
        assert (flipped.rules(), flipped.colorblind) != (before.rules(), before.colorblind)
        t.assert_clean()


async def test_two_concurrent_flips_of_cards_by_dm_cancel_out(
    make_table: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    async with make_table() as t:
        key = f"dc:{t.uid(t.users[0])}"
        slow_settings_reads(t, monkeypatch)
        await press_twice_at_once(t, "dm_hands")
        assert (await t.service.settings.personal(key))["dm_hands"] is False
        t.assert_clean()
