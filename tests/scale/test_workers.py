"""Issue 15 end to end: three bot processes (`python -m bot`, Telegram webhook mode) over one
PostgreSQL database, behind a load balancer (the fake Bot API POSTs each update to a random
worker and retries another when one does not answer, as Telegram retries a webhook). Twenty
games in five groups are played to their end by simulated people pressing what the fake shows
them, half of them with a computer player; one worker is killed with SIGKILL a third of the way
through and started again later.

The budget is scaled so that it is at work within seconds: GROUP_LIMIT messages in any
GROUP_PERIOD seconds per group (20 in 5 s instead of 20 in 60 s). The turn timer (90 s) never
runs out here; computer moves, the deadlines claimed across processes, come after BOT_DELAY.

Checks: every acknowledged move is stored, none twice; every game replays from its deal with
every card once; the final table of every game and its result reached the group, once; no group
got more than the budget in any window, counted as Telegram counts (by when each call reached
the fake; texts, photos, edits and deletions alike); no message with buttons was sent twice.

Each "once" allows the one Telegram-legit case: a worker killed after Telegram took a message
and before it recorded it (stored the table's id, marked the result sent), whose outbox entry
another worker then delivers again (`sent_again`). A table message sent again is also allowed
where the group sees one table (the old one deleted: a photo whose text outgrew its caption
goes out as text; `check_one_table`).
"""

from __future__ import annotations

import asyncio
import re
import time
from functools import partial
from pathlib import Path

from bench.crash import replay_problem
from bot.presentation.i18n import get_i18n
from bot.presentation.render import Renderer
from bot.service import Service, projection
from bot.service.chat_settings import ChatSettings
from bot.storage.postgres import PostgresStorage
from bot.telegram.common import chat_key
from tests.scale.cluster import BOUND, Press, Table, Worker, stop_all
from tests.telegram.fake_bot_api import ApiCall, FakeBotAPI, StoredMessage

GROUPS, GAMES_PER_GROUP, PEOPLE = 5, 4, 2
GROUP_LIMIT, GROUP_PERIOD = 20, 5.0
# The workers reckon the budget in wall-clock time, the fake its arrivals in monotonic time: a
# clock being slewed (at most 0.05 %) makes them differ by up to 2.5 ms over a window.
CLOCK_SLEW = 0.005
LOBBY_OPS = ("join", "addbot", "start")
# A bound for a hung run, not a wait: a third of the moves takes 10-40 s on two loaded cores.
PLAY_BOUND = 6 * BOUND
# A match of one round: any round's winner scores past a target of one point (not a target
# /settings offers; stored directly, so that twenty matches fit in well under a minute).
WORKERS: list[Worker] = []
SETTINGS = ChatSettings(lang="ru", options={"target": 1})
WORKER_SETTINGS = {
    "BOT_DELAY": "0.05",
    "DEADLINE_LEASE": "2",
    "DEADLINE_POLL": "0.5",
    "OUTBOX_LEASE": "8",  # longer than a send waits for the (scaled) group budget
    "GROUP_LIMIT": str(GROUP_LIMIT),
    "GROUP_PERIOD": str(GROUP_PERIOD),
}


async def test_three_workers_one_killed_play_twenty_games(
    postgres_url: str, tmp_path: Path
) -> None:
    async with FakeBotAPI() as api:
        tables = [
            Table(api, f"Стол {n}", PEOPLE, bots=n % 2, games=GAMES_PER_GROUP)
            for n in range(GROUPS)
        ]
        storage = await PostgresStorage.open(postgres_url)
        try:
            for table in tables:
                await storage.put_settings(chat_key(table.group.id), SETTINGS.to_dict())
        finally:
            await storage.close()
        workers = WORKERS[:] = [
            Worker(api, postgres_url, tmp_path / f"worker{n}", WORKER_SETTINGS) for n in range(3)
        ]
        try:
            for worker in workers:
                await worker.start()
            api.balance(w.url for w in workers)
            try:
                await play_with_a_kill(tables, workers)
            except TimeoutError as exc:
                logs = "\n".join(f"  worker {n}:\n{w.log_tail()}" for n, w in enumerate(workers))
                raise TimeoutError(f"{exc}\n{await stored(postgres_url, tables)}\n{logs}") from None
            await check(api, tables, postgres_url)
        finally:
            await stop_all(workers)


