"""A game end to end through the fake Bot API: private buttons, /uno, /challenge, jump-in,
refusals, players who never opened the private chat, flood control, a restart."""

from __future__ import annotations

import asyncio
import math
from typing import Any

import pytest

from bot.telegram.sender import RateLimit
from core.game import Game
from core.rules import Rules
from tests.adapters.storage_calls import counting
from tests.telegram.conftest import Harness, can_act, play_until, policy

DRAW = "y3 y4 y5 y6 y7 y8 y9 b1 b2 b3 b4 b6 b7 b8 b9"


def position(h: Harness, hands: list[str], *, preset: str = "classic", **kw: Any) -> Game:
    players = [str(u.id) for u in h.users[: len(hands)]]
    options: dict[str, Any] = dict(discard="r1", draw=DRAW, current=players[0])
    options.update(kw)
    return Game.from_position(
        players=players,
        hands=dict(zip(players, hands, strict=True)),
        rules=Rules.preset(preset),
        **options,
    )


# What the bot sends to a group (the table is a photo: its banner with the text as caption).
TABLE_EDITS = ("editMessageText", "editMessageMedia")  # a text table, or a photo's
GROUP_METHODS = (
    "sendMessage",
    "editMessageText",
    "editMessageReplyMarkup",
    "sendPhoto",
    "editMessageMedia",
)


def group_calls(h: Harness) -> list[Any]:
    return [c for c in h.api.calls(chat_id=h.group.id) if c.ok and c.method in GROUP_METHODS]


# ---------------------------------------------------------------------- a whole round


@pytest.mark.parametrize("harness", [{"players": 3, "seed": 11}], indirect=True)
async def test_a_round_through_private_buttons_to_the_end(harness: Harness) -> None:
    h = harness
    game_id = await h.new_game(players=3)
    table_id = (await h.table()).message_id
    before = len(group_calls(h))
    moves = await play_until(h, lambda g: g.round_no >= 2, h.users)
    await h.settle()
    game = await h.game()
    # Scored: the winner of round 1 has the points of the cards left in the others' hands.
    assert sum(game.scores.values()) > 0 and moves > 10
    winner = max(game.scores, key=lambda p: game.scores[p])
    name = h.user(winner).first_name
    points = game.scores[winner]
    expected = h.r.t("ru", "event-round-ended-points", winner=name, count=points, scores="")
    assert any(expected.split("!")[0] in t for t in h.group_texts())
    # One table message, edited in place; at most one group call per move plus the result.
    table = await h.table()
    assert table.message_id == table_id and "раунд 2" in table.plain_text
    assert [m.message_id for m in h.api.messages(h.group.id) if m.from_bot][-1] > table_id
    assert len(group_calls(h)) - before <= moves + 1
    # Every hand keeps its one message; the buttons carry the game and a version.
    for user in h.users:
        hands = [m for m in h.api.messages(user.id) if m.from_bot]
        assert len(hands) == 1
        assert all(b["callback_data"].startswith(f"h:{game_id}:") for b in hands[0].buttons)


# ---------------------------------------------------------------------- UNO


@pytest.mark.parametrize("harness", [{"players": 3}], indirect=True)
async def test_uno_in_time_and_false_catches(harness: Harness) -> None:
    h = harness
    a, b, d = h.users
    await h.new_game(players=3)
    await h.install(position(h, ["r5 r7", "b5 y1 y2", "g9 g8 g7"]))
    await h.say(b, "/uno")  # nobody to catch: costs nothing, changes nothing
    nothing = h.r.t("ru", "reason-nothing-to-catch")
    assert h.api.last_message(h.group.id).plain_text == nothing
    assert (await h.acts(a)).keys() >= {"uno", "play r5", "play r7"}
    assert (await h.act(a, "uno")).text is None
    assert (await h.play(a, "r7")).text is None
    await h.say(d, "/uno")
    assert h.api.last_message(h.group.id).plain_text == nothing
    game = await h.game()
    assert game.hands[str(a.id)] == game.hands[str(a.id)][:1] and len(game.hands[str(a.id)]) == 1
    table = await h.table()
    assert h.r.t("ru", "table-uno-mark") in table.plain_text


