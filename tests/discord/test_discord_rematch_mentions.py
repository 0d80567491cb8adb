"""A rematch lobby reaches the previous match's people, against the fake Discord: the lobby
names them as `<@id>`, its first message allows exactly them to be pinged (by the button, by
/rematch, and by a /rematch slow enough to be deferred), edits ping nobody, computer players
are never mentioned, and every other message of the bot still pings nobody."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.discord.fake_discord import Call
from tests.discord.test_discord_bot import RENDERER, SLOW_WORK, Table, table_factory
from tests.discord.test_discord_rematch import finish_match

LOCALES = ["ru", "uk"]


@pytest.fixture
def make_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[..., Any]:
    return table_factory(tmp_path, monkeypatch)


def allowed(call: Call) -> dict[str, Any] | None:
    """The `allowed_mentions` a call sent with its message (an interaction answer's included)."""
    body = call.json if isinstance(call.json, dict) else {}
    if isinstance(body.get("data"), dict) and "type" in body:
        body = body["data"]
    value = body.get("allowed_mentions")
    return value if isinstance(value, dict) else None


def pinging(t: Table) -> list[tuple[Call, list[int]]]:
    """Every call that allowed anyone to be pinged, and whom."""
    out = []
    for call in t.fake.calls:
        value = allowed(call)
        if value is None:
            continue
        assert not set(value.get("parse") or ()) & {"users", "everyone", "roles"}, call
        users = [int(u) for u in value.get("users") or ()]
        if users:
            out.append((call, users))
    return out


def invited(t: Table, *names: str) -> str:
    return RENDERER.t(
        t.lang, "lobby-invited", names=RENDERER.i18n.join(t.lang, names), count=len(names)
    )


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_rematch_button_pings_the_invited_once(
    make_table: Callable[..., Any], locale: str
) -> None:
    async with make_table(locale=locale) as t:
        anya, borya, vika, _ = t.users
        result = await finish_match(t)  # Anya, Borya and a robot
        assert t.fake.pings == [] and pinging(t) == []
        await t.click(borya, result, "r:1")
        lobby = await t.table_message()
        assert invited(t, f"<@{anya.id}>") in lobby.content
        assert lobby.content.count("<@") == 1  # not Borya (he asked), never the robot
        assert RENDERER.t(t.lang, "bot-name", number=1) in lobby.content
        assert t.fake.pings == [(lobby.id, anya.id)]
        [(create, users)] = pinging(t)
        assert users == [anya.id] and create.method == "POST"
        assert create.path == f"/channels/{t.world.channel.id}/messages"
        # Vika joins: the lobby is edited, still naming Anya, and nobody is pinged again.
        await t.click(vika, lobby, label=RENDERER.t(t.lang, "btn-join"))
        assert lobby.edited_at is not None and f"<@{anya.id}>" in lobby.content
        # Anya joins: she is no longer waited for.
        await t.click(anya, lobby, label=RENDERER.t(t.lang, "btn-join"))
        assert "<@" not in lobby.content
        assert t.fake.pings == [(lobby.id, anya.id)]
        assert [call for call, _ in pinging(t)] == [create]
        t.assert_clean()


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_rematch_command_pings_the_invited(
    make_table: Callable[..., Any], locale: str
) -> None:
    async with make_table(locale=locale) as t:
        anya, borya, vika, _ = t.users
        await finish_match(t)
        handle = await t.slash(vika, RENDERER.i18n.command_name(t.lang, "rematch"))
        lobby = handle.original
        assert lobby is not None and lobby.is_public and lobby == await t.table_message()
        assert invited(t, f"<@{anya.id}>", f"<@{borya.id}>") in lobby.content
        assert t.fake.pings == [(lobby.id, anya.id), (lobby.id, borya.id)]
        [(answer, users)] = pinging(t)
        assert users == [anya.id, borya.id] and answer in handle.calls
        t.assert_clean()


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_deferred_rematch_command_still_pings(
    make_table: Callable[..., Any], locale: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Editing the deferred "thinking..." answer would ping nobody (Discord does not notify
    edits): the lobby replaces it as a message of its own."""
    async with make_table(locale=locale) as t:
        anya, borya, vika, _ = t.users
        await finish_match(t)
        t.slow_past_deferral(monkeypatch, "lobby.rematch")
        handle = await t.slash(vika, RENDERER.i18n.command_name(t.lang, "rematch"))
        assert handle.callback_type == 5 and handle.answered_within(SLOW_WORK)
        assert handle.original is not None and handle.original.deleted  # the placeholder
        lobby = await t.table_message()
        assert lobby.is_public and lobby.id in handle.followup_ids
        assert invited(t, f"<@{anya.id}>", f"<@{borya.id}>") in lobby.content
        assert t.fake.pings == [(lobby.id, anya.id), (lobby.id, borya.id)]
        await t.click(anya, lobby, label=RENDERER.t(t.lang, "btn-join"))  # the lobby works
        assert f"<@{anya.id}>" not in lobby.content and f"<@{borya.id}>" in lobby.content
        assert len(t.fake.pings) == 2
        t.assert_clean()
