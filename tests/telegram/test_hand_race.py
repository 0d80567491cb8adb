"""A turn's hand is sent new once, whichever of several processes over one database publish it.

Webhook workers share the database and nothing else: each keeps its own message ids and its own
send queues. When a person's turn begins, the hand moves to the bottom of the private chat as a
new message; two workers that both publish that turn (the committing one, and a re-delivery of
its outbox entry) must not send it twice, and a worker whose remembered hand message was
replaced by another worker meanwhile must replace the stored one, not leave it shown beside its
own."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiogram import Bot
from aiogram.client.telegram import TelegramAPIServer
from aiogram.types import CallbackQuery, InlineKeyboardMarkup

from bot.delivery.publisher import store_sent
from bot.presentation import steps
from bot.presentation.buttons import BACK, HandKey, parse
from bot.service import Outcome, Service, User
from bot.service.views import HandView
from bot.storage import Storage
from bot.telegram import retry
from bot.telegram.callbacks import hand_data
from bot.telegram.chat_queue import NETWORK_ATTEMPTS
from bot.telegram.common import chat_key
from bot.telegram.keyboards import hand_keyboard
from bot.telegram.routers.play import hand_button
from bot.telegram.sender import Sender
from bot.telegram.session import BotSession
from bot.telegram.ui import TelegramUI
from tests.telegram.conftest import SETTLE_TIMEOUT, renderer
from tests.telegram.fake_bot_api import FakeBotAPI, FakeUser, StoredMessage
from tests.telegram.players import hand_acts
from tests.telegram.test_lobby_race import Worker as LobbyWorker

HAND_SENDS = ("sendMessage", "sendPhoto")


class Worker(LobbyWorker):
    """A process of `test_lobby_race`, with the bot's own session (it sends the prepared
    keyboards of photo edits, as the bot does)."""

    def __init__(self, api: FakeBotAPI, service: Service) -> None:
        session = BotSession(api=TelegramAPIServer.from_base(api.base_url))
        self.api = api
        self.sender = Sender(Bot(api.token, session=session), group_limit=None)
        self.ui = TelegramUI(service, renderer(), self.sender, api.bot.username or "")
        self.ui.converge = True  # as with other processes over one database


async def _first_choice(service: Service, me: User, hand: HandView, chat: str) -> Outcome:
    """`me` plays the first choice `hand` offers, at `hand`'s version (stale, if it is old)."""
    action = hand.action_for(hand.choices[0].key)[0]
    return await service.play.act(me, action, chat_key=chat, version=hand.version)


async def _turn_for(service: Service, chat: str, users: dict[str, FakeUser]) -> Outcome:
    """The next move of whoever is to act, as an outcome that begins another person's turn."""
    for _ in range(50):
        table = (await service.queries.table(chat)).table
        assert table is not None and table.current is not None
        user = users[table.current]
        me = User(str(user.id), user.first_name)
        hand = (await service.queries.hand(me, chat_key=chat)).hands[me.id]
        out = await _first_choice(service, me, hand, chat)
        assert out.ok, out.error
        if out.turn_began is not None and out.turn_began in out.hands:
            return out
    raise AssertionError("no turn began")


async def _press(
    api: FakeBotAPI,
    worker: Worker,
    service: Service,
    player: FakeUser,
    message_id: int,
    data: str,
) -> None:
    """`player` presses a button with `data` on their message `message_id`, and `worker`'s
    handler takes the press (the fake's own check of the button is off: stale data too)."""
    api.press(player, player.id, message_id, data, strict=False)
    payload = api.last_update()["callback_query"]
    callback = CallbackQuery.model_validate(payload).as_(worker.sender.bot)
    key = parse(data)
    assert isinstance(key, HandKey)
    await hand_button(callback, key, service, worker.ui, "ru")


async def _unstored_hand(
    api: FakeBotAPI, worker: Worker, player: FakeUser, view: HandView
) -> StoredMessage:
    """A hand message `worker` sent new with `view`'s buttons, its id not stored (the process
    was killed first, or has not stored it yet)."""
    keyboard = hand_keyboard(renderer(), view)
    assert keyboard is not None
    await worker.sender.bot.send_message(
        player.id, "hand", reply_markup=InlineKeyboardMarkup.model_validate_json(keyboard)
    )
    return api.last_message(player.id)


