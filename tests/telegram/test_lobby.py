"""Lobby, settings, admins, information commands and the command menus, end to end."""

from __future__ import annotations

import pytest

from bot.presentation.i18n import COMMANDS
from bot.service.chat_settings import ChatSettings
from bot.service.match import meta_from_dict
from core.ai import Level
from tests.telegram.conftest import Harness


async def test_lobby_by_commands_and_buttons(harness: Harness) -> None:
    h = harness
    a, b, d, g = h.users
    await h.say(a, "/new")
    lobby = h.api.last_message(h.group.id)
    assert lobby.plain_text.startswith(h.r.t("ru", "lobby-title"))
    labels = [btn["text"] for btn in lobby.buttons]
    assert labels == [
        *(h.r.t("ru", f"btn-{x}") for x in ("join", "addbot", "start")),
        h.r.t("ru", "btn-bot-level", level="easy"),
    ]
    answer = await h.press_button(b, h.r.t("ru", "btn-join"))
    assert (answer.text, answer.show_alert) == (
        h.r.t("ru", "info-joined", name=b.first_name),
        False,
    )
    again = await h.press_button(b, h.r.t("ru", "btn-join"))
    assert (again.text, again.show_alert) == (h.r.t("ru", "error-already-joined"), True)
    await h.say(d, "/join")
    assert h.api.last_message(h.group.id).plain_text == h.r.t(
        "ru", "info-joined", name=d.first_name
    )
    await h.press_button(a, h.r.t("ru", "btn-addbot"))
    await h.settle()
    lobby = h.api.message(h.group.id, lobby.message_id)
    assert "4 игрока" in lobby.plain_text and h.r.t("ru", "bot-name", number=1) in lobby.plain_text
    # Gleb is not a player: he may not start the game.
    refused = await h.press_button(g, h.r.t("ru", "btn-start"))
    assert (refused.text, refused.show_alert) == (h.r.t("ru", "error-not-joined"), True)
    await h.say(d, "/leave")
    assert h.api.last_message(h.group.id).plain_text == h.r.t("ru", "info-left", name=d.first_name)
    started = await h.press_button(b, h.r.t("ru", "btn-start"))
    assert started.text is None
    await h.settle()
    # The lobby's buttons are gone; the table has the link to the private chat.
    assert h.api.message(h.group.id, lobby.message_id).buttons == []
    table = await h.table()
    assert table.buttons[0]["url"].endswith(f"?start=g{await h.game_id()}")
    assert h.r.t("ru", "table-title", round=1) in table.plain_text
    # An old lobby button after the start: refused, nothing changes.
    late = await h.press(g, h.group, lobby.message_id, f"l:{await h.game_id()}:join", strict=False)
    assert late.show_alert and late.text == h.r.t("ru", "error-game-running")
    await h.say(g, "/join")
    assert h.api.last_message(h.group.id).plain_text == h.r.t("ru", "error-game-running")


async def test_the_lobby_chooses_the_robots_level(harness: Harness) -> None:
    """The button names the level in force and asks for the other one; the game plays it."""
    h = harness
    h.check_language = True
    a, b, *_ = h.users
    await h.say(a, "/new")
    await h.say(a, "/addbot")
    lobby = next(m for m in h.api.messages(h.group.id) if m.buttons)
    game_id = await h.game_id()
    easy, strong = (h.r.t("ru", "btn-bot-level", level=x) for x in ("easy", "strong"))
    chosen = h.r.t("ru", "info-bot-level", level="strong")
    assert {"text": easy, "callback_data": f"l:{game_id}:strong"} in lobby.buttons
    assert h.r.t("ru", "lobby-bot-level", level="easy") in lobby.plain_text
    # Boris has not joined: he may not choose, and the lobby stays as it was.
    shown = lobby.plain_text
    refused = await h.press_button(b, easy)
    assert (refused.text, refused.show_alert) == (h.r.t("ru", "error-not-joined"), True)
    await h.settle()
    assert h.api.message(h.group.id, lobby.message_id).plain_text == shown
    answer = await h.press_button(a, easy)
    assert (answer.text, answer.show_alert) == (chosen, False)
    await h.settle()
    lobby = h.api.message(h.group.id, lobby.message_id)
    assert {"text": strong, "callback_data": f"l:{game_id}:easy"} in lobby.buttons
    assert easy not in [btn["text"] for btn in lobby.buttons]
    assert h.r.t("ru", "lobby-bot-level", level="strong") in lobby.plain_text
    # The same press again (a client that still shows the old button): strong it stays.
    again = await h.press(a, h.group, lobby.message_id, f"l:{game_id}:strong", strict=False)
    assert (again.text, again.show_alert) == (chosen, False)
    await h.settle()
    lobby = h.api.message(h.group.id, lobby.message_id)
    assert {"text": strong, "callback_data": f"l:{game_id}:easy"} in lobby.buttons
    assert not (await h.svc.settings.settings(f"tg:{h.group.id}")).strong_bots  # only this lobby's
    await h.press_button(a, h.r.t("ru", "btn-start"))
    await h.settle()
    rec = await h.svc.storage.active_game(f"tg:{h.group.id}")
    assert rec is not None and rec.status == "running"
    assert meta_from_dict(rec.meta)[1].bot_level is Level.STRONG


