"""Turns on Telegram: a new private message when a person's turn begins (unless they turned it
off), waiting hands that never show a stale turn or top card, every open game shown again on
start, and the defects of issue 14 (a failed callback answer, the closed-chat notice, hand data
on a group message, the challenged hand in color-blind mode)."""

from __future__ import annotations

import pytest
from aiogram.exceptions import TelegramBadRequest

from bot.service import User
from bot.telegram.sender import RateLimit
from core.cards import Card
from core.game import Game
from tests.adapters.busy import refuse_first
from tests.telegram.conftest import Harness, press_turn
from tests.telegram.fake_bot_api import ApiCall, FakeUser
from tests.telegram.test_play import position


def waiting_lines(h: Harness) -> dict[str, str]:
    """Every "X moves" line a hand could show, by player."""
    return {str(u.id): h.r.t("ru", "hand-waiting", name=u.first_name) for u in h.users}


def stale(h: Harness, game: Game, text: str) -> list[str]:
    """The lines of a hand's text that disagree with the game: whose turn it is, the top card."""
    top_prefix = h.r.t("ru", "table-top", card="", color="").split(":")[0] + ":"
    top = h.r.top_line("ru", game.top_card, game.current_color, False)
    waiting = waiting_lines(h)
    wrong = []
    for line in text.splitlines():
        if line.startswith(top_prefix) and line != top:
            wrong.append(f"{line!r}, top is {top!r}")
        for player, said in waiting.items():
            if line == said and player != game.current_player:
                wrong.append(f"{line!r}, {game.current_player} moves")
    return wrong


def sends_to(calls: list[ApiCall], chat_id: int) -> list[ApiCall]:
    return [c for c in calls if c.ok and c.is_("sendMessage") and c.chat_id == chat_id]


async def move(h: Harness) -> FakeUser:
    """The player who can act presses what the simple policy would; returns them."""
    user = await press_turn(h, h.users)
    if user is None:
        raise AssertionError(f"nobody can act: {await h.game()}")
    await h.settle()
    return user


def hand_messages(h: Harness, user: FakeUser) -> list[int]:
    heading = h.r.t("ru", "hand-title", count=1).split("(")[0]
    return [m.message_id for m in h.api.messages(user.id) if heading in m.plain_text]


# ---------------------------------------------------------------------- items 1 and 2


@pytest.mark.parametrize("harness", [{"players": 3, "seed": 5}], indirect=True)
async def test_every_turn_begins_with_a_new_private_message_and_waiting_hands_never_lie(
    harness: Harness,
) -> None:
    h = harness
    await h.new_game(players=3)
    turns_begun = 0
    for _ in range(60):
        before = await h.game()
        since = h.api.call_count
        await move(h)
        game = await h.game()
        calls = h.api.calls()[since:]
        for user in h.users:
            player = str(user.id)
            begins = (
                not game.is_over
                and game.current_player == player
                and before.current_player != player
            )
            sent = sends_to(calls, user.id)
            if begins:
                turns_begun += 1
                assert len(sent) == 1, (user.first_name, [c.method for c in calls])
                # The hand moved: the new message is the only hand left in the chat.
                assert hand_messages(h, user) == [sent[0].result["message_id"]]
                assert (await h.hand(user)).message_id == sent[0].result["message_id"]
            else:
                assert sent == [], user.first_name
            assert stale(h, game, (await h.hand(user)).plain_text) == [], user.first_name
        if game.is_over or game.round_no > 1:
            break
    assert turns_begun >= 20