@pytest.mark.parametrize("harness", [{"players": 3}], indirect=True)
async def test_forgotten_uno_is_caught_from_the_group(harness: Harness) -> None:
    h = harness
    a, b, d = h.users
    await h.new_game(players=3)
    await h.install(position(h, ["r5 r7", "b5 y1 y2", "g9 g8 g7"]))
    await h.play(a, "r7")  # forgot UNO
    assert "catch" in await h.acts(b) and "catch" in await h.acts(d)
    await h.say(d, "/uno")
    caught = h.r.t("ru", "event-uno-caught", player=a.first_name, catcher=d.first_name)
    assert h.api.last_message(h.group.id).plain_text == caught
    assert len((await h.game()).hands[str(a.id)]) == 3
    hand = await h.hand(a)
    assert len(hand.buttons) == 0 and "(3 карты)" in hand.plain_text
    assert "catch" not in await h.acts(b)


@pytest.mark.parametrize("harness", [{"players": 3}], indirect=True)
async def test_uno_called_right_after_the_play_and_the_window_closing(harness: Harness) -> None:
    h = harness
    a, b, d = h.users
    await h.new_game(players=3)
    await h.install(position(h, ["r5 r7", "b5 y1 y2", "g9 g8 g7"]))
    await h.play(a, "r7")
    await h.say(a, "/uno")  # in time: right after the play
    await h.say(d, "/uno")
    assert h.api.last_message(h.group.id).plain_text == h.r.t("ru", "reason-nothing-to-catch")
    assert len((await h.game()).hands[str(a.id)]) == 1
    # Again, forgotten: the next player's move closes the window before anyone catches.
    await h.install(position(h, ["r5 r7", "b5 y1 y2", "g9 g8 g7"]))
    await h.play(a, "r7")
    await h.act(b, "draw")
    await h.say(d, "/uno")
    assert h.api.last_message(h.group.id).plain_text == h.r.t("ru", "reason-nothing-to-catch")
    assert len((await h.game()).hands[str(a.id)]) == 1


@pytest.mark.parametrize("harness", [{"players": 3}], indirect=True)
async def test_catch_race_between_a_button_and_the_group_command(harness: Harness) -> None:
    h = harness
    a, b, d = h.users
    await h.new_game(players=3)
    await h.install(position(h, ["r5 r7", "b5 y1 y2", "g9 g8 g7"]))
    await h.play(a, "r7")
    hand = await h.hand(b)
    catch = (await h.acts(b))["catch"]
    # Both arrive in the same batch of updates: whichever the engine gets first wins.
    h.api.press(b, b.id, hand.message_id, catch)
    h.api.send_message(d, h.group, "/uno")
    await h.settle()
    game = await h.game()
    assert len(game.hands[str(a.id)]) == 3
    sent = [c.params["text"] for c in h.api.calls("sendMessage", chat_id=h.group.id)]
    caught = [t for t in sent if "забывает сказать УНО" in t]
    assert len(caught) == 1  # one catch; the other attempt was a false one


# ---------------------------------------------------------------------- challenge


