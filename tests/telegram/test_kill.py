"""Issue 14, item 3, with a real kill: the bot's process is stopped with SIGKILL after a move is
committed and while the next player's hand is being sent; started again on the same database, it
sends that hand at once, without waiting for the turn timer (90 s by default).

Issue 15, the outbox: killed after a committed move whose table edit and results it had not sent
yet, the restarted process sends both from the outbox, each once."""

from __future__ import annotations

import asyncio
import json
import signal
import sqlite3
from contextlib import closing
from functools import partial
from pathlib import Path

from tests.scale.cluster import START_BOUND
from tests.telegram.bot_child import Child
from tests.telegram.conftest import sent_text
from tests.telegram.fake_bot_api import ApiCall, FakeBotAPI, FakeChat, FakeUser
from tests.telegram.players import hand_acts, policy

ROOT = Path(__file__).resolve().parents[2]
TURN_ACTS = ("play", "pick", "draw", "pass", "accept", "challenge", "choose")
BOUND = 30.0  # a bound for a hung child, not a wait: every wait here is for an event
# A hand is text, or from 8 cards a photo (bot.telegram.pictures): sent, and edited, either way.
HAND_SENDS = ("sendMessage", "sendPhoto")
HAND_METHODS = (*HAND_SENDS, "editMessageText", "editMessageMedia")


async def spawn(api: FakeBotAPI, database: Path) -> Child:
    """Start the bot's process; once it asked for its updates' way (it polls next). The first
    start waits for the forkserver to import the bot (seconds of CPU; on busy cores it outlasts
    `BOUND`), so it has a bound of its own, and a child that exits instead fails at once."""
    since = api.call_count
    child = Child(api.base_url, str(database))
    await child.start()
    ready = asyncio.ensure_future(api.wait_for("deleteWebhook", START_BOUND, since=since))
    died = asyncio.ensure_future(child.wait())
    await asyncio.wait([ready, died], return_when=asyncio.FIRST_COMPLETED)
    died.cancel()
    if not ready.done():
        ready.cancel()
        raise RuntimeError(f"the bot's process exited with {child.returncode}")
    ready.result()
    return child


async def gather(api: FakeBotAPI, group: FakeChat, users: list[FakeUser]) -> None:
    """The first user opens a lobby, the others join, the first starts the game; each command
    once the group shows the one before done (as people do). The bot handles a batch of
    updates at once, so a /start sent in one batch with a /join may be handled first (too few
    players: nothing dealt)."""
    for user, command in [(users[0], "/new"), *((user, "/join") for user in users[1:])]:
        since = api.call_count
        api.send_message(user, group, command)
        await api.wait_for(partial(shows, group.id, user.first_name), BOUND, since=since)
    api.send_message(users[0], group, "/start")


def shows(chat_id: int, words: str, call: ApiCall) -> bool:
    """Whether `call` showed `words` in the chat."""
    return call.chat_id == chat_id and words in (sent_text(call) or "")


async def kill(child: Child) -> None:
    child.kill()
    assert await child.wait() == -signal.SIGKILL


def stored_current_player(database: Path) -> str:
    """The player to act in the running game, read from the database file itself."""
    with closing(sqlite3.connect(database)) as db:
        (state,) = db.execute("SELECT state FROM games WHERE status = 'running'").fetchone()
    game = json.loads(state)
    return str(game["players"][game["current"]])  # `current` is a seat


def turn_acts(api: FakeBotAPI, user: FakeUser) -> dict[str, str] | None:
    """The buttons of the user's newest bot message if it is their turn."""
    for msg in reversed(api.messages(user.id)):
        if msg.from_bot:
            acts = hand_acts(msg)
            if any(a.split()[0] in TURN_ACTS for a in acts):
                return acts
            return None
    return None


