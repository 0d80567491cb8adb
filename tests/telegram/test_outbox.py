"""The transactional outbox on Telegram (issue 15), end to end against the fake Bot API.

Every commit a chat sees writes an entry that the adapter marks sent once its messages went out;
an entry delivered again shows the table and the hands from the latest state and skips the
results it already posted; a send that keeps failing comes back later and is then finished; two
processes' senders keep one group within its budget together. (The crash between a commit and
its sends, with a real SIGKILL, is in test_kill.py.)
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Awaitable, Callable, Sequence
from contextlib import closing
from pathlib import Path
from typing import Any

from aiogram import Bot
from aiogram.client.session.middlewares.base import BaseRequestMiddleware, NextRequestMiddlewareType
from aiogram.methods import SendMessage, TelegramMethod
from aiogram.methods.base import Response

from bot.delivery.outbox_loop import Delivery, Send
from bot.service import Outcome, Service, User
from bot.storage import SendSlot, Storage
from bot.telegram.app import TelegramApp
from bot.telegram.chat_queue import NETWORK_ATTEMPTS
from bot.telegram.common import PREFIX, chat_key
from bot.telegram.sender import RateLimit
from tests.telegram.conftest import SETTLE_TIMEOUT, Harness, renderer
from tests.telegram.fake_bot_api import FakeBotAPI
from tests.telegram.test_hand_race import Worker as BotWorker
from tests.telegram.test_hand_race import _older_edit_lands_late, _shows_hand_in_force, _turn_for
from tests.telegram.test_lobby_race import Worker


def outbox_rows(database: Path) -> list[tuple[int, float | None, int]]:
    """(id, sent_at, attempts) of every outbox entry, from the database file itself."""
    with closing(sqlite3.connect(database)) as db:
        return db.execute("SELECT id, sent_at, attempts FROM outbox ORDER BY id").fetchall()


def unsend(database: Path, entry_id: int) -> None:
    """Make an entry look as if its process had died before marking it sent."""
    with closing(sqlite3.connect(database)) as db, db:
        db.execute("UPDATE outbox SET sent_at = NULL, claimed_until = 0 WHERE id = ?", (entry_id,))


def group_sends(h: Harness) -> list[str]:
    return [str(c.params["text"]) for c in h.api.calls("sendMessage", chat_id=h.group.id) if c.ok]


async def test_every_commit_writes_an_entry_marked_sent_once_shown(harness: Harness) -> None:
    h = harness
    await h.new_game(players=3)
    await h.say(h.users[2], "/leave")
    rows = outbox_rows(h.db_path)
    # /new, /join twice, /start, /leave: each a commit the group sees
    assert len(rows) == 5
    assert all(sent is not None and attempts == 0 for _, sent, attempts in rows)


async def test_a_redelivery_does_not_post_the_results_twice(harness: Harness) -> None:
    h = harness
    await h.new_game(players=3)
    before = len(group_sends(h))
    await h.say(h.users[2], "/leave")  # someone leaving is announced in the group
    sends = group_sends(h)
    assert len(sends) == before + 1
    announcement = sends[-1]
    table = (await h.table()).plain_text
    assert h.app is not None
    delivery = h.app.delivery
    [*_, (entry, _, _)] = outbox_rows(h.db_path)

    unsend(h.db_path, entry)  # as if the process had stopped before marking it sent
    finished = delivery.finished
    delivery.wake()
    await delivery.wait_finished(finished + 1)
    await h.settle()
    assert group_sends(h) == sends  # the results were recorded as sent: not posted again
    assert (await h.table()).plain_text == table
    assert outbox_rows(h.db_path)[-1][1] is not None

    # Without that record the same entry posts them again: the record is what prevents it.
    assert h.storage is not None
    game = await h.game_id()
    refs = await h.storage.refs(game)
    assert [k for k in refs if k.startswith(f"tg:sent:{entry}:")] == [f"tg:sent:{entry}:results"]
    with closing(sqlite3.connect(h.db_path)) as db, db:
        db.execute("DELETE FROM game_refs WHERE key LIKE 'tg:sent:%'")
    unsend(h.db_path, entry)
    delivery.wake()
    await delivery.wait_finished(finished + 2)
    await h.settle()
    assert group_sends(h) == [*sends, announcement]


async def test_a_failing_send_is_retried_later_then_finished(
    make_harness: Callable[..., Harness],
) -> None:
    now = [1_000.0]
    h = make_harness(players=3, clock=lambda: now[0])
    await h.start()
    try:
        assert h.app is not None
        delivery, sender = h.app.delivery, h.app.sender

        async def instant(_seconds: float) -> None:  # the sender's network backoff, not waited
            await asyncio.sleep(0)

        sender.sleep = instant
        await h.new_game(players=3)
        sends = group_sends(h)
        # The results fail every time the sender tries: it gives up, the entry comes back.
        h.api.fail_next("sendMessage", 502, count=NETWORK_ATTEMPTS, chat_id=h.group.id)
        await h.say(h.users[2], "/leave")
        assert delivery.retried == 1
        assert group_sends(h) == sends
        entry, sent, attempts = outbox_rows(h.db_path)[-1]
        assert (sent, attempts) == (None, 1)

        finished = delivery.finished
        delivery.wake()  # not due yet: nothing happens
        await h.settle()
        assert group_sends(h) == sends and delivery.finished == finished

        now[0] += 5.0  # past the backoff
        delivery.wake()
        await delivery.wait_finished(finished + 1)
        await h.settle()
        [announcement] = group_sends(h)[len(sends) :]
        assert h.users[2].first_name in announcement
        assert outbox_rows(h.db_path)[-1][:2] == (entry, outbox_rows(h.db_path)[-1][1])
        assert outbox_rows(h.db_path)[-1][1] is not None
    finally:
        await h.stop()


class _Calls(BaseRequestMiddleware):
    """Notes the sendMessage calls a bot makes, and when (by `clock`) each went out."""

    def __init__(self, calls: list[tuple[str, float]], clock: Callable[[], float]) -> None:
        self.calls = calls
        self.clock = clock

    async def __call__(
        self,
        make_request: NextRequestMiddlewareType[Any],
        bot: Bot,
        method: TelegramMethod[Any],
    ) -> Response[Any]:
        if isinstance(method, SendMessage):
            self.calls.append((method.text, self.clock()))
        return await make_request(bot, method)


def _recording(service: Service, taken: list[SendSlot]) -> None:
    """Note every slot of the shared budget the service hands out."""
    take = service.send_budget.take_send_slot

    async def recorded(
        chat_key: str, count: int, period: float, flight: float, reserve: int = 0
    ) -> SendSlot | float:
        got = await take(chat_key, count, period, flight, reserve)
        if isinstance(got, SendSlot):
            taken.append(got)
        return got

    service.send_budget.take_send_slot = recorded  # type: ignore[method-assign]


async def test_two_processes_keep_a_group_within_its_budget_together(
    api: FakeBotAPI, tmp_path: Path
) -> None:
    """Two bot processes (two storages on one database, two apps with the production wiring)
    each post 30 messages to one group at once: every call takes a slot of the budget the
    database keeps, and in no 60-second window of the fake clock do more than 20 go out,
    though each process alone would allow 20 a minute."""
    now = [0.0]

    async def sleep(seconds: float) -> None:  # fake time: waiting moves the clock
        now[0] += seconds
        await asyncio.sleep(0)

    database = tmp_path / "uno.sqlite3"
    group = api.new_group("Группа")
    calls: list[tuple[str, float]] = []
    taken: list[SendSlot] = []
    apps: list[TelegramApp] = []
    storages = [await Storage.open(database, exclusive=False) for _ in range(2)]
    try:
        for storage in storages:
            bot = api.make_bot()
            bot.session.middleware(_Calls(calls, lambda: now[0]))
            service = Service(storage, clock=lambda: now[0])
            _recording(service, taken)
            app = TelegramApp(bot, service, renderer(), group_limit=RateLimit(), freeze=False)
            app.sender.clock, app.sender.sleep = (lambda: now[0]), sleep
            apps.append(app)
        futures: list[Awaitable[Any]] = [
            app.sender.send(group.id, f"{n}: {k}") for k in range(30) for n, app in enumerate(apps)
        ]
        results = await asyncio.gather(*futures)
    finally:
        for app in apps:
            await app.close()
        for storage in storages:
            await storage.close()
    assert all(r is not None for r in results)
    assert len(calls) == len(taken) == 60  # one slot per call, none taken in vain
    times = [at for _, at in calls]
    for t in times:  # (less a hair for the float sums of the fake clock)
        assert sum(1 for u in times if t <= u < t + 60.0 - 1e-9) <= 20
    assert max(times) >= 120.0  # 60 messages at 20 a minute take two minutes at least


async def test_a_lobby_from_the_outbox_names_its_chat_in_the_hands(
    api: FakeBotAPI, tmp_path: Path
) -> None:
    """The process that opened the lobby died before it stored the group's title (the lobby
    then went out from the outbox, shown by another process): the hands dealt later still
    begin with the group's name, asked of Telegram once."""
    storage = await Storage.open(tmp_path / "uno.sqlite3")
    service = Service(storage, seed=lambda: 1)
    worker = Worker(api, service)  # shows what was committed, and never saw a group message
    try:
        group, users = await worker.deal_for_two(service)
        title = renderer().t("ru", "tg-hand-chat", chat="Вечер карт")
        for user in users.values():
            assert api.last_message(user.id).plain_text.startswith(title)
        assert len(api.calls("getChat", chat_id=group.id)) == 1
    finally:
        await worker.close()
        await storage.close()


