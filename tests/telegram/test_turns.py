"""Turns on Telegram: a new private message when a person's turn begins (unless they turned it
off), waiting hands that never show a stale turn or top card, every open game shown again on
start, and the defects of issue 14 (a failed callback answer, the closed-chat notice, hand data
on a group message, the challenged hand in color-blind mode)."""

from __future__ import annotations

import pytest

from core.game import Game
from tests.telegram.conftest import Harness, can_act, policy
from tests.telegram.fake_bot_api import ApiCall, FakeUser


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
    for user in h.users:
        acts = await can_act(h, user)
        if acts:
            act = policy(acts)
            assert act is not None
            answer = await h.act(user, act)
            assert answer.text is None, (user.first_name, act, answer.text)
            await h.settle()
            return user
    raise AssertionError(f"nobody can act: {await h.game()}")


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
    assert await h.svc.personal(f"tg:{h.users[0].id}") == {}


async def test_fake_refuses_deleting_a_message_twice(harness: Harness) -> None:
    h = harness
    bot = h.api.make_bot()
    try:
        msg = await bot.send_message(h.users[0].id, "x")
        assert await bot.delete_message(h.users[0].id, msg.message_id)
        with pytest.raises(Exception, match="message to delete not found"):
            await bot.delete_message(h.users[0].id, msg.message_id)
    finally:
        await bot.session.close()