@pytest.mark.parametrize("harness", [{"players": 3}], indirect=True)
@pytest.mark.parametrize("preset", ["classic", "house"])
@pytest.mark.parametrize("guilty", [True, False])
async def test_challenge(harness: Harness, preset: str, guilty: bool) -> None:
    h = harness
    a, b, d = h.users
    await h.new_game(players=3, preset=preset)
    offender = "wild4 r7 g2" if guilty else "wild4 b7 g2"
    await h.install(position(h, [offender, "b5 y1", "g9 g8 g7"], preset=preset))
    assert (await h.play(a, "wild4", "b")).text is None
    assert {"challenge", "accept"} <= set(await h.acts(b))
    await h.say(b, "/challenge")
    game = await h.game()
    key = "event-challenge-guilty" if guilty else "event-challenge-innocent"
    verdict = h.r.t("ru", key, challenger=b.first_name, offender=a.first_name)
    assert verdict in h.api.last_message(h.group.id).plain_text
    if guilty and preset == "classic":  # the offender draws 4, the color stands
        assert len(game.hands[str(a.id)]) == 6 and str(game.current_color) == "b"
        assert game.current_player == str(b.id)
    elif guilty:  # house: takes the card back and draws 4; the pile is as before
        assert len(game.hands[str(a.id)]) == 7 and game.top_card.text == "r1"
        assert game.current_player == str(b.id)
    else:  # innocent: the challenger draws 6 and loses the turn
        assert len(game.hands[str(b.id)]) == 8 and game.current_player == str(d.id)
    # The challenged hand went to the challenger's private chat, and nowhere else.
    shown = h.r.t("ru", "event-hand-revealed", owner=a.first_name, cards="")
    chats = {s.chat_id for s in _texts(h) if shown in s.text}
    assert chats == {b.id}


def _texts(h: Harness) -> list[Any]:
    from tests.telegram.conftest import bot_texts

    return bot_texts(h.api)


# ---------------------------------------------------------------------- jump-in


@pytest.mark.parametrize("harness", [{"players": 3}], indirect=True)
async def test_jump_in_race_in_house(harness: Harness) -> None:
    h = harness
    a, b, d = h.users
    await h.new_game(players=3, preset="house")
    game = position(
        h, ["g9 r5 y3", "r5 b1 b2", "r3 g8 g7"], preset="house", discard="r2 r5", current=str(d.id)
    )
    await h.install(game)
    assert "play r5" in await h.acts(a) and "play r5" in await h.acts(b)
    d_hand, d_acts = await h.hand(d), await h.acts(d)
    hands = {u.id: (await h.hand(u), (await h.acts(u))["play r5"]) for u in (a, b)}
    queries = {
        u.id: h.api.press(u, u.id, hands[u.id][0].message_id, hands[u.id][1]) for u in (a, b)
    }
    # Dina's ordinary move arrives after both jump-ins: refused, with a fresh keyboard.
    late = h.api.press(d, d.id, d_hand.message_id, d_acts["play r3"])
    await h.settle()
    answers = {uid: h.api.callback_answer(q) for uid, q in queries.items()}
    winners = [uid for uid, ans in answers.items() if ans is not None and ans.text is None]
    losers = [uid for uid, ans in answers.items() if ans is not None and ans.show_alert]
    assert len(winners) == 1 and len(losers) == 1
    refused = h.api.callback_answer(late)
    assert refused is not None and refused.show_alert
    game = await h.game()
    assert len(game.hands[str(winners[0])]) == 2 and len(game.hands[str(losers[0])]) == 3
    assert game.hands[str(d.id)] and len(game.hands[str(d.id)]) == 3
    # The jumper's next player is to move; the refused players see fresh keyboards.
    assert game.current_player == game.players[(game.players.index(str(winners[0])) + 1) % 3]
    for user in (d, h.user(str(losers[0]))):
        fresh = await h.hand(user)
        assert all(b["callback_data"] not in (d_acts["play r3"],) for b in fresh.buttons)


# ---------------------------------------------------------------------- refusals


