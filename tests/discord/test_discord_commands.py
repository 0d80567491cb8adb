"""Slash commands against the fake Discord: the localized sync payload, /settings, /rules, /help,
/stats, /kick and /kill permissions, the chat's language, the card layout at Discord's limits,
and the token handling of `run_discord`."""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr

from bot.config import Settings
from bot.discord import layout
from bot.discord.app import UnoBot, run_discord
from bot.presentation.i18n import COMMANDS
from bot.service import Service
from bot.service.views import Choice, HandView
from bot.storage import PlayerResult, Storage
from core.actions import Action
from core.cards import ALL_CARDS
from tests.discord.fake_discord import ADMINISTRATOR, DEFAULT_MEMBER_PERMISSIONS, FakeDiscord
from tests.discord.test_discord_bot import RENDERER, hand_keys, table_factory

NAME_RE = re.compile(r"^[-_\w]{1,32}$")
CYRILLIC_RE = re.compile(r"[\u0400-\u04ff]")


@pytest.fixture
def make_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[..., Any]:
    return table_factory(tmp_path, monkeypatch)


async def test_sync_payload_has_russian_and_ukrainian_names_and_descriptions(
    make_table: Callable[..., Any],
) -> None:
    async with make_table() as t:
        (record,) = t.fake.sync_payloads
        assert record.guild_id is None
        commands = {c["name"]: c for c in record.payload}
        assert sorted(commands) == sorted(COMMANDS)
        i18n = RENDERER.i18n
        for name, command in commands.items():
            assert NAME_RE.match(name) and name == name.lower()
            for lang in ("ru", "uk"):
                localized = command["name_localizations"][lang]
                assert localized == i18n.command_name(lang, name)
                assert NAME_RE.match(localized) and localized == localized.lower()
                assert CYRILLIC_RE.search(localized)
                description = command["description_localizations"][lang]
                assert description == i18n.command_description(lang, name)
                assert 1 <= len(description) <= 100
            assert set(command["name_localizations"]) == {"ru", "uk"}
            # The base description is the fallback language's (Russian), never English.
            assert command["description"] == i18n.command_description("ru", name)
            assert command["contexts"] == [0]  # server channels only
        player, seat = commands["kick"]["options"]
        assert player["type"] == 6 and not player.get("required")
        assert player["name_localizations"] == {"ru": "игрок", "uk": "гравець"}
        assert player["description_localizations"]["uk"] == i18n.t(
            "uk", "dc-kick-player-description"
        )
        # A seat number: computer players are no members to pick.
        assert seat["name"] == "seat" and seat["type"] == 4 and not seat.get("required")
        assert (seat["min_value"], seat["max_value"], seat["autocomplete"]) == (1, 10, True)
        assert seat["name_localizations"] == {"ru": "место", "uk": "місце"}
        for lang in ("ru", "uk"):
            assert seat["description_localizations"][lang] == i18n.t(
                lang, "dc-kick-seat-description"
            )
        assert seat["description"] == i18n.t("ru", "dc-kick-seat-description")
        for lang in ("ru", "uk"):
            names = [c["name_localizations"][lang] for c in record.payload]
            assert len(set(names)) == len(names)
        # A Ukrainian client's names reach the same commands.
        help_uk = await t.slash(t.users[0], i18n.command_name("uk", "help"))
        assert help_uk.ephemeral
        t.assert_clean()


@pytest.mark.parametrize(
    ("locale", "lang"), [("uk", "uk"), ("ru", "ru"), ("en-US", "ru"), ("pl", "ru")]
)
async def test_language_follows_the_guild_locale_then_the_setting(
    make_table: Callable[..., Any], locale: str, lang: str
) -> None:
    async with make_table(locale=locale, lang=lang) as t:
        anya = t.users[0]
        help_text = await t.slash(anya, "help")
        assert RENDERER.t(lang, "help-text").splitlines()[0] in help_text.text
        # The help names the commands as Discord shows them in that language.
        assert "/" + RENDERER.i18n.command_name(lang, "join") in help_text.text
        assert "/join" not in help_text.text
        table = (await t.slash(anya, "new")).original
        assert table is not None and RENDERER.t(lang, "lobby-title") in table.content
        # The chat's setting wins over the guild's locale from then on.
        other = "uk" if lang == "ru" else "ru"
        panel = (await t.slash(anya, "settings")).original
        assert panel is not None
        await t.select(anya, panel, "s:lang", other)
        assert RENDERER.t(other, "settings-title") in panel.text
        assert RENDERER.t(other, "lobby-title") in table.content  # the table follows at once
        assert RENDERER.t(other, "btn-join") in [b["label"] for b in t.fake.buttons(table)]
        rules = await t.slash(anya, "rules")
        assert RENDERER.t(other, "rules-classic").splitlines()[0] in rules.text
        t.assert_clean()