def _hand_sends(api: FakeBotAPI, user: FakeUser, since: int) -> list[int]:
    return [
        c.result["message_id"]
        for c in api.calls(chat_id=user.id)[since:]
        if c.method in HAND_SENDS and c.ok
    ]


Setup = tuple[Service, str, dict[str, FakeUser], Worker, Worker]


@pytest.fixture
async def two_workers(api: FakeBotAPI, tmp_path: Path) -> AsyncIterator[Setup]:
    """Two processes over one database; the first opened and dealt a game of two people."""
    storage = await Storage.open(tmp_path / "uno.sqlite3")
    service = Service(storage, seed=lambda: 1)
    first, second = Worker(api, service), Worker(api, service)
    try:
        group, users = await first.deal_for_two(service)
        yield service, chat_key(group.id), users, first, second
    finally:
        for worker in (first, second):
            await worker.close()
        await storage.close()


async def test_a_turn_published_by_two_processes_sends_its_hand_new_once(
    api: FakeBotAPI, two_workers: Setup
) -> None:
    service, chat, users, first, second = two_workers
    out = await _turn_for(service, chat, users)
    player = users[out.turn_began]
    since = len(api.calls(chat_id=player.id))
    # The committing process and another one (a re-delivery of the same entry) publish it.
    await first.publish(out)
    await second.publish(out)
    for worker in (first, second):
        await worker.settle()
    sent = _hand_sends(api, player, since)
    assert len(sent) == 1, f"the turn's hand sent new {len(sent)} times: {sent}"
    live = [m for m in api.messages(player.id) if m.from_bot and m.buttons]
    assert [m.message_id for m in live] == sent


async def test_a_turn_replaces_the_hand_another_process_sent_since(
    api: FakeBotAPI, two_workers: Setup
) -> None:
    service, chat, users, first, second = two_workers
    # The second process shows everyone's hand once (it remembers those message ids).
    for user in users.values():
        me = User(str(user.id), user.first_name)
        view = (await service.queries.hand(me, chat_key=chat)).hands[me.id]
        await second.ui.show_hand(view, {})
    await second.settle()
    # Turns go on, published by the first process: each sends the hand new, the old deleted.
    for _ in range(2):
        await first.publish(await _turn_for(service, chat, users))
        await first.settle()
    # A turn published by the second process, which remembers hand messages deleted since.
    out = await _turn_for(service, chat, users)
    assert out.table is not None
    await second.publish(out)
    for worker in (first, second):
        await worker.settle()
    for user in users.values():
        live = [m for m in api.messages(user.id) if m.from_bot]
        stored = await service.refs.get(out.table.game_id, f"tg:hand:{user.id}")
        assert [m.message_id for m in live] == [int(stored or 0)], (
            f"{user.first_name}: hand messages shown {[m.message_id for m in live]}, "
            f"stored {stored}"
        )


async def test_a_new_hand_queued_for_an_earlier_turn_is_not_sent_beside_another_process_s(
    api: FakeBotAPI, two_workers: Setup
) -> None:
    """A process's new hand message for one turn waits in its queue (a call to that chat is
    out) while the person's next turn begins, claimed and sent new by another process. When
    the first process publishes that next turn too, its queued message is only an edit now:
    the person gets one new message, not two."""
    service, chat, users, first, second = two_workers
    earlier = await _turn_for(service, chat, users)
    player = users[str(earlier.turn_began)]
    # A call of the second process to that private chat is out, unanswered.
    held = api.hold(["editMessageReplyMarkup"], [player.id])
    hand = api.last_message(player.id)
    second.sender.remove_keyboard(player.id, hand.message_id)
    await asyncio.wait_for(held.wait(), SETTLE_TIMEOUT)
    await second.publish(earlier)  # this turn's new hand queues behind it
    # The person plays, the other one too: their turn again, published by the first process.
    later = earlier
    while later is earlier or later.turn_began != earlier.turn_began:
        later = await _turn_for(service, chat, users)
        await first.publish(later)
        await first.settle()
    since = len(api.calls(chat_id=player.id))
    await second.publish(later)  # (a re-delivery of that turn's entry)
    api.resume_holds()
    for worker in (first, second):
        await worker.settle()
    sent = _hand_sends(api, player, since)
    assert sent == [], f"the second process sent the hand new as well: {sent}"
    live = [m.message_id for m in api.messages(player.id) if m.from_bot and m.buttons]
    assert later.table is not None
    stored = await service.refs.get(later.table.game_id, f"tg:hand:{player.id}")
    assert live == [int(stored or 0)], f"hand messages with buttons {live}, stored {stored}"


