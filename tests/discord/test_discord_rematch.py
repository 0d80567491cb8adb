"""After a match, against the fake Discord: the rematch button under the result, /rematch
(localized), their refusals, and the notice when a timeout takes out the last person."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot.discord.publisher import TABLE_REF
from bot.service import Notice
from core.game import Game
from core.rules import Rules
from tests.discord.fake_discord import StoredMessage
from tests.discord.test_discord_bot import RENDERER, ROBOT, Table, table_factory

LOCALES = ["ru", "uk"]


@pytest.fixture
def make_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[..., Any]:
    return table_factory(tmp_path, monkeypatch)


def t_(t: Table, key: str, **args: Any) -> str:
    """A text as the bot shows it in this channel (commands by their localized names)."""
    return t.bot.texts.t(t.lang, key, **args)


async def finish_match(t: Table) -> StoredMessage:
    """Anya, Borya and a robot play; Anya wins the match with her last card. The result."""
    anya, borya = t.users[:2]
    table = await t.lobby(anya, borya)
    await t.click(anya, table, label=RENDERER.t(t.lang, "btn-addbot"))
    await t.click(anya, table, label=RENDERER.t(t.lang, "btn-start"))
    players = [t.uid(anya), t.uid(borya), ROBOT]
    await t.install(
        Game.from_position(
            players=players,
            hands=dict(zip(players, ["r5", "wild4 wild4 wild", "g2 g3"], strict=True)),
            discard="r1",
            draw="y3 y4 y5 y6 y7 y8",
            rules=dataclasses.replace(Rules.preset("classic"), target=100),
            current=t.uid(anya),
        )
    )
    await t.press(anya, await t.my_cards(anya), "play r5")
    await t.fake.settle()
    return result_message(t, 1)


def result_message(t: Table, game_id: int) -> StoredMessage:
    custom_id = f"r:{game_id}"
    found = [
        m
        for m in t.fake.channel_messages(t.world.channel)
        if any(b.get("custom_id") == custom_id for b in t.fake.buttons(m))
    ]
    assert len(found) == 1
    return found[0]


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_rematch_button_under_the_result(
    make_table: Callable[..., Any], locale: str
) -> None:
    async with make_table(locale=locale) as t:
        anya, borya, vika, gleb = t.users
        result = await finish_match(t)
        won = RENDERER.t(t.lang, "event-game-ended", count=1, winners=anya.name, scores="")
        assert result.is_public and won.split("!")[0] in result.content
        [button] = t.fake.buttons(result)
        assert button["label"] == RENDERER.t(t.lang, "btn-rematch")
        assert t.fake.buttons(await t.table_message()) == []  # the finished table has none
        # Borya asks: the result keeps its text and loses its button; the lobby is posted.
        text = result.content
        pressed = await t.click(borya, result, "r:1")
        assert pressed.callback_type == 7 and pressed.original_id == result.id
        assert result.content == text and t.fake.buttons(result) == []
        rec = await t.storage.active_game(t.chat)
        assert rec is not None and rec.id == 2 and rec.status == "lobby"
        assert rec.meta["players"] == [t.uid(borya), ROBOT]  # Anya is named, not joined
        lobby = await t.table_message()
        assert lobby.id != result.id and lobby.is_public
        invited = RENDERER.t(t.lang, "lobby-invited", names=f"<@{anya.id}>", count=1)
        assert invited in lobby.content  # a mention: see test_discord_rematch_mentions
        assert RENDERER.t(t.lang, "bot-name", number=1) in lobby.content
        assert [b["custom_id"] for b in t.fake.buttons(lobby)] == [
            f"l:2:{op}" for op in ("join", "addbot", "start", "strong")
        ]
        # The button as an older client still shows it, and /rematch: a lobby is open.
        again = await t.click(vika, result, "r:1", snapshot=result.versions[0])
        assert again.ephemeral and t_(t, "error-game-exists") in again.text
        command = await t.slash(vika, RENDERER.i18n.command_name(t.lang, "rematch"))
        assert command.ephemeral and t_(t, "error-game-exists") in command.text
        assert await t.storage.active_game(t.chat) == rec
        # Anya joins: the lobby stops waiting for her.
        await t.click(anya, lobby, label=RENDERER.t(t.lang, "btn-join"))
        assert invited not in lobby.content
        # The lobby is stopped: nothing finished to repeat, and the old button is stale.
        assert not (await t.slash(borya, "kill")).ephemeral
        nothing = await t.slash(gleb, "rematch")
        assert nothing.ephemeral and nothing.text == t_(t, "error-no-rematch")
        assert "/" + RENDERER.i18n.command_name(t.lang, "new") in nothing.text
        stale = await t.click(gleb, result, "r:1", snapshot=result.versions[0])
        assert stale.ephemeral and stale.text == t_(t, "error-rematch-stale")
        assert await t.storage.active_game(t.chat) is None
        t.assert_clean()


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_match_ended_by_leave_and_the_rematch_command(
    make_table: Callable[..., Any], locale: str
) -> None:
    async with make_table(locale=locale) as t:
        anya, borya, _, _ = t.users
        await t.started(anya, borya)
        await t.install(t.position({anya: "r5 r7", borya: "g2 g3"}))
        left = await t.slash(borya, "leave")  # Anya is left alone: she wins the match
        assert left.original is not None and not left.ephemeral
        assert [b["custom_id"] for b in t.fake.buttons(left.original)] == ["r:1"]
        lobby = await t.slash(anya, RENDERER.i18n.command_name(t.lang, "rematch"))
        message = lobby.original
        assert message is not None and message.is_public
        invited = RENDERER.t(t.lang, "lobby-invited", names=f"<@{borya.id}>", count=1)
        assert invited in message.content
        assert await t.storage.get_ref(2, TABLE_REF) == str(message.id)  # the lobby's table
        refused = await t.click(borya, left.original, "r:1")
        assert refused.ephemeral and t_(t, "error-game-exists") in refused.text
        t.assert_clean()


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_channel_is_told_when_a_timeout_takes_out_the_last_person(
    make_table: Callable[..., Any], locale: str
) -> None:
    async with make_table(locale=locale) as t:
        anya = t.users[0]
        table = await t.lobby(anya)
        for _ in range(2):
            await t.click(anya, table, label=RENDERER.t(t.lang, "btn-addbot"))
        await t.click(anya, table, label=RENDERER.t(t.lang, "btn-start"))  # timer: 90 s
        for _ in range(100):  # her turns time out at once; the robots move in between
            if await t.storage.active_game(t.chat) is None:
                break
            await t.run_due()
        else:
            raise AssertionError("the game did not stop")
        await t.fake.settle()
        notice = t.bot.texts.notice(t.lang, Notice("info-no-humans-left"))
        told = [m for m in t.fake.channel_messages(t.world.channel) if notice in m.content]
        assert len(told) == 1 and t.fake.buttons(told[0]) == []  # stopped: no rematch
        assert RENDERER.t(t.lang, "table-killed") in table.content
        t.assert_clean()