async def test_an_entry_is_finished_only_once_its_process_looked_for_a_newer_table(
    api: FakeBotAPI, tmp_path: Path
) -> None:
    """With other processes editing the same table, the process that shows a commit looks for
    a newer committed state once its edit landed (its edit may have overwritten one). The
    commit's outbox entry is finished only after that look: a process killed in between leaves
    the entry to another process, which shows the latest state. Finished with the edit, a
    finished game's table would stay stale for good."""
    database = tmp_path / "uno.sqlite3"
    storage = await Storage.open(database)
    service = Service(storage, seed=lambda: 1)
    worker = BotWorker(api, service)
    worker.ui.delivery = delivery = Delivery(service.outbox, PREFIX)  # entries from now on
    try:
        group, users = await worker.deal_for_two(service)
        await delivery.settled(SETTLE_TIMEOUT)
        assert all(sent is not None for _, sent, _ in outbox_rows(database))

        looking, let_go = asyncio.Event(), asyncio.Event()
        game_table = service.queries.game_table

        async def held(game_id: int) -> Outcome:  # the look for a newer table, held
            looking.set()
            await let_go.wait()
            return await game_table(game_id)

        service.queries.game_table = held  # type: ignore[method-assign]
        tracked: list[Send] = []
        track = delivery.track

        def tracking(out: Outcome, sends: Sequence[Send], failure: BaseException | None) -> None:
            tracked.extend(sends)
            track(out, sends, failure)

        delivery.track = tracking  # type: ignore[method-assign]
        edits = len(api.calls(chat_id=group.id))
        await worker.publish(await _turn_for(service, chat_key(group.id), users))
        await asyncio.wait_for(looking.wait(), SETTLE_TIMEOUT)
        assert len(api.calls(chat_id=group.id)) > edits  # the table edit went out
        # What the delivery waits for before it finishes the entry: the look (the last send
        # of a publication) is not done while it is under way.
        item, look = tracked[-1]
        assert item is None and not asyncio.ensure_future(look).done()
        [*_, (entry, sent, _)] = outbox_rows(database)
        assert sent is None, f"entry {entry} finished before its process looked"

        let_go.set()
        await delivery.settled(SETTLE_TIMEOUT)
        assert outbox_rows(database)[-1][1] is not None
    finally:
        await worker.close()
        await storage.close()