async def test_an_edit_refused_while_the_hand_was_taken_over_gives_up_the_old_message(
    api: FakeBotAPI, two_workers: Setup
) -> None:
    """The second process edits a hand message the first one is replacing: the edit goes out
    for the old message, the first sends the turn's hand new and deletes the old one, and the
    second, catching up with the game, takes over the new message before the refusal of its
    edit ("message to edit not found") comes back. That refusal is about the old message
    only: the new one stays the hand, edited, and nothing is sent new a second time (the
    second process gave up the new id and sent the hand again, twice in the chat)."""
    service, chat, users, first, second = two_workers
    # The second process publishes a move: the mover's hand is edited, and that edit is held
    # on its way (the machine is busy), answered only once the others went on.
    out = await _turn_for(service, chat, users)
    assert out.table is not None
    player = next(users[p] for p in out.hands if p != out.turn_began)
    held = api.hold(["editMessageText", "editMessageMedia"], [player.id])
    await second.publish(out)
    await asyncio.wait_for(held.wait(), SETTLE_TIMEOUT)
    since = len(api.calls(chat_id=player.id))
    # The first process publishes the next turn, the player's: their hand is sent new (not
    # held) and stored, and the old message deleted.
    out = await _turn_for(service, chat, users)
    assert out.turn_began == str(player.id)
    await first.publish(out)
    await first.settle()
    stored = await service.refs.get(out.table.game_id, f"tg:hand:{player.id}")
    # The player moves; the second process publishes that, catching up: it takes over the
    # stored message (its own edit of the old one is still out).
    out = await _turn_for(service, chat, users)
    await second.publish(out)
    api.resume_holds()
    for worker in (first, second):
        await worker.settle()
    sent = _hand_sends(api, player, since)
    assert len(sent) == 1, f"the hand was sent new {len(sent)} times: {sent}"
    live = [m.message_id for m in api.messages(player.id) if m.from_bot]
    now = await service.refs.get(out.table.game_id, f"tg:hand:{player.id}")
    assert live == [int(stored or 0)] and now == stored, (live, stored, now)


async def test_two_turns_sent_new_at_once_by_two_processes_leave_one_hand(
    api: FakeBotAPI, two_workers: Setup
) -> None:
    """Two turns of one player, published at once by two processes: each sends the hand new
    in place of the message it read as stored, the same one (neither had stored its own yet).
    The one that stores its id second learns of the other's message and deletes it: one hand
    stays shown, not two (the older one with buttons that only refuse)."""
    service, chat, users, first, second = two_workers
    out = await _turn_for(service, chat, users)
    player = users[out.turn_began or ""]
    # The first process sends the turn's hand new; Telegram takes it only later.
    held = api.hold(["sendMessage", "sendPhoto"], [player.id])
    await first.publish(out)
    await asyncio.wait_for(held.wait(), SETTLE_TIMEOUT)
    held.clear()
    # The player's next turn, published by the second process, which reads the same stored
    # hand message and sends the hand new too.
    out = await _turn_for(service, chat, users)
    while out.turn_began != str(player.id):
        out = await _turn_for(service, chat, users)
    await second.publish(out)
    await asyncio.wait_for(held.wait(), SETTLE_TIMEOUT)
    api.resume_holds()
    for worker in (first, second):
        await worker.settle()
    assert out.table is not None
    stored = await service.refs.get(out.table.game_id, f"tg:hand:{player.id}")
    live = [m for m in api.messages(player.id) if m.from_bot]
    assert [m.message_id for m in live] == [int(stored or 0)], (
        f"hand messages shown {[m.message_id for m in live]}, stored {stored}"
    )
    me = User(str(player.id), player.first_name)
    latest = (await service.queries.hand(me, chat_key=chat)).hands[me.id]
    assert all(f":{latest.version}:" in str(b["callback_data"]) for b in live[0].buttons)