@pytest.mark.parametrize("harness", [{"players": 3, "seed": 5}], indirect=True)
async def test_stale_and_unparsable_buttons_are_refused_with_a_fresh_keyboard(
    harness: Harness,
) -> None:
    h = harness
    game_id = await h.new_game(players=3)
    mover = h.user((await h.game()).current_player)
    acts = await can_act(h, mover)
    assert acts is not None
    act = policy(acts)
    assert act is not None and act != "uno"
    hand = await h.hand(mover)
    old = acts[act]
    assert (await h.press(mover, mover.id, hand.message_id, old)).text is None
    rec = await h.storage.active_game(f"tg:{h.group.id}")  # type: ignore[union-attr]
    stale = h.r.t("ru", "error-stale")
    # Ids out of range (2**63 and more, negative) are forged data: refused before the storage.
    forged = (f"h:{2**63}:0:draw", f"h:{game_id}:{2**64}:draw", "h:-1:0:draw", f"h:{10**40}:0:x")
    assert h.storage is not None
    with counting(h.storage) as calls:
        for data in (old, "h:oops", "zzz", f"h:{game_id}:x:draw", "l:1", *forged):
            answer = await h.press(mover, mover.id, hand.message_id, data, strict=False)
            assert (answer.text, answer.show_alert) == (stale, True), data
        # At the limit, an id is a number the storage holds: no such game.
        limit = f"h:{2**63 - 1}:0:draw"
        answer = await h.press(mover, mover.id, hand.message_id, limit, strict=False)
        assert (answer.text, answer.show_alert) == (h.r.t("ru", "error-no-game"), True)
    assert max(calls.ints()) == 2**63 - 1
    assert await h.storage.active_game(f"tg:{h.group.id}") == rec
    fresh = await h.hand(mover)
    assert old not in [b["callback_data"] for b in fresh.buttons]
    # A stale press on the color menu of a wild card is refused the same way.
    menu = f"h:{game_id}:0:pick play wild"
    answer = await h.press(mover, mover.id, hand.message_id, menu, strict=False)
    assert (answer.text, answer.show_alert) == (stale, True)


@pytest.mark.parametrize("harness", [{"players": 3}], indirect=True)
async def test_forged_callback_from_a_non_player(harness: Harness) -> None:
    h = harness
    a = h.users[0]
    await h.new_game(players=3)
    await h.install(position(h, ["r5 r7 g2", "b5 y1 y2", "g9 g8 g7"]))
    stranger = h.api.new_user("Чужой")
    hand = await h.hand(a)
    before = await h.game()
    edits = len(h.api.calls("editMessageText", chat_id=a.id))
    data = (await h.acts(a))["play r7"]
    # On someone else's message: refused before anything is read.
    answer = await h.press(stranger, a.id, hand.message_id, data)
    assert (answer.text, answer.show_alert) == (h.r.t("ru", "tg-stale-button-group"), True)
    # In the stranger's own private chat: not their game.
    own = await h.say(stranger, "/help", chat=stranger.id)
    answer = await h.press(stranger, stranger.id, own.message_id, data, strict=False)
    assert (answer.text, answer.show_alert) == (h.r.t("ru", "error-not-in-game"), True)
    other = data.replace(f"h:{await h.game_id()}:", "h:999:")
    answer = await h.press(stranger, stranger.id, own.message_id, other, strict=False)
    assert (answer.text, answer.show_alert) == (h.r.t("ru", "error-no-game"), True)
    assert (await h.game()).to_dict() == before.to_dict()
    assert len(h.api.calls("editMessageText", chat_id=a.id)) == edits
    assert [c.method for c in h.api.calls(chat_id=stranger.id)] == ["sendMessage"]  # /help


# ---------------------------------------------------------------------- private chat closed


@pytest.mark.parametrize("harness", [{"players": 3, "started": {0, 1}, "seed": 3}], indirect=True)
async def test_player_who_never_opened_the_private_chat(harness: Harness) -> None:
    h = harness
    d = h.users[2]
    game_id = await h.new_game(players=3)
    notice = h.r.t("ru", "error-dm-closed", name=d.first_name)
    told = [m for m in h.api.messages(h.group.id) if m.plain_text == notice]
    assert len(told) == 1
    assert told[0].buttons == [
        {"text": h.r.t("ru", "btn-open-dm"), "url": f"https://t.me/uno_test_bot?start=g{game_id}"}
    ]
    # The others play on; the bot does not keep knocking on the closed chat.
    for _ in range(30):
        game = await h.game()
        if game.current_player == str(d.id):
            break
        mover = h.user(game.current_player)
        acts = await can_act(h, mover)
        assert acts is not None
        await h.act(mover, policy(acts) or "draw")
    assert (await h.game()).current_player == str(d.id)
    forbidden = [c for c in h.api.calls(chat_id=d.id) if c.status == 403]
    assert len(forbidden) == 1
    assert len([m for m in h.api.messages(h.group.id) if m.plain_text == notice]) == 1
    # The turn timer runs out: the timer loop draws and passes for them.
    size = len((await h.game()).hands[str(d.id)])
    for out in await h.svc.clock.run_due(math.inf):
        assert h.app is not None and h.app.ui is not None
        await h.app.ui.publish(out)
    await h.settle()
    game = await h.game()
    assert game.current_player != str(d.id) and len(game.hands[str(d.id)]) == size + 1
    # The deep link opens the chat: the hand arrives and works from then on.
    await h.open_hand(d)
    hand = await h.hand(d)
    assert f"({size + 1} карт" in hand.plain_text


