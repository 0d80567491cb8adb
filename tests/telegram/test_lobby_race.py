"""A game that starts before the bot knows its lobby's message id still takes the lobby's
buttons away.

The lobby's id is known only when Telegram answers its sendMessage; a fast /start (or a loaded
machine) can deal the game and show the table before that. The lobby must not keep its join /
start buttons then: they would only be refused from now on. Here the answer is held by the fake
Bot API until the game has been shown, instead of hoping that a busy machine orders it so."""

from __future__ import annotations

import asyncio

import pytest

from tests.telegram.conftest import SETTLE_TIMEOUT, Harness

HAND_SENDS = ("sendMessage", "sendPhoto")  # a hand: text, or from 8 cards a photo


@pytest.mark.parametrize("harness", [{"players": 3}], indirect=True)
async def test_a_game_started_before_the_lobby_message_is_known(harness: Harness) -> None:
    h = harness
    a, b, c = h.users
    # The lobby's sendMessage reaches Telegram, whose answer (the message id) is held.
    held = h.api.hold(["sendMessage"], [h.group.id])
    h.api.send_message(a, h.group, "/new")
    await asyncio.wait_for(held.wait(), SETTLE_TIMEOUT)
    since = h.api.call_count
    for user in (b, c):
        h.api.send_message(user, h.group, "/join")
    h.api.send_message(a, h.group, "/start")
    # The game is dealt and shown (the table is queued behind the lobby; the hands, published
    # after it, go to the private chats, which are not held) before the lobby's id is known.
    await h.api.wait_for(
        lambda call: call.ok and call.method in HAND_SENDS and call.chat_id in (a.id, b.id, c.id),
        SETTLE_TIMEOUT,
        since=since,
    )
    assert await h.ref("tg:lobby") is None
    h.api.resume_holds()
    await h.settle()

    title = h.r.t("ru", "lobby-title")
    [lobby] = [m for m in h.api.messages(h.group.id) if m.plain_text.startswith(title)]
    assert await h.ref("tg:lobby") == lobby.message_id
    assert lobby.buttons == []  # taken away once its id was known
    table = await h.table()
    assert h.r.t("ru", "table-title", round=1) in table.plain_text
    assert table.buttons  # the table's own buttons stay
    # A button of the lobby pressed before it went away: refused, and nothing changes.
    game = await h.game()
    late = await h.press(c, h.group, lobby.message_id, f"l:{await h.game_id()}:join", strict=False)
    assert late.show_alert and late.text == h.r.t("ru", "error-game-running")
    assert (await h.game()).to_dict() == game.to_dict()