async def _sent_not_stored(
    api: FakeBotAPI, worker: Worker, out: Outcome, monkeypatch: pytest.MonkeyPatch
) -> asyncio.Event:
    """`worker` publishes `out` and sends the hand new, and stores its id once the event given
    back is set (a process slow to reach the database)."""
    games = worker.ui.hands.games
    store = games.sent
    storing, go_on = asyncio.Event(), asyncio.Event()

    async def slow(game: int, key: str, message_id: int) -> int | None:
        storing.set()
        await go_on.wait()
        return await store(game, key, message_id)

    monkeypatch.setattr(games, "sent", slow)
    await worker.publish(out)
    await asyncio.wait_for(storing.wait(), SETTLE_TIMEOUT)
    return go_on


async def _the_one_hand(
    api: FakeBotAPI, service: Service, chat: str, player: FakeUser, game_id: int, message_id: int
) -> None:
    """`message_id` is the player's one hand message: the only one left, the one stored, and it
    shows the hand in force."""
    live = [m.message_id for m in api.messages(player.id) if m.from_bot]
    assert live == [message_id], f"hand messages {live}, the one expected {message_id}"
    assert await service.refs.get(game_id, f"tg:hand:{player.id}") == str(message_id)
    me = User(str(player.id), player.first_name)
    now = (await service.queries.hand(me, chat_key=chat)).hands[me.id]
    assert _shows_hand_in_force(api, player, now)