@pytest.mark.parametrize("harness", [{"players": 3, "seed": 5}], indirect=True)
async def test_a_player_turns_notifications_off_and_on(harness: Harness) -> None:
    h = harness
    quiet = h.users[1]
    await h.say(quiet, "/notify", chat=quiet.id)
    assert h.api.last_message(quiet.id).plain_text == h.r.t("ru", "tg-notify-off")
    await h.new_game(players=3)
    begun = 0
    for _ in range(30):
        before = await h.game()
        since = h.api.call_count
        await move(h)
        game = await h.game()
        calls = h.api.calls()[since:]
        if game.current_player == str(quiet.id) != before.current_player:
            begun += 1
            assert sends_to(calls, quiet.id) == []  # edited in place, silently
            assert len(hand_messages(h, quiet)) == 1
        if game.round_no > 1:
            break
    assert begun >= 3
    # On again: the next turn is a new message.
    await h.say(quiet, "/notify", chat=quiet.id)
    assert h.api.last_message(quiet.id).plain_text == h.r.t("ru", "tg-notify-on")
    for _ in range(30):
        before = await h.game()
        since = h.api.call_count
        await move(h)
        game = await h.game()
        if game.current_player == str(quiet.id) != before.current_player:
            assert len(sends_to(h.api.calls()[since:], quiet.id)) == 1
            return
    raise AssertionError("no turn of the quiet player")


async def test_notify_in_a_group_points_to_the_private_chat(harness: Harness) -> None:
    h = harness
    await h.say(h.users[0], "/notify")
    assert h.api.last_message(h.group.id).plain_text == h.r.t("ru", "tg-notify-private")
    assert await h.svc.settings.personal(f"tg:{h.users[0].id}") == {}


async def test_fake_refuses_deleting_a_message_twice(harness: Harness) -> None:
    h = harness
    bot = h.api.make_bot()
    try:
        msg = await bot.send_message(h.users[0].id, "x")
        assert await bot.delete_message(h.users[0].id, msg.message_id)
        with pytest.raises(TelegramBadRequest, match="message to delete not found"):
            await bot.delete_message(h.users[0].id, msg.message_id)
    finally:
        await bot.session.close()


# ---------------------------------------------------------------------- item 3: a restart


@pytest.mark.parametrize("harness", [{"players": 3, "seed": 7}], indirect=True)
async def test_a_move_committed_but_never_sent_is_shown_on_start(harness: Harness) -> None:
    """The process stops between the commit and the send: the next player's hand arrives as
    soon as the bot starts again, not when the turn timer fires."""
    h = harness
    a, b, _ = h.users
    await h.new_game(players=3)
    await h.install(position(h, ["r5 r7 g2", "b5 y1 y2", "g9 g8 g7"]))
    await h.settle()
    old_hand = (await h.hand(b)).message_id
    # The move is committed and nothing of it is published (what a kill right after the
    # commit leaves behind).
    out = await h.svc.play.act(User(str(a.id), a.first_name), "play r5", game_id=await h.game_id())
    assert out.ok and (await h.game()).current_player == str(b.id)
    await h.stop()
    since = h.api.call_count
    await h.start()
    await h.settle()
    assert h.app is not None and h.app.timers.published == 0  # no timer moved anything
    sent = sends_to(h.api.calls()[since:], b.id)
    assert len(sent) == 1  # b's turn: a new message, and it is their hand now
    hand = await h.hand(b)
    assert hand.message_id == sent[0].result["message_id"] != old_hand
    assert "play b5" in await h.acts(b)
    assert hand_messages(h, b)[-1] == hand.message_id
    assert old_hand not in hand_messages(h, b)  # deleted
    # The table was brought up to date too, and the others' hands were left alone.
    table = (await h.table()).plain_text
    assert h.r.top_line("ru", (await h.game()).top_card, None, False).split("·")[0] in table
    assert sends_to(h.api.calls()[since:], a.id) == []


@pytest.mark.parametrize("harness", [{"players": 3, "seed": 7}], indirect=True)
@pytest.mark.parametrize("read", ["table", "hand"])
async def test_a_game_shown_again_at_start_reads_again_what_was_refused_as_busy(
    harness: Harness, monkeypatch: pytest.MonkeyPatch, read: str
) -> None:
    """A position committed behind the bot's back, then a start whose first read of the
    game's table, or of a hand, is refused as busy (the process too loaded to run it in time).
    It is made again: the game is shown again, with the hand of whoever can act, not left out
    as if the game were over or the hand had no choices."""
    h = harness
    a = h.users[0]
    await h.new_game(players=3)
    await h.settle()
    assert "play r7" not in await h.acts(a)
    await h.install(position(h, ["r5 r7 g2", "b5 y1 y2", "g9 g8 g7"]), reopen=False)
    refused = refuse_first(monkeypatch, **{read: 1})
    await h.restart()
    await h.settle()
    assert refused == [read]
    assert {"play r5", "play r7"} <= set(await h.acts(a))
    assert h.r.t("ru", "table-turn", name=a.first_name) in (await h.table()).plain_text