async def test_a_redelivered_entry_edits_what_its_process_remembers_showing(
    api: FakeBotAPI, tmp_path: Path
) -> None:
    """A process re-delivers an outbox entry another process left unfinished: that one was
    killed after its edit of an older hand landed over this process's newer one, and before
    it looked for a newer state. The hand in force is shown again, though this process
    remembers showing it on that message. Before, the edit was skipped as unchanged, and the
    older hand stayed shown with its buttons, pressed in vain."""
    database = tmp_path / "uno.sqlite3"
    storage = await Storage.open(database)
    service = Service(storage, seed=lambda: 1)
    worker = BotWorker(api, service)
    worker.ui.delivery = delivery = Delivery(service.outbox, PREFIX)
    try:
        group, users = await worker.deal_for_two(service)
        chat = chat_key(group.id)
        player, _, _ = await _older_edit_lands_late(api, service, chat, users, worker)
        await delivery.settled(SETTLE_TIMEOUT)
        [*_, (entry, sent, _)] = outbox_rows(database)
        assert sent is not None
        unsend(database, entry)
        finished = delivery.finished
        await delivery.start(worker.ui.redeliver)
        await asyncio.wait_for(delivery.wait_finished(finished + 1), SETTLE_TIMEOUT)
        await worker.settle()
        me = User(str(player.id), player.first_name)
        now = (await service.queries.hand(me, chat_key=chat)).hands[me.id]
        assert _shows_hand_in_force(api, player, now), "the older hand is still shown"
    finally:
        await delivery.stop()
        await worker.close()
        await storage.close()