async def test_a_hand_stored_late_gives_way_to_the_newer_one_stored_meanwhile(
    api: FakeBotAPI, two_workers: Setup, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first process sends a turn's hand new and is slow to store its id; meanwhile the
    second sends the player's next turn's hand new and stores it. The newer message, at the
    bottom of the chat, stays the hand; the first's goes, and the first shows its state on the
    newer one. Before, the late store replaced the newer message, which was deleted: the hand
    moved up the chat, above anything sent between the two (a hand without its buttons)."""
    service, chat, users, first, second = two_workers
    out = await _turn_for(service, chat, users)
    player = users[out.turn_began or ""]
    me = User(str(player.id), player.first_name)
    assert out.table is not None
    game_id = out.table.game_id
    go_on = await _sent_not_stored(api, first, out, monkeypatch)
    late = api.last_message(player.id).message_id
    turn = await _turn_for(service, chat, users)
    while turn.turn_began != me.id:
        turn = await _turn_for(service, chat, users)
    await second.publish(turn)
    await second.settle()
    newer = api.last_message(player.id).message_id
    assert newer > late
    go_on.set()
    for worker in (first, second):
        await worker.settle()
    await _the_one_hand(api, service, chat, player, game_id, newer)


async def test_a_hand_a_press_made_the_hand_before_its_sender_stored_it_stays(
    api: FakeBotAPI, two_workers: Setup, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first process sends a turn's hand new; before it stores the id, the player presses
    it, stale, and the second process takes the press: the new message is the hand, and the
    second stores it. The first's store then finds its own message stored and keeps it."""
    service, chat, users, first, second = two_workers
    out = await _turn_for(service, chat, users)
    player = users[out.turn_began or ""]
    assert out.table is not None
    game_id = out.table.game_id
    go_on = await _sent_not_stored(api, first, out, monkeypatch)
    new = api.last_message(player.id)
    await _press(api, second, service, player, new.message_id, hand_data(game_id, 0, "draw"))
    await second.settle()
    go_on.set()
    for worker in (first, second):
        await worker.settle()
    await _the_one_hand(api, service, chat, player, game_id, new.message_id)


async def test_a_stale_press_on_a_hand_just_sent_new_keeps_its_buttons(
    api: FakeBotAPI, two_workers: Setup
) -> None:
    """The first process sends a turn's hand new; the player presses it at once, before the
    first process deleted the old message, with a version gone stale meanwhile, and the
    second process takes the press. It knows only the old message: the pressed one is newer,
    the hand another process has just sent, and keeps its buttons (taking them away, while the
    second process's own update went to the old message, left the player nothing to press)."""
    service, chat, users, first, second = two_workers
    out = await _turn_for(service, chat, users)
    player = users[out.turn_began or ""]
    me = User(str(player.id), player.first_name)
    assert out.table is not None
    # The second process shows the player's hand: it knows that message.
    await second.ui.show_hand((await service.queries.hand(me, chat_key=chat)).hands[me.id], {})
    await second.settle()
    # The first process publishes the turn: the new message goes out, the old one's deletion
    # is held on its way.
    held = api.hold(["deleteMessage"], [player.id])
    await first.publish(out)
    await asyncio.wait_for(held.wait(), SETTLE_TIMEOUT)
    new = api.last_message(player.id)
    # A press on the new message with the version of the hand before this turn (stale).
    data = hand_data(out.table.game_id, 0, "draw")
    await _press(api, second, service, player, new.message_id, data)
    api.resume_holds()
    for worker in (first, second):
        await worker.settle()
    stored = await service.refs.get(out.table.game_id, f"tg:hand:{player.id}")
    live = [m for m in api.messages(player.id) if m.from_bot]
    assert [m.message_id for m in live] == [new.message_id] and stored == str(new.message_id)
    assert live[0].buttons, "the player's hand lost its buttons"


async def test_a_hand_sent_by_a_process_killed_before_it_stored_it_is_shown_again_when_pressed(
    api: FakeBotAPI, two_workers: Setup
) -> None:
    """A process sent a turn's hand new and was killed before it stored the message's id: that
    message, at the bottom of the private chat, keeps the buttons of its turn while the game
    goes on. A press on it, refused as stale, makes it the hand again: it shows the hand in
    force, and the stored (older) hand message loses its buttons. Before, it stayed as it was,
    pressed in vain until the turn timer ran out (seen in the multi-process test)."""
    service, chat, users, first, second = two_workers
    out = await _turn_for(service, chat, users)
    player = users[out.turn_began or ""]
    me = User(str(player.id), player.first_name)
    assert out.table is not None
    game_id = out.table.game_id
    await second.publish(out)
    await second.settle()
    stored = int(await service.refs.get(game_id, f"tg:hand:{player.id}") or 0)
    # The killed process's message: the same turn's hand, sent new, its id never stored.
    orphan = await _unstored_hand(api, first, player, out.hands[me.id])
    pressable = hand_acts(orphan)
    # The game goes on (the player moves), published by the second process.
    hand = (await service.queries.hand(me, chat_key=chat)).hands[me.id]
    moved = await _first_choice(service, me, hand, chat)
    assert moved.ok, moved.error
    await second.publish(moved)
    await second.settle()
    assert api.last_message(player.id).message_id == orphan.message_id
    assert hand_acts(api.last_message(player.id)) == pressable, "the orphan changed"
    # The player presses the orphan's buttons: refused, stale.
    data = next(iter(pressable.values()))
    await _press(api, second, service, player, orphan.message_id, data)
    await second.settle()
    now = (await service.queries.hand(me, chat_key=chat)).hands[me.id]
    shown = api.last_message(player.id)
    assert shown.message_id == orphan.message_id
    in_force = hand_keyboard(renderer(), now)
    wanted = [] if in_force is None else json.loads(in_force)["inline_keyboard"]
    assert shown.buttons == [b for row in wanted for b in row], "the pressed hand is stale"
    assert hand_acts(shown) != pressable
    assert not next(m for m in api.messages(player.id) if m.message_id == stored).buttons
    assert await service.refs.get(game_id, f"tg:hand:{player.id}") == str(orphan.message_id)


async def test_a_stale_press_keeps_the_hand_another_process_stores_meanwhile(
    api: FakeBotAPI, two_workers: Setup, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stale press on a hand message newer than the stored one makes it the hand; while the
    process taking the press stores it, another process sends the hand new and stores that
    one first. The newest message stays the hand and shows it, the others lose their buttons.
    Before, the pressed one was stored over it: the newest message kept its stale buttons, and
    no process would edit it again."""
    service, chat, users, first, second = two_workers
    out = await _turn_for(service, chat, users)
    player = users[out.turn_began or ""]
    me = User(str(player.id), player.first_name)
    assert out.table is not None
    game_id, key = out.table.game_id, f"tg:hand:{player.id}"
    await second.publish(out)
    await second.settle()
    orphan = await _unstored_hand(api, first, player, out.hands[me.id])
    pressable = hand_acts(orphan)
    moved = await _first_choice(service, me, out.hands[me.id], chat)
    assert moved.ok, moved.error
    await second.publish(moved)
    await second.settle()
    games = second.ui.hands.games
    read = games.stored_id
    newest: list[int] = []

    async def read_then_another_stores(game: int, ref: str) -> int | None:
        """The stored id as read, after which the first process sends the hand new and
        stores it (once)."""
        found = await read(game, ref)
        if not newest:
            newest.append((await _unstored_hand(api, first, player, out.hands[me.id])).message_id)
            await store_sent(service.refs, game, ref, str(newest[0]))
        return found

    monkeypatch.setattr(games, "stored_id", read_then_another_stores)
    await _press(api, second, service, player, orphan.message_id, next(iter(pressable.values())))
    for worker in (first, second):
        await worker.settle()
    assert await service.refs.get(game_id, key) == str(newest[0])
    others = [m.message_id for m in api.messages(player.id) if m.from_bot and m.buttons]
    assert set(others) <= set(newest), f"older hands with buttons: {others}"
    now = (await service.queries.hand(me, chat_key=chat)).hands[me.id]
    assert _shows_hand_in_force(api, player, now)


async def _older_edit_lands_late(
    api: FakeBotAPI, service: Service, chat: str, users: dict[str, FakeUser], second: Worker
) -> tuple[FakeUser, HandView, Outcome]:
    """The player's turn, then their move, both published by the second process (which so
    remembers showing the newer hand); then the first process's edit of the older hand (its
    turn's, with its buttons) lands on that message: it waited on its way, and that process
    was killed before it looked for a newer state. Returns the player, the older hand and the
    outcome of the move."""
    out = await _turn_for(service, chat, users)
    player = users[out.turn_began or ""]
    me = User(str(player.id), player.first_name)
    await second.publish(out)
    await second.settle()
    older = out.hands[me.id]
    moved = await _first_choice(service, me, older, chat)
    assert moved.ok, moved.error
    await second.publish(moved)
    await second.settle()
    hand = api.last_message(player.id)
    keyboard = hand_keyboard(renderer(), older)
    assert keyboard is not None
    await second.sender.bot.edit_message_text(
        chat_id=player.id,
        message_id=hand.message_id,
        text="older hand",
        reply_markup=InlineKeyboardMarkup.model_validate_json(keyboard),
    )
    return player, older, moved


def _shows_hand_in_force(api: FakeBotAPI, player: FakeUser, now: HandView) -> bool:
    shown = api.last_message(player.id)
    in_force = hand_keyboard(renderer(), now)
    wanted = [] if in_force is None else json.loads(in_force)["inline_keyboard"]
    return shown.buttons == [b for row in wanted for b in row]


async def test_a_stale_step_button_shows_the_hand_on_a_message_another_process_edited_since(
    api: FakeBotAPI, two_workers: Setup
) -> None:
    """A hand message shows an older state than the process taking the press remembers
    showing there (another process's edit landed after its own). The player presses a step's
    button of that older state (a wild's colors): refused as stale, and the hand in force is
    shown there. Before, the process skipped the edit as unchanged, and the stale buttons
    stayed, pressed in vain until the turn timer ran out (seen in the multi-process test)."""
    service, chat, users, _first, second = two_workers
    player, older, _ = await _older_edit_lands_late(api, service, chat, users, second)
    message = api.last_message(player.id)
    await _press(
        api, second, service, player, message.message_id,
        hand_data(older.game_id, older.version, "pick play wild"),
    )  # fmt: skip
    await second.settle()
    me = User(str(player.id), player.first_name)
    now = (await service.queries.hand(me, chat_key=chat)).hands[me.id]
    assert now.version != older.version
    assert api.last_message(player.id).message_id == message.message_id
    assert _shows_hand_in_force(api, player, now), "the pressed hand is still the older one"


async def test_back_from_a_step_another_process_showed_shows_the_hand_again(
    api: FakeBotAPI, two_workers: Setup
) -> None:
    """The player opens a wild's colors through one process and goes back through another,
    which remembers showing the hand's first level on that message: it shows it again. Before,
    it skipped the edit as unchanged, and the colors stayed where the hand should be."""
    service, chat, users, first, second = two_workers
    out = await _turn_for(service, chat, users)
    player = users[out.turn_began or ""]
    view = out.hands[str(player.id)]
    await second.publish(out)
    await second.settle()
    message = api.last_message(player.id)
    first_level = hand_acts(message)
    pick = next(option.act for option in steps.options(view) if option.opens)
    await _press(
        api, first, service, player, message.message_id,
        hand_data(view.game_id, view.version, pick),
    )  # fmt: skip
    await first.settle()
    assert hand_acts(api.last_message(player.id)) != first_level, "no colors shown"
    await _press(
        api, second, service, player, message.message_id,
        hand_data(view.game_id, view.version, BACK),
    )  # fmt: skip
    await second.settle()
    assert api.last_message(player.id).message_id == message.message_id
    assert _shows_hand_in_force(api, player, view), "the colors are still shown"


async def test_a_stale_press_on_an_older_hand_sent_late_shows_the_hand_in_force(
    api: FakeBotAPI, two_workers: Setup
) -> None:
    """The first process's message of an earlier turn lands late, below the hand the second
    process sent for the player's newest turn. The player presses it, stale; the second
    process takes the press with the hand read before the newest commit. The pressed message
    is the hand from then on (the lowest in the chat), and it shows the hand in force."""
    service, chat, users, first, second = two_workers
    out = await _turn_for(service, chat, users)
    player = users[out.turn_began or ""]
    me = User(str(player.id), player.first_name)
    assert out.table is not None
    game_id = out.table.game_id
    await second.publish(out)
    await second.settle()
    older = out.hands[me.id]
    # The player moves; the press that follows, stale, is refused with the hand as read now.
    moved = await _first_choice(service, me, older, chat)
    assert moved.ok, moved.error
    refused = await _first_choice(service, me, older, chat)
    assert not refused.ok and me.id in refused.hands
    # The player's next turn, published by the second process: its hand sent new.
    turn = moved
    while turn.turn_began != me.id:
        turn = await _turn_for(service, chat, users)
    await second.publish(turn)
    await second.settle()
    newest = api.last_message(player.id).message_id
    # The first process's message of the earlier turn, its id not stored yet.
    pressed = await _unstored_hand(api, first, player, older)
    assert pressed.message_id > newest
    # The second process takes the stale press.
    await second.ui.hands.hand_pressed(game_id, me.id, pressed.message_id)
    await second.ui.publish(refused)
    await second.settle()
    now = (await service.queries.hand(me, chat_key=chat)).hands[me.id]
    assert _shows_hand_in_force(api, player, now), api.last_message(player.id).plain_text


async def test_a_hand_whose_resend_was_given_up_is_sent_with_the_next_state(
    api: FakeBotAPI, two_workers: Setup, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The player deleted their hand message; the process that found it gone could not send
    it new (Telegram failed every try) and gave up. The next state of the game sends it new:
    nobody else will (before, the process took the stored message, which it had given up, for
    one another process was still sending, and showed nothing until a press or a timer)."""
    monkeypatch.setattr(retry, "FIRST_WAIT", 0.001)  # the tries, not their pauses, matter here
    service, chat, users, _first, second = two_workers
    out = await _turn_for(service, chat, users)
    player = users[out.turn_began or ""]
    me = User(str(player.id), player.first_name)
    await second.publish(out)
    await second.settle()
    api.message(player.id, api.last_message(player.id).message_id).deleted = True  # by them
    api.fail_next("sendMessage", 502, count=NETWORK_ATTEMPTS, chat_id=player.id)
    hand = out.hands[me.id]
    moved = await _first_choice(service, me, hand, chat)
    assert moved.ok, moved.error
    await second.publish(moved)
    await second.settle()
    assert not [m for m in api.messages(player.id) if m.from_bot], "the resend was not given up"
    turn = moved
    while turn.turn_began != me.id:
        turn = await _turn_for(service, chat, users)
        await second.publish(turn)
    await second.settle()
    now = (await service.queries.hand(me, chat_key=chat)).hands[me.id]
    assert _shows_hand_in_force(api, player, now)


async def test_a_table_whose_resend_was_given_up_is_sent_with_the_next_state(
    api: FakeBotAPI, two_workers: Setup, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same for the group's table: deleted there, its resend given up, the next state of
    the game sends it new."""
    monkeypatch.setattr(retry, "FIRST_WAIT", 0.001)
    service, chat, users, _first, second = two_workers
    group = int(chat.split(":")[-1])
    out = await _turn_for(service, chat, users)
    await second.publish(out)
    await second.settle()
    table = api.last_message(group).message_id
    api.message(group, table).deleted = True  # by an admin
    for method in ("sendMessage", "sendPhoto"):
        api.fail_next(method, 502, count=NETWORK_ATTEMPTS, chat_id=group)
    await second.publish(await _turn_for(service, chat, users))
    await second.settle()
    assert api.last_message(group).message_id < table, "the resend was not given up"
    await second.publish(await _turn_for(service, chat, users))
    await second.settle()
    now = await service.queries.table(chat)
    assert now.table is not None
    assert api.last_message(group).plain_text == renderer().table(now.table, now.names)