# ---------------------------------------------------------------------- item 4


# (a press's answer that fails: tests/telegram/test_transient_faults.py)


# ---------------------------------------------------------------------- item 5


@pytest.mark.parametrize("harness", [{"players": 3, "started": {0, 1}, "seed": 3}], indirect=True)
async def test_the_closed_chat_notice_mentions_the_player(harness: Harness) -> None:
    h = harness
    d = h.users[2]
    await h.new_game(players=3)
    notice = h.r.t("ru", "error-dm-closed", name=d.first_name)
    told = [m for m in h.api.messages(h.group.id) if m.plain_text == notice]
    assert len(told) == 1
    mention = [e for e in told[0].entities or () if e["type"] == "text_mention"]
    assert [(e["user"]["id"], e["offset"], e["length"]) for e in mention] == [
        (d.id, 0, len(d.first_name))
    ]
    assert (h.group.id, told[0].message_id, d.id) in {
        (n.chat_id, n.message_id, n.user_id) for n in h.api.notifications
    }


# ---------------------------------------------------------------------- item 7


@pytest.mark.parametrize("harness", [{"players": 3, "seed": 7}], indirect=True)
async def test_hand_data_on_a_group_message_is_refused(harness: Harness) -> None:
    h = harness
    a = h.users[0]
    await h.new_game(players=3)
    await h.install(position(h, ["r5 r7 g2", "b5 y1 y2", "g9 g8 g7"]))
    await h.settle()
    before = (await h.game()).to_dict()
    data = (await h.acts(a))["play r5"]
    table = await h.table()
    since = h.api.call_count
    answer = await h.press(a, h.group, table.message_id, data, strict=False)
    await h.settle()
    assert (answer.text, answer.show_alert) == (h.r.t("ru", "tg-stale-button-group"), True)
    assert (await h.game()).to_dict() == before
    assert [c.method for c in h.api.calls()[since:] if c.method != "getUpdates"] == [
        "answerCallbackQuery"
    ]


# ---------------------------------------------------------------------- the challenged hand


@pytest.mark.parametrize("harness", [{"players": 3, "seed": 7}], indirect=True)
async def test_the_challenged_hand_is_shown_color_blind(harness: Harness) -> None:
    h = harness
    a, b, _ = h.users
    await h.set_setting(a, "colorblind", "on")
    await h.new_game(players=3)
    await h.install(position(h, ["wild4 r7 g2", "b5 y1", "g9 g8 g7"]))
    assert (await h.play(a, "wild4", "b")).text is None
    await h.say(b, "/challenge")
    shown = h.r.t("ru", "event-hand-revealed", owner=a.first_name, cards="")
    texts = [t for t in h.api.sent_texts(b.id) if shown in t]
    assert len(texts) == 1
    for card in (Card.parse(c) for c in ("r7", "g2")):
        assert h.r.card("ru", card, True) in texts[0]
        assert h.r.card("ru", card, False) not in texts[0]


# ---------------------------------------------------------------------- item 6


@pytest.mark.parametrize(
    "harness",
    [{"players": 3, "group_limit": RateLimit(count=13, period=1.0, burst=3)}],
    indirect=True,
)
async def test_the_first_table_goes_before_the_lobby_is_retired(harness: Harness) -> None:
    h = harness
    await h.new_game(players=3)
    lobby = await h.ref("tg:lobby")
    table = (await h.table()).message_id
    calls = [c for c in h.api.calls(chat_id=h.group.id) if c.ok]
    sent_table = next(
        i
        for i, c in enumerate(calls)
        if c.is_("sendPhoto") and c.result["message_id"] == table  # the banner, and the text
    )
    retired = next(
        i
        for i, c in enumerate(calls)
        if c.is_("editMessageReplyMarkup") and c.params["message_id"] == lobby
    )
    assert sent_table < retired
