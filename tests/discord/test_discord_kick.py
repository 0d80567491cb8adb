"""/kick by seat number against the fake Discord: a computer player can be removed too, with the
same rights and refusals as kicking a member, in Russian and Ukrainian, by the localized names.

A refused /kick is a private answer and leaves the game as it was.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.discord.fake_discord import ADMINISTRATOR, DEFAULT_MEMBER_PERMISSIONS
from tests.discord.test_discord_bot import RENDERER, ROBOT, Table, table_factory

NAMES = {  # the command and its options as a client in that language shows them
    "ru": ("исключить", "игрок", "место"),
    "uk": ("виключити", "гравець", "місце"),
}


@pytest.fixture
def make_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[..., Any]:
    return table_factory(tmp_path, monkeypatch)


async def snapshot(t: Table) -> tuple[Any, ...]:
    rec = await t.storage.active_game(t.chat)
    assert rec is not None
    return rec.version, rec.status, rec.state, rec.meta


@pytest.mark.parametrize("locale", ["ru", "uk"])
async def test_kick_by_seat_in_the_lobby_and_in_the_game(
    make_table: Callable[..., Any], locale: str
) -> None:
    async with make_table(locale=locale) as t:
        lang = t.lang
        kick, player, seat = NAMES[lang]
        anya, borya, vika, gleb = t.users
        table = await t.lobby(anya, borya, vika)
        await t.click(anya, table, label=RENDERER.t(lang, "btn-addbot"))
        before = await snapshot(t)
        refusals = [
            (borya, {seat: 4}, RENDERER.t(lang, "error-not-allowed")),  # neither creator nor admin
            (anya, {seat: 9}, RENDERER.t(lang, "error-kick-seat")),  # nobody sits there
            (anya, {}, t.bot.texts.t(lang, "dc-kick-usage")),  # neither option
            (anya, {player: vika, seat: 4}, t.bot.texts.t(lang, "dc-kick-usage")),  # both
        ]
        for who, options, text in refusals:
            handle = await t.slash(who, kick, options)
            assert handle.ephemeral and handle.text == text, (options, handle.text)
        assert await snapshot(t) == before
        usage = t.bot.texts.t(lang, "dc-kick-usage")
        assert f"«{player}»" in usage and f"«{seat}»" in usage
        # The creator removes the computer player from the lobby by its seat.
        removed = await t.slash(anya, kick, {seat: 4})
        assert not removed.ephemeral and RENDERER.t(lang, "info-bot-removed") in removed.text
        rec = await t.storage.active_game(t.chat)
        assert rec is not None and rec.meta["players"] == [t.uid(u) for u in (anya, borya, vika)]
        robot = RENDERER.t(lang, "bot-name", number=1)
        assert robot not in (await t.table_message()).content
        # In the game: an admin, by seat, as the table lists the players.
        await t.click(anya, table, label=RENDERER.t(lang, "btn-addbot"))
        await t.click(anya, table, label=RENDERER.t(lang, "btn-start"))
        game = await t.game()
        robot_id = next(p for p in game.players if p.startswith("ai:"))
        number = game.players.index(robot_id) + 1
        refused = await t.slash(borya, "kick", {"seat": number})
        assert refused.ephemeral and refused.text == RENDERER.t(lang, "error-not-allowed")
        assert robot_id in (await t.game()).hands
        t.fake.users[gleb.id].permissions = DEFAULT_MEMBER_PERMISSIONS | ADMINISTRATOR
        kicked = await t.slash(gleb, kick, {seat: number})
        assert not kicked.ephemeral
        assert RENDERER.t(lang, "bot-name", number=2) in kicked.text
        game = await t.game()
        assert robot_id not in game.hands and len(game.players) == 3
        seated = RENDERER.t(lang, "bot-name", number=2) + " —"  # a seat line, not the news
        assert seated not in (await t.table_message()).content
        # A person by seat works the same way.
        vika_seat = game.players.index(t.uid(vika)) + 1
        gone = await t.slash(anya, "kick", {"seat": vika_seat})
        assert not gone.ephemeral and t.uid(vika) not in (await t.game()).hands
        t.assert_clean()


async def test_no_game_and_a_seat_past_the_last(make_table: Callable[..., Any]) -> None:
    async with make_table() as t:
        anya, borya, *_ = t.users
        none = await t.slash(anya, "kick", {"seat": 1})
        assert none.ephemeral and none.text == t.bot.texts.t("ru", "error-no-game")
        await t.started(anya, borya)
        before = await snapshot(t)
        past = await t.slash(anya, "kick", {"seat": 3})
        assert past.ephemeral and past.text == RENDERER.t("ru", "error-kick-seat")
        assert await snapshot(t) == before
        t.assert_clean()


@pytest.mark.parametrize("locale", ["ru", "uk"])
async def test_seat_suggestions_name_who_sits_there(
    make_table: Callable[..., Any], locale: str
) -> None:
    """The running table does not number its players: the seat option suggests `2. Name`."""
    async with make_table(locale=locale) as t:
        lang = t.lang
        kick, _player, seat = NAMES[lang]
        anya, borya, vika, _gleb = t.users
        empty = await t.fake.autocomplete(t.bot, anya, kick, {seat: ""}, seat)
        assert empty.choices == []  # no game in the channel
        table = await t.lobby(anya, borya)
        await t.click(anya, table, label=RENDERER.t(lang, "btn-addbot"))
        await t.slash(vika, "join")
        robot = RENDERER.t(lang, "bot-name", number=1)
        every = await t.fake.autocomplete(t.bot, anya, kick, {seat: ""}, seat)
        assert every.choices == [
            {"name": f"1. {anya.name}", "value": 1},
            {"name": f"2. {borya.name}", "value": 2},
            {"name": f"3. {robot}", "value": 3},
            {"name": f"4. {vika.name}", "value": 4},
        ]
        typed = await t.fake.autocomplete(t.bot, anya, "kick", {"seat": "3"}, "seat")
        assert typed.choices == [{"name": f"3. {robot}", "value": 3}]
        assert ROBOT in (await t.storage.active_game(t.chat)).meta["players"]  # type: ignore[union-attr]
        t.assert_clean()