async def test_a_kill_between_commit_and_send(api: FakeBotAPI, tmp_path: Path) -> None:
    database = tmp_path / "uno.sqlite3"
    group = api.new_group("Вечер карт")
    users = [api.new_user(name) for name in ("Алиса", "Борис", "Дина")]
    for user in users:
        api.user_starts_bot(user)
    child = await spawn(api, database)
    try:
        await gather(api, group, users)
        await api.wait_for(lambda c: c.method in HAND_SENDS and c.chat_id == users[2].id, BOUND)
        # Press the current player's buttons until a press hands the turn on: the next
        # player's hand is then held, and the process killed while it waits.
        for _ in range(10):
            await api.idle(quiet=0, timeout=BOUND)
            # Whoever is to act may still be waiting for the hand that shows it (under load).
            await api.wait_until(lambda: any(turn_acts(api, u) for u in users), BOUND)
            mover = next(u for u in users if turn_acts(api, u))
            acts = turn_acts(api, mover)
            assert acts is not None
            others = [u.id for u in users if u is not mover]
            arrived = api.hold(HAND_METHODS, others)
            since = api.call_count
            msg = next(m for m in reversed(api.messages(mover.id)) if m.from_bot)
            query = api.press(mover, mover.id, msg.message_id, acts[policy(acts) or "draw"])
            answered = asyncio.ensure_future(
                api.wait_for(
                    lambda c, q=query: (
                        c.is_("answerCallbackQuery")  # type: ignore[misc]
                        and c.params.get("callback_query_id") == q
                    ),
                    BOUND,
                    since=since,
                )
            )
            held = asyncio.ensure_future(arrived.wait())
            done, _ = await asyncio.wait([answered, held], return_when=asyncio.FIRST_COMPLETED)
            answered.cancel()
            held.cancel()
            if held in done:
                break
            api.release_holds()
        else:
            raise AssertionError("no press handed the turn on")
        await kill(child)
        api.release_holds()
        # Whose turn it is now, from what the killed process committed: the first held call may
        # have been another player's (sends to different chats race), so it does not tell.
        waiting = next(u for u in users if str(u.id) == stored_current_player(database))
        chat = waiting.id
        if waiting is not mover:
            assert turn_acts(api, waiting) is None  # it never got its turn
        since = api.call_count
        child = await spawn(api, database)
        call = await api.wait_for(
            lambda c: c.ok and c.method in HAND_SENDS and c.chat_id == chat, BOUND, since=since
        )
        assert call.params.get("reply_markup")
        assert turn_acts(api, waiting) is not None  # its hand, with its turn's buttons
    finally:
        if child.returncode is None:
            await kill(child)


async def answered_in_order(api: FakeBotAPI, user: FakeUser, group: int) -> None:
    """Until the bot answers /help in the group: its queue for the group is in order, so
    everything queued for the group before has been sent by then."""
    since = api.call_count
    api.send_message(user, group, "/help")
    await api.wait_for(
        lambda c: c.ok and c.is_("sendMessage") and c.chat_id == group
        and "reply_parameters" in c.params,
        BOUND,
        since=since,
    )  # fmt: skip


TABLE_EDITS = ("editMessageText", "editMessageMedia")  # a text table, or a photo's


def table_edits(api: FakeBotAPI, chat: int) -> list[ApiCall]:
    """Every edit of a message in `chat` that can be the table, in order."""
    return [c for c in api.calls(chat_id=chat) if c.method in TABLE_EDITS]


def group_calls(api: FakeBotAPI, chat: int, method: str, since: int) -> list[ApiCall]:
    return [c for c in api.calls(method, chat_id=chat)[since:] if c.ok]


async def test_a_kill_before_the_results_of_a_committed_move(
    api: FakeBotAPI, tmp_path: Path
) -> None:
    database = tmp_path / "uno.sqlite3"
    group = api.new_group("Вечер карт")
    users = [api.new_user(name) for name in ("Алиса", "Борис", "Дина")]
    for user in users:
        api.user_starts_bot(user)
    child = await spawn(api, database)
    try:
        await gather(api, group, users)
        await api.wait_for(lambda c: c.method in HAND_SENDS and c.chat_id == users[2].id, BOUND)
        # The lobby's edits go last (low priority): its keyboard taken away is the last of them.
        await api.wait_for(
            lambda c: c.ok and c.is_("editMessageReplyMarkup") and c.chat_id == group.id, BOUND
        )
        await answered_in_order(api, users[0], group.id)  # and the rest of the start is sent
        sent = len(api.calls("sendMessage", chat_id=group.id))
        edited = len(table_edits(api, group.id))
        # Dina leaves: committed, then the table edit goes first and is held, the results
        # (someone left, a message of its own) wait behind it; the process dies meanwhile.
        held = api.hold(("sendMessage", *TABLE_EDITS), [group.id])
        api.send_message(users[2], group, "/leave")
        await asyncio.wait_for(held.wait(), BOUND)
        await kill(child)
        api.release_holds()
        assert str(users[2].id) not in stored_players(database)  # the leave was committed
        assert group_calls(api, group.id, "sendMessage", sent) == []
        assert [c for c in table_edits(api, group.id)[edited:] if c.ok] == []

        child = await spawn(api, database)
        await answered_in_order(api, users[0], group.id)  # the start-up is all sent
        [results, _help] = group_calls(api, group.id, "sendMessage", sent)
        assert users[2].first_name in str(results.params["text"])
        [table] = [c for c in table_edits(api, group.id)[edited:] if c.ok]
        assert users[2].first_name not in str(sent_text(table)).split("\n\n")[1]  # seats
    finally:
        if child.returncode is None:
            await kill(child)


def stored_players(database: Path) -> list[str]:
    with closing(sqlite3.connect(database)) as db:
        (state,) = db.execute("SELECT state FROM games WHERE status = 'running'").fetchone()
    return [str(p) for p in json.loads(state)["players"]]
