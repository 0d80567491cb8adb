"""Hostile users at the Discord edge: an id Discord cannot give (no 64-bit snowflake) is refused
as a stale button and joins nothing; a display name with characters no storage keeps (a lone
surrogate, a NUL) is shown with them replaced. Nothing is logged as an error."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot.service.identity import REPLACEMENT
from tests.discord.fake_discord import FakeUser
from tests.discord.test_discord_bot import RENDERER, Table, table_factory


@pytest.fixture
def make_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[..., Any]:
    return table_factory(tmp_path, monkeypatch)


def member(t: Table, user: FakeUser) -> FakeUser:
    t.fake.users[user.id] = user
    t.world.guild.member_ids.append(user.id)
    return user


@pytest.mark.parametrize("number", [0, 2**64])
async def test_an_id_discord_cannot_give_is_refused_as_a_stale_button(
    make_table: Callable[..., Any], number: int
) -> None:
    async with make_table() as t:
        anya, borya = t.users[:2]
        table = await t.lobby(anya, borya)
        stranger = member(t, FakeUser(number, "Чужой"))
        stale = RENDERER.t("ru", "error-stale")
        by_button = await t.click(stranger, table, label=RENDERER.t("ru", "btn-join"))
        by_command = await t.slash(stranger, "join")
        for answer in (by_button, by_command):
            assert answer.ephemeral and stale in answer.text
        assert "Чужой" not in table.content
        rec = await t.storage.active_game(t.chat)
        assert rec is not None and rec.meta["players"] == [t.uid(anya), t.uid(borya)]
        t.assert_clean()


@pytest.mark.parametrize("name", ["Ан\ud800я", "\udc00", "Бо\x00ря"], ids=["high", "low", "nul"])
async def test_a_name_that_cannot_be_kept_is_shown_with_the_character_replaced(
    make_table: Callable[..., Any], name: str
) -> None:
    async with make_table() as t:
        anya = t.users[0]
        odd = member(t, FakeUser(t.fake.snowflake(), "odd", global_name=name))
        table = await t.lobby(anya, odd)
        shown = "".join(REPLACEMENT if c in "\ud800\udc00\x00" else c for c in name)
        assert shown in table.content
        start = await t.click(anya, table, label=RENDERER.t("ru", "btn-start"))
        assert start.callback_type == 7
        t.assert_clean()