@pytest.mark.parametrize("harness", [{"players": 3, "started": {0, 1}, "seed": 3}], indirect=True)
async def test_the_group_is_told_once_about_a_closed_private_chat_across_a_restart(
    harness: Harness,
) -> None:
    """The mark is stored with the game (`service.refs.once`): a restarted bot that finds the
    chat closed again does not repeat the notice."""
    h = harness
    d = h.users[2]
    await h.new_game(players=3)
    notice = h.r.t("ru", "error-dm-closed", name=d.first_name)
    assert [m.plain_text for m in h.api.messages(h.group.id)].count(notice) == 1
    await h.restart()
    for _ in range(30):
        game = await h.game()
        if game.current_player == str(d.id):
            break
        mover = h.user(game.current_player)
        acts = await can_act(h, mover)
        assert acts is not None
        await h.act(mover, policy(acts) or "draw")
    await h.settle()
    assert (await h.game()).current_player == str(d.id)
    forbidden = [c for c in h.api.calls(chat_id=d.id) if c.status == 403]
    assert len(forbidden) == 2  # once before the restart, once after it
    assert [m.plain_text for m in h.api.messages(h.group.id)].count(notice) == 1


# ---------------------------------------------------------------------- flood control


@pytest.mark.parametrize("harness", [{"players": 3}], indirect=True)
async def test_429_on_a_send_is_retried_after_retry_after(harness: Harness) -> None:
    h = harness
    h.api.fail_next("sendMessage", 429, retry_after=1, chat_id=h.group.id)
    await h.say(h.users[0], "/help")
    calls = h.api.calls("sendMessage", chat_id=h.group.id)
    assert [c.status for c in calls] == [429, 200]
    assert calls[1].params["text"] == h.r.t("ru", "help-text")
    assert calls[1].time - calls[0].time >= 1.0


@pytest.mark.parametrize("harness", [{"players": 3, "seed": 4}], indirect=True)
async def test_429_on_the_table_coalesces_edits(harness: Harness) -> None:
    h = harness
    await h.new_game(players=3)
    await h.install(position(h, ["r5 r7 g2", "r9 y1 y2", "r4 g8 g7"]))
    a, b, d = h.users
    # The table is a photo (its banner): edited by editMessageMedia.
    h.api.fail_next("editMessageMedia", 429, retry_after=1, chat_id=h.group.id)
    start = h.api.call_count
    await h.play(a, "r7")
    await h.play(b, "r9")
    await h.play(d, "r4")
    await h.settle()
    edits = [c for c in h.api.calls("editMessageMedia", chat_id=h.group.id)[-5:] if c.ok]
    after = [
        c for c in h.api._calls[start:] if c.is_("editMessageMedia") and c.chat_id == h.group.id
    ]
    assert [c.status for c in after] == [429, 200]
    table = await h.table()
    expected = await h.svc.queries.table(f"tg:{h.group.id}")
    assert expected.table is not None
    assert table.plain_text == h.r.table(expected.table, expected.names)
    assert edits[-1].params["media"]["caption"] == table.caption