async def test_settings_menu_only_for_the_creator_or_an_admin(
    make_table: Callable[..., Any],
) -> None:
    async with make_table() as t:
        anya, borya, _vika, gleb = t.users
        await t.lobby(anya, borya)
        panel = (await t.slash(borya, "settings")).original
        assert panel is not None and panel.is_ephemeral and panel.ephemeral_to == borya.id
        assert [c["custom_id"] for c in t.fake.components(panel) if c.get("type") == 3] == [
            f"s:{key}" for key in ("preset", "lang", "timer", "target", "toggle")
        ]
        await t.select(borya, panel, "s:timer", "30")
        assert RENDERER.t("ru", "error-not-allowed") in panel.text
        assert (await t.service.settings.settings(t.chat)).timer == 90
        # Anya created the game; Gleb administers the server.
        mine = (await t.slash(anya, "settings")).original
        assert mine is not None
        await t.select(anya, mine, "s:preset", "house")
        await t.select(anya, mine, "s:toggle", "no_bluffing")
        await t.select(anya, mine, "s:toggle", "scoring")
        await t.select(anya, mine, "s:target", "200")
        t.fake.users[gleb.id].permissions = DEFAULT_MEMBER_PERMISSIONS | ADMINISTRATOR
        admin = (await t.slash(gleb, "settings")).original
        assert admin is not None
        await t.select(gleb, admin, "s:timer", "off")
        settings = await t.service.settings.settings(t.chat)
        rules = settings.rules()
        assert settings.preset == "house" and settings.timer is None
        assert rules.no_bluffing and rules.scoring.value == "tally" and rules.target == 200
        assert RENDERER.t("ru", "settings-timer-off") in admin.text
        assert RENDERER.t("ru", "info-settings-saved") not in "\n".join(
            t.fake.all_visible_texts(public_only=True)
        )
        t.assert_clean()


async def test_rules_help_and_stats(make_table: Callable[..., Any]) -> None:
    async with make_table(locale="uk") as t:
        anya = t.users[0]
        empty = await t.slash(anya, "stats")
        assert not empty.ephemeral and empty.text == RENDERER.t("uk", "stats-empty")
        await t.slash(anya, "new")
        await t.storage.record_match(
            t.chat,
            1,
            [PlayerResult(str(anya.id), "Оксана", True, 120), PlayerResult("9", "Тарас", False, 0)],
        )
        stats = await t.slash(anya, "stats")
        assert RENDERER.t("uk", "stats-title") in stats.text and "Оксана" in stats.text
        rules = await t.slash(anya, "rules")
        assert rules.ephemeral and RENDERER.t("uk", "settings-title") in rules.text
        assert all(len(m.content) <= 2000 for m in rules.messages)
        help_text = await t.slash(anya, "help")
        for command in COMMANDS:
            assert "/" + RENDERER.i18n.command_name("uk", command) in help_text.text
        t.assert_clean()


async def test_kick_and_kill_need_the_creator_or_an_admin(make_table: Callable[..., Any]) -> None:
    async with make_table() as t:
        anya, borya, vika, gleb = t.users
        await t.started(anya, borya, vika)
        refused = await t.slash(borya, "kick", {"player": vika})
        assert refused.ephemeral and RENDERER.t("ru", "error-not-allowed") in refused.text
        kicked = await t.slash(anya, "исключить", {"игрок": vika})
        assert not kicked.ephemeral
        assert t.uid(vika) not in (await t.game()).hands
        assert RENDERER.t("ru", "error-not-allowed") not in kicked.text
        assert (await t.slash(borya, "kill")).ephemeral
        t.fake.users[gleb.id].permissions = DEFAULT_MEMBER_PERMISSIONS | ADMINISTRATOR
        killed = await t.slash(gleb, "kill")
        assert not killed.ephemeral and RENDERER.t("ru", "info-killed") in killed.text
        table = await t.table_message()
        assert t.fake.buttons(table) == []  # a stopped game has no buttons left
        assert await t.storage.active_game(t.chat) is None
        assert (await t.slash(borya, "new")).original is not None
        t.assert_clean()