@pytest.mark.parametrize("harness", [{"players": 2, "lobby_idle": 1.0}], indirect=True)
async def test_an_idle_lobby_expires_through_the_timer_loop(harness: Harness) -> None:
    h = harness
    h.check_language = True
    a, b = h.users
    await h.say(a, "/new")
    title = h.r.t("ru", "lobby-title")
    [lobby] = [m for m in h.api.messages(h.group.id) if m.plain_text.startswith(title)]
    # Nobody starts it: the app's own timer loop closes it and tells the group.
    notice = h.r.t("ru", "info-lobby-expired", minutes=1)
    await h.api.wait_for(
        lambda c: c.is_("sendMessage") and c.ok and c.params.get("text") == notice, timeout=10
    )
    await h.settle()
    closed = h.api.message(h.group.id, lobby.message_id)
    assert closed.plain_text == h.r.t("ru", "lobby-cancelled") and closed.buttons == []
    assert h.group_texts().count(notice) == 1
    # The chat is free at once.
    await h.say(b, "/new")
    assert h.api.last_message(h.group.id).plain_text.startswith(title)
    reopened = (await h.svc.queries.table(f"tg:{h.group.id}")).table
    assert reopened is not None and reopened.status == "lobby"


async def test_admins_kick_and_kill(harness: Harness) -> None:
    h = harness
    a, b, d, g = h.users
    h.api.set_admins(h.group, [g])
    await h.say(a, "/new")
    joined = await h.say(b, "/join")
    await h.say(d, "/join")
    await h.say(d, "/kick", reply_to=joined.message_id)  # not the creator, not an admin
    assert h.api.last_message(h.group.id).plain_text == h.r.t("ru", "error-not-allowed")
    await h.say(a, "/kick", reply_to=joined.message_id)
    assert h.api.last_message(h.group.id).plain_text == h.r.t(
        "ru", "info-kicked", name=b.first_name
    )
    await h.say(a, "/kick")
    assert h.api.last_message(h.group.id).plain_text == h.r.t("ru", "tg-kick-usage")
    await h.say(a, "/kick 7")
    assert h.api.last_message(h.group.id).plain_text == h.r.t("ru", "error-kick-seat")
    await h.say(a, "/addbot")
    await h.say(d, "/kick 3")  # by seat too: the rights come first
    assert h.api.last_message(h.group.id).plain_text == h.r.t("ru", "error-not-allowed")
    await h.say(g, "/kick 3")  # an admin kicks the computer player by its seat
    assert h.api.last_message(h.group.id).plain_text == h.r.t("ru", "info-bot-removed")
    robot = h.r.t("ru", "bot-name", number=1)
    assert robot not in h.api.message(h.group.id, 1).plain_text
    await h.say(d, "/kill")
    assert h.api.last_message(h.group.id).plain_text == h.r.t("ru", "error-not-allowed")
    members = [c for c in h.api.calls("getChatMember") if c.ok]
    await h.say(g, "/start")  # an admin starts a game he did not join
    assert (await h.game()).players == [str(a.id), str(d.id)]
    await h.say(g, "/kill")
    assert h.api.last_message(h.group.id).plain_text == h.r.t("ru", "info-killed")
    assert h.r.t("ru", "table-killed") in h.api.message(h.group.id, (await _table_id(h))).plain_text
    assert len([c for c in h.api.calls("getChatMember") if c.ok]) == len(members)  # cached


async def _table_id(h: Harness) -> int:
    assert h.storage is not None
    games = [r for r in await h.storage.active_games()]
    assert games == []
    value = None
    for game_id in range(1, 5):
        value = await h.storage.get_ref(game_id, "tg:table") or value
    assert value is not None
    return int(value)


def settings_text(h: Harness, settings: ChatSettings) -> str:
    """/settings on Telegram: the settings, then the table's picture (on or off)."""
    value = h.r.t("ru", "value-on" if settings.table_picture else "value-off")
    return (
        h.r.settings("ru", settings) + "\n" + h.r.t("ru", "tg-settings-table-picture", value=value)
    )