@pytest.mark.parametrize(
    "harness", [{"players": 3, "seed": 8, "group_limit": RateLimit(8, 1.0, 5)}], indirect=True
)
async def test_group_stays_under_its_rate_limit_in_a_fast_game(harness: Harness) -> None:
    h = harness
    await h.new_game(players=3)
    # Coalesced: while the table's edit is on its way, the newer states replace one another,
    # and once it is done only the latest goes out, not one per move. (Counted while the
    # network holds that edit: a loaded machine may play slower than the limit, and then
    # nothing has to wait to be coalesced.)
    held = h.api.hold(TABLE_EDITS, [h.group.id])
    moves = await play_until(h, lambda g: g.move_no >= 10, h.users)
    await asyncio.wait_for(held.wait(), 30)
    before = len(table_edits(h))
    h.api.resume_holds()
    await h.settle()
    assert len(table_edits(h)) - before <= 2 < moves  # the one held, then the latest state
    await play_until(h, lambda g: g.move_no >= 40 or g.round_no > 1, h.users)
    await h.settle()
    times = sorted(c.time for c in group_calls(h))
    for i, t in enumerate(times):
        window = [x for x in times[i:] if x < t + 1.0]
        assert len(window) <= 8
    expected = await h.svc.queries.table(f"tg:{h.group.id}")
    assert expected.table is not None
    assert (await h.table()).plain_text == h.r.table(expected.table, expected.names)


def table_edits(h: Harness) -> list[Any]:
    return [c for c in group_calls(h) if c.method in TABLE_EDITS]


# ---------------------------------------------------------------------- restart


@pytest.mark.parametrize("harness", [{"players": 3, "seed": 21}], indirect=True)
async def test_restart_mid_round_and_finish_it(harness: Harness) -> None:
    h = harness
    await h.new_game(players=3)
    await play_until(h, lambda g: g.move_no >= 8, h.users)
    table_id = (await h.table()).message_id
    hands = {u.id: (await h.hand(u)).message_id for u in h.users}
    sent_before = len(h.api.calls("sendMessage", chat_id=h.group.id))
    await h.restart()
    await play_until(h, lambda g: g.round_no >= 2, h.users)
    await h.settle()
    assert (await h.table()).message_id == table_id
    # Hands move to the bottom of the private chat when a turn begins: each player still has
    # exactly one hand message, the one the game's refs name (the old ones were deleted).
    heading = h.r.t("ru", "hand-title", count=1).split("(")[0]
    for u in h.users:
        live = [m.message_id for m in h.api.messages(u.id) if heading in m.plain_text]
        assert live == [(await h.hand(u)).message_id]
        assert live[0] > hands[u.id]
    sent = [c.params["text"] for c in h.api.calls("sendMessage", chat_id=h.group.id)]
    assert len(sent) == sent_before + 1  # only the round's result is a new message
    assert "выигрывает раунд" in sent[-1]


# ---------------------------------------------------------------------- computer players


@pytest.mark.parametrize("harness", [{"players": 2, "seed": 2}], indirect=True)
async def test_computer_player_moves_through_the_timer_loop(harness: Harness) -> None:
    """The people play until the computer player's turn; then the test waits for the timer
    loop to publish its move (an event, not a sleep: a busy machine only makes it later)."""
    h = harness
    a, b = h.users
    await h.say(a, "/new")
    await h.say(b, "/join")
    await h.press_button(a, h.r.t("ru", "btn-addbot"))
    await h.say(a, "/start")
    assert h.app is not None
    timers = h.app.timers
    bot = "ai:1"
    for _ in range(60):
        # Read the count first: a move published after this read is waited for below.
        published = timers.published
        game = await h.game()
        if game.current_player == bot:
            await asyncio.wait_for(timers.wait_published(published + 1), timeout=30)
            break
        mover = h.user(game.current_player)
        acts = await can_act(h, mover)
        assert acts is not None
        await h.act(mover, policy(acts) or "draw")
    else:
        raise AssertionError("the computer player never got a turn")
    await h.settle()
    log = await h.storage.log(await h.game_id())  # type: ignore[union-attr]
    assert any(e.actor == bot for e in log)
    assert (await h.game()).current_player != bot
    assert h.r.t("ru", "bot-name", number=1) in (await h.table()).plain_text