async def test_a_hand_at_discords_limits_is_accepted(make_table: Callable[..., Any]) -> None:
    """A hand with more legal cards than buttons: a paged menu Discord accepts, every card in it."""
    async with make_table() as t:
        plays = [Action.parse(f"play {c.text}") for c in ALL_CARDS if not c.is_wild]
        choices = [Choice(a) for a in plays] + [Choice(Action.parse(k)) for k in ("draw", "uno")]
        hand = HandView(
            chat_key=t.chat, game_id=7, player="1", version=3, lang="ru", colorblind=True,
            status="running", cards=[], choices=choices, is_turn=True, current="1",
            current_name="", top=None, color=None,
        )  # fmt: skip
        assert not layout.cards_fit_as_buttons(len(plays), 2)
        channel = t.bot.get_partial_messageable(t.world.channel.id)
        seen: list[str] = []
        for page in range(layout.pages(len(plays))):
            view = layout.hand_view(hand, RENDERER, page=page)
            assert view is not None
            message = await channel.send("-", view=view)  # the fake validates like Discord
            stored = t.fake.message(message.id)
            (menu,) = [c for c in t.fake.components(stored) if c.get("type") == 3]
            assert len(menu["options"]) <= 25
            seen += [o["value"] for o in menu["options"]]
            assert {"draw", "uno"} <= set(hand_keys(stored))
            assert all(len(c.get("custom_id", "")) <= 100 for c in t.fake.components(stored))
        assert sorted(seen) == sorted(str(a) for a in plays)
        # A usual hand: everything as buttons, cards first, at most 25.
        few = HandView(**{**hand.__dict__, "choices": choices[:19] + choices[-2:]})
        view = layout.hand_view(few, RENDERER)
        assert view is not None and len(view.children) == 21
        t.assert_clean()


async def test_run_discord_passes_the_secret_and_never_logs_it(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    secret = "MTIz.secret-discord-token.abc"
    seen: list[str] = []

    async def fake_start(self: UnoBot, token: str, *, reconnect: bool = True) -> None:
        seen.append(token)

    monkeypatch.setattr(UnoBot, "start", fake_start)
    settings = Settings(discord_token=SecretStr(secret), _env_file=None)  # type: ignore[call-arg]
    assert secret not in repr(settings) and secret not in str(settings.model_dump())
    caplog.set_level(logging.DEBUG)

    class _Service:
        storage = None
        clock = None  # the deadlines the timer loop is given, never run here

    await run_discord(settings, _Service())  # type: ignore[arg-type]
    assert seen == [secret]
    assert all(secret not in r.getMessage() for r in caplog.records)
    with pytest.raises(ValueError):
        await run_discord(Settings(_env_file=None), _Service())  # type: ignore[arg-type,call-arg]


async def test_the_token_stays_out_of_the_logs(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A whole session at DEBUG level (discord.py logs every request then) never shows it."""
    secret = "MTIz.another-secret-token.xyz"
    caplog.set_level(logging.DEBUG)
    storage = await Storage.open(tmp_path / "token.sqlite3")
    try:
        service = Service(storage)
        async with FakeDiscord() as fake:
            world = fake.setup_guild(["Аня", "Боря"])
            bot = UnoBot(service, renderer=RENDERER, timers=False)
            await fake.boot(bot, token=secret)
            await bot.tree.sync()
            table = (await fake.slash(bot, world.users[0], "new")).original
            assert table is not None
            await fake.click(bot, world.users[1], table, label=RENDERER.t("ru", "btn-join"))
            await fake.settle()
    finally:
        await storage.close()
    assert any(r.name.startswith("discord.http") for r in caplog.records)
    assert all(secret not in r.getMessage() for r in caplog.records)