async def test_settings_keyboard(harness: Harness) -> None:
    h = harness
    a, b, _, _ = h.users
    await h.say(a, "/settings")
    msg = h.api.last_message(h.group.id)
    assert msg.plain_text == settings_text(h, await h.svc.settings.settings(f"tg:{h.group.id}"))
    data = [btn["callback_data"] for btn in msg.buttons]
    assert {"s:preset:house", "s:lang:uk", "s:timer:120", "s:colorblind:on", "s:jump_in:on"} <= set(
        data
    )
    assert all(len(d.encode()) <= 64 for d in data)
    saved = h.r.t("ru", "info-settings-saved")
    for key, value in (
        ("preset", "house"),
        ("jump_in", "off"),
        ("timer", "120"),
        ("colorblind", "on"),
    ):
        answer = await h.press(a, h.group, msg.message_id, f"s:{key}:{value}")
        assert answer.text == saved
        await h.settle()
    await h.settle()
    settings = await h.svc.settings.settings(f"tg:{h.group.id}")
    assert (settings.preset, settings.timer, settings.colorblind) == ("house", 120, True)
    assert not settings.rules().jump_in and settings.rules().pass_draw_two
    assert h.api.message(h.group.id, msg.message_id).plain_text == settings_text(h, settings)
    # A running game: only its creator (or an admin) changes the settings.
    await h.new_game(players=2)
    refused = await h.press(b, h.group, msg.message_id, "s:timer:30", strict=False)
    assert (refused.text, refused.show_alert) == (h.r.t("ru", "error-not-allowed"), True)
    bad = await h.press(a, h.group, msg.message_id, "s:timer:7", strict=False)
    assert (bad.text, bad.show_alert) == (h.r.t("ru", "error-bad-setting"), True)
    # Color-blind mode reaches the hands: every color also has its letter.
    hand = await h.hand(a)
    assert (
        "🟥▲К" in hand.plain_text
        or "🟨●Ж" in hand.plain_text
        or "🟩■З" in hand.plain_text
        or "🟦◆С" in hand.plain_text
    )
    # Switching the language re-renders the settings message and the table in Ukrainian.
    answer = await h.press(a, h.group, msg.message_id, "s:lang:uk", strict=False)
    assert answer.text == h.r.t("uk", "info-settings-saved")
    await h.settle()
    assert h.api.message(h.group.id, msg.message_id).plain_text.startswith(
        h.r.t("uk", "settings-title")
    )
    assert h.r.t("uk", "table-title", round=1) in (await h.table()).plain_text


async def test_information_commands(harness: Harness) -> None:
    h = harness
    a = h.users[0]
    await h.say(a, "/help")
    assert h.api.last_message(h.group.id).plain_text == h.r.t("ru", "help-text")
    await h.say(a, "/rules")
    settings = await h.svc.settings.settings(f"tg:{h.group.id}")
    assert h.api.last_message(h.group.id).plain_text == h.r.rules_text("ru", settings)
    await h.say(a, "/stats")
    assert h.api.last_message(h.group.id).plain_text == h.r.t("ru", "stats-empty")
    # In the private chat: help, rules, a welcome; group commands are refused.
    await h.say(a, "/start", chat=a.id)
    assert h.api.last_message(a.id).plain_text == h.r.t("ru", "tg-welcome")
    await h.say(a, "/help", chat=a.id)
    assert h.api.last_message(a.id).plain_text == h.r.t("ru", "help-text")
    for command in ("/new", "/uno", "/stats"):
        await h.say(a, command, chat=a.id)
        assert h.api.last_message(a.id).plain_text == h.r.t("ru", "error-wrong-chat")


async def test_welcome_shows_running_hands(harness: Harness) -> None:
    h = harness
    a = h.users[0]
    await h.new_game(players=2)
    before = (await h.hand(a)).message_id
    await h.say(a, "/start", chat=a.id)
    texts = [m.plain_text for m in h.api.messages(a.id) if m.from_bot]
    assert h.r.t("ru", "tg-welcome-back") in texts
    hand = await h.hand(a)
    assert hand.message_id > before  # a fresh hand at the bottom; the old one lost its buttons
    assert h.api.message(a.id, before).buttons == []


@pytest.mark.parametrize("lang", ["ru", "uk"])
async def test_command_menus_in_both_languages(harness: Harness, lang: str) -> None:
    h = harness
    for scope in ("all_group_chats", "default"):
        commands = h.api.my_commands(scope, lang)
        assert commands is not None
        assert [c["command"] for c in commands] == list(COMMANDS)
        assert [c["description"] for c in commands] == [
            h.r.i18n.command_description(lang, c) for c in COMMANDS
        ]
    private = h.api.my_commands("all_private_chats", lang)
    commands = ["start", "notify", "pictures", "help", "rules"]
    assert private is not None and [c["command"] for c in private] == commands
    assert private[0]["description"] == h.r.t(lang, "tg-cmd-start-private")
    assert private[1]["description"] == h.r.t(lang, "tg-cmd-notify-private")
    assert private[2]["description"] == h.r.t(lang, "tg-cmd-pictures-private")
    assert h.api.my_commands("all_group_chats", "") == h.api.my_commands("all_group_chats", "ru")