async def play_with_a_kill(tables: list[Table], workers: list[Worker]) -> None:
    """All tables at once; worker 0 is killed after a third of the expected moves and started
    again after two thirds (or as soon as every table still playing waits for the bot)."""
    expected = GROUPS * GAMES_PER_GROUP * 25  # acknowledged moves, about
    moved = asyncio.Condition()
    count = 0

    def on_move(press: Press) -> None:
        nonlocal count
        count += press.acknowledged

        async def tell() -> None:
            async with moved:
                moved.notify_all()

        asyncio.get_running_loop().create_task(tell())

    playing = [asyncio.create_task(t.play(on_move)) for t in tables]
    everything = asyncio.gather(*playing)
    try:
        async with moved:
            await asyncio.wait_for(moved.wait_for(lambda: count >= expected // 3), PLAY_BOUND)
        await workers[0].kill()
        async with moved:
            await asyncio.wait_for(
                moved.wait_for(lambda: count >= 2 * expected // 3 or everything.done()),
                PLAY_BOUND,
            )
        await workers[0].start()
        await asyncio.wait_for(asyncio.shield(everything), PLAY_BOUND)
    except TimeoutError as exc:
        raise TimeoutError(f"{exc}\nworkers: {events()}, now {time.monotonic():.2f}") from None
    finally:
        for task in playing:
            task.cancel()
        await asyncio.gather(*playing, return_exceptions=True)


async def stored(url: str, tables: list[Table]) -> str:
    """Each table's games as stored, with the last actions of each (for a run that failed)."""
    storage = await PostgresStorage.open(url)
    lines = [f"stored games, at {time.time():.2f}:"]
    try:
        for table in tables:
            key = chat_key(table.group.id)
            active = await storage.active_game(key)
            last = await storage.last_game(key)
            lines.append(
                f"{table.group.title}: played {table.game_ids}, active "
                f"{active and (active.id, active.status, active.version)}, last "
                f"{last and (last.id, last.status, last.version)}"
            )
            if last is not None:
                log = (await storage.log(last.id))[-6:]
                lines.extend(f"  {e.version} {e.actor} {e.action} at {e.at:.2f}" for e in log)
    finally:
        await storage.close()
    return "\n".join(lines)


async def check(api: FakeBotAPI, tables: list[Table], url: str) -> None:
    storage = await PostgresStorage.open(url)
    try:
        service = Service(storage)
        renderer = Renderer(get_i18n())
        for table in tables:
            group = table.group.id
            for game in table.game_ids:
                rec = await storage.get_game(game)
                assert rec is not None and rec.status == "finished", (game, rec)
                log = await storage.log(game)
                # Every game replays from its deal, with every card once after every move.
                problem = replay_problem(rec, [(e.actor, e.action) for e in log])
                assert problem is None, (
                    f"game {game}: {problem}\nthe last presses:\n{table.presses_of(game)}\n"
                    + "\n".join(
                        f"chat {u.id}, about the game:\n{history(api, u.id, 40, game=game)}"
                        for u in table.users
                    )
                )
                # Every acknowledged move is stored, and no press was applied twice.
                for user in table.users:
                    presses = [
                        p for p in table.presses
                        if p.game == game and p.user == user.id and p.is_move
                        and p.act not in LOBBY_OPS
                    ]  # fmt: skip
                    acked = sum(p.acknowledged for p in presses)
                    stored = sum(
                        e.actor == str(user.id) and e.action not in ("start", "leave", "kicked")
                        for e in log
                    )
                    assert acked <= stored <= len(presses), (game, user.id, acked, stored)
                # The final table reached the group: the table message comes to show the stored
                # end (its last edit may still wait for the group's budget).
                match = service.uow.engines.match_of(rec, take=False)
                final = renderer.table(projection.table_view(match, SETTINGS), match.names)
                try:
                    # (A table first sent by the outbox, its dealer killed, may be on its way.)
                    table_id = await stored_table(storage, game)
                    await api.wait_until(partial(shows, api, group, table_id, final), BOUND)
                except TimeoutError:
                    ref = (await storage.refs(game)).get("tg:table")
                    msg = None if ref is None else api.message(group, int(ref))
                    shown = msg and f"{shown_text(msg)!r} (deleted: {msg.deleted})"
                    shown = shown or "no table stored"
                    raise AssertionError(
                        f"game {game} ends as\n{final}\nshown:\n{shown}\n"
                        f"the group's last calls:\n{history(api, group)}\nworkers: {events()}"
                    ) from None
                # Its result reached the group, once; so did its table.
                check_one_result(api, group, game)
                # A table sent while the game runs has its link to the bot's chat; the stored
                # one may be sent only once it ended (the worker that dealt was killed, and the
                # outbox brought the table once its claim ran out), with no link any more.
                tables_sent = [
                    c for c in sends(api, group)
                    if re.search(rf"start=g{game}\b", str(c.params.get("reply_markup")))
                    or c.result["message_id"] == table_id
                ]  # fmt: skip
                check_one_table(api, group, game, table_id, tables_sent)
            check_budget(api, group)
        check_no_message_twice(api, tables)
    finally:
        await storage.close()


def check_one_result(api: FakeBotAPI, group: int, game: int) -> None:
    """The game's result reached the group once, or -- the Telegram-legit case, as for a table
    (`check_one_table`) -- twice: the first from a worker killed after Telegram took it and
    before the second arrived. It may have died before it recorded the result sent, a window no
    bot can close, and the outbox's re-delivery posted it again."""
    posted = [c for c in sends(api, group) if f"'r:{game}'" in str(c.params.get("reply_markup"))]
    assert len(posted) == 1 or (len(posted) == 2 and sent_again(*posted)), (
        f"game {game}: {len(posted)} results:\n{_listed(posted)}\nworkers: {events()}"
    )


def sent_again(first: ApiCall, second: ApiCall) -> bool:
    """Whether `second` may be `first` sent again by the outbox: `first`'s worker was killed
    after Telegram took it and before `second` arrived (it may have died before it recorded
    `first` sent, or stored its id)."""
    return any(
        first.via == f"w{w.port}" and first.arrived < at < second.arrived
        for w in WORKERS
        for what, at in w.events
        if what == "killed"
    )


def check_one_table(
    api: FakeBotAPI, group: int, game: int, table_id: int, sent: list[ApiCall]
) -> None:
    """The group saw one table of the game at a time: every table message sent for it but the
    stored one was replaced (deleted: a photo whose text outgrew a caption goes out again as
    text, the old one deleted), or -- at most one, the Telegram-legit case -- it reached the group
    before a worker was killed and the stored one after: the killed worker may have died
    between Telegram taking the message and the message's id being stored, a window no bot can
    close, and the outbox's re-delivery sent the table again."""
    listed = _listed(sends(api, group))
    assert sent, f"game {game}: no table sent (stored {table_id}); the group's sends:\n{listed}"
    stored = [c for c in sent if c.result["message_id"] == table_id]
    others = [c for c in sent if c.result["message_id"] != table_id]
    live = [c for c in others if not api.message(group, c.result["message_id"]).deleted]
    legit = [c for c in live if stored and sent_again(c, stored[0])]
    assert len(legit) <= 1 and live == legit, (
        f"game {game}: {len(sent)} tables sent, {len(live)} of them shown with the stored "
        f"one: {[(c.arrived, c.result['message_id']) for c in sent]}, stored {table_id}, "
        f"workers: {events()}"
    )


async def stored_table(storage: PostgresStorage, game: int) -> int:
    """The id of the game's table message, once a worker stored it (TimeoutError: none did
    within BOUND). Polled: the database tells no one when a row comes."""
    async with asyncio.timeout(BOUND):
        while (table := (await storage.refs(game)).get("tg:table")) is None:
            await asyncio.sleep(0.1)
    return int(table)


def history(
    api: FakeBotAPI,
    chat: int,
    last: int = 24,
    around: float | None = None,
    game: int | None = None,
) -> str:
    """The bot's calls about a chat (for a check that failed), listed by `_listed`: the last
    ones, those within 2 s of `around`, or those about a game's hand (its buttons; deletions
    and buttons taken away too)."""
    calls = api.calls(chat_id=chat)
    if around is not None:
        calls = [c for c in calls if abs(c.arrived - around) < 2.0]
    if game is not None:
        calls = [
            c for c in calls
            if f"h:{game}:" in str(c.params.get("reply_markup"))
            or c.method in ("deleteMessage", "editMessageReplyMarkup")
        ]  # fmt: skip
    return _listed(calls[-last:])


def _listed(calls: list[ApiCall]) -> str:
    """One line per call: when it arrived, from which worker, what it did to which message,
    the first button's data, and the answer."""
    lines = []
    for c in calls:
        result = c.result if isinstance(c.result, dict) else {}
        target = c.params.get("message_id") or result.get("message_id")
        text = str(c.params.get("text") or c.params.get("caption") or "")
        said = c.description or text.replace("\n", " | ")[-60:]
        data = re.findall(r"'callback_data': '([^']*)'", str(c.params.get("reply_markup")))
        button = f" [{data[0]}]" if data else ""
        lines.append(f"  {c.arrived:.3f} {c.via} {c.method} {target}{button} -> {c.status}: {said}")
    return "\n".join(lines)


def events() -> list[tuple[int, str, float]]:
    """When each worker was started and killed (the fake's clock)."""
    return [(w.port, what, round(at, 2)) for w in WORKERS for what, at in w.events]


def shows(api: FakeBotAPI, chat: int, message_id: int, text: str) -> bool:
    msg = api.message(chat, message_id)
    return not msg.deleted and shown_text(msg) == text


def shown_text(msg: StoredMessage) -> str | None:
    """A text message's text, or a photo's caption (a table with the top card's picture)."""
    return msg.text if msg.photo is None else msg.caption


def sends(api: FakeBotAPI, chat: int) -> list[ApiCall]:
    """The messages the bot sent new to a chat: texts, and photos (a table with its picture, a
    hand of many cards)."""
    return [c for m in ("sendMessage", "sendPhoto") for c in api.calls(m, chat) if c.ok]


def check_budget(api: FakeBotAPI, group: int) -> None:
    """No GROUP_PERIOD-second window holds more than GROUP_LIMIT calls that post to the group
    (refused ones too: each took a slot), by when they reached the fake. Exact, with no slack
    for the time calls take: a worker takes a slot no earlier than a period after the call
    that held it completed, and a call reaches the fake after its slot was taken and before it
    completes."""
    posts = (
        "sendMessage", "sendPhoto", "editMessageText", "editMessageCaption", "editMessageMedia",
        "editMessageReplyMarkup", "deleteMessage",
    )  # fmt: skip
    calls = sorted(
        (c for c in api.calls(chat_id=group) if any(c.is_(m) for m in posts)),
        key=lambda c: c.arrived,
    )
    times = [c.arrived for c in calls]
    first = 0
    for last, at in enumerate(times):
        while at - times[first] >= GROUP_PERIOD - CLOCK_SLEW:
            first += 1
        assert last - first + 1 <= GROUP_LIMIT, (
            f"group {group}: {last - first + 1} in a window: "
            f"{[(c.method, round(c.arrived, 3)) for c in calls[first : last + 1]]}"
        )


def check_no_message_twice(api: FakeBotAPI, tables: list[Table]) -> None:
    """No two messages with the same text and the same buttons in one chat (a hand's buttons
    carry its version, a table's link its game: the same ones twice is one message twice),
    but one sent again by the outbox after its worker was killed (`sent_again`)."""
    chats = {t.group.id for t in tables} | {u.id for t in tables for u in t.users}
    for chat in chats:
        alike: dict[tuple[str, str], list[ApiCall]] = {}
        for c in sends(api, chat):
            if c.params.get("reply_markup"):
                key = (
                    str(c.params.get("text") or c.params.get("caption")),
                    str(c.params.get("reply_markup")),
                )
                alike.setdefault(key, []).append(c)
        twice = [
            key for key, calls in alike.items()
            if len(calls) > 2 or (len(calls) == 2 and not sent_again(*calls))
        ]  # fmt: skip
        if twice:  # when each went out, whether it is still shown, and when a worker died
            when = [
                (
                    round(c.arrived, 3),
                    c.result["message_id"],
                    api.message(chat, c.result["message_id"]).deleted,
                )
                for c in alike[twice[0]]
            ]
            raise AssertionError(
                f"chat {chat}: sent twice: {twice[:1]}: {when}; workers {events()}\n"
                f"{history(api, chat, 40, around=when[0][0])}"
            )
