"""The service keeps going after an ordinary fault (issue 12's numbered faults 1-6 and 8).

Each test shows the fault as it was and checks the fix: a storage that fails on demand, forged
ids at the limits, bad rows, and how much the service keeps in memory.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.presentation.render import Renderer
from bot.service import Outcome, Service
from bot.service.alarms import retry_delay
from bot.storage import Storage, StorageError
from core.events import GameEnded
from core.game import Game
from tests.service.conftest import ALICE, BORIS, VIKA, FakeClock
from tests.service.test_service import CHAT, install, started

BOT = "ai:1"


class Outage:
    """Makes chosen storage methods fail like a locked, full or read-only database."""

    def __init__(self, storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
        self.storage = storage
        self.monkeypatch = monkeypatch
        self.down: set[str] = set()
        self.calls: dict[str, int] = {}

    def fail(self, *methods: str) -> None:
        for name in methods:
            if name not in self.calls:
                self.calls[name] = 0
                self._wrap(name)
            self.down.add(name)

    def recover(self) -> None:
        self.down.clear()

    def _wrap(self, name: str) -> None:
        real = getattr(self.storage, name)

        async def method(*args: Any, **kwargs: Any) -> Any:
            self.calls[name] += 1
            if name in self.down:
                error = StorageError("database is locked")
                error.__cause__ = sqlite3.OperationalError("database is locked")
                raise error
            return await real(*args, **kwargs)

        self.monkeypatch.setattr(self.storage, name, method)


WRITES = ("commit", "create_game", "put_settings", "mark_broken", "record_match")
READS = ("active_game", "last_game", "get_game", "get_settings", "open_games")


@pytest.fixture
def outage(storage: Storage, monkeypatch: pytest.MonkeyPatch) -> Outage:
    return Outage(storage, monkeypatch)


async def computer_to_act(service: Service, storage: Storage, clock: FakeClock) -> None:
    """Alice and a computer player; the computer is to act, its deadline due now."""
    await started(service, ALICE, bots=1)
    game = Game.from_position(
        [ALICE.id, BOT], {ALICE.id: "r5 g7 y2", BOT: "r4 b1 g3"}, "r1", "y3 y4 y5 y6", current=BOT
    )
    await install(service, storage, game)
    rec = await storage.active_game(CHAT)
    assert rec is not None
    await storage.commit(
        rec.id, rec.version, state=rec.state, meta=rec.meta, status="running", deadline=clock()
    )
    service.alarms.arm(CHAT, clock())


async def moves_of(storage: Storage, player: str) -> int:
    rec = await storage.active_game(CHAT) or await storage.last_game(CHAT)
    assert rec is not None
    return sum(e.actor == player for e in await storage.log(rec.id))


# ---------------------------------------------------------------------- fault 1


async def test_a_deadline_that_fails_on_the_storage_is_retried_with_backoff(
    service: Service,
    storage: Storage,
    clock: FakeClock,
    outage: Outage,
    caplog: pytest.LogCaptureFixture,
) -> None:
    # Before: the failure disarmed the game's timer; the computer never moved again.
    await computer_to_act(service, storage, clock)
    outage.fail("commit")
    waits = []
    with caplog.at_level(logging.WARNING, logger="bot.service"):
        for _ in range(4):
            assert await service.clock.run_due() == []
            due = service.clock.next_deadline()
            assert due is not None, "the timer was disarmed"
            waits.append(due - clock())
            clock.advance(due - clock())
    assert waits == [1.0, 2.0, 4.0, 8.0]
    assert CHAT in caplog.text and "retrying" in caplog.text
    assert await moves_of(storage, BOT) == 0
    outage.recover()
    outs = await service.clock.run_due()
    assert [o.chat_key for o in outs] == [CHAT] and outs[0].ok
    assert await moves_of(storage, BOT) == 1
    # Recovered: the next deadline is the ordinary one (Alice's turn timer), not a retry.
    rec = await storage.active_game(CHAT)
    assert rec is not None and service.clock.next_deadline() == rec.deadline


def test_retries_back_off_by_doubling_up_to_a_minute() -> None:
    assert [retry_delay(n) for n in range(1, 10)] == [1, 2, 4, 8, 16, 32, 60, 60, 60]
    assert retry_delay(10_000) == 60


async def test_a_lobby_expiry_that_fails_is_retried_too(
    service: Service, storage: Storage, clock: FakeClock, outage: Outage
) -> None:
    assert (await service.lobby.new_game(CHAT, ALICE)).ok
    clock.advance(10 * 3600)
    outage.fail("commit")
    assert await service.clock.run_due() == []
    assert service.clock.next_deadline() == clock() + 1
    outage.recover()
    clock.advance(1)
    outs = await service.clock.run_due()
    assert [n.key for n in outs[0].notices] == ["info-lobby-expired"]
    assert await storage.active_game(CHAT) is None


# ---------------------------------------------------------------------- fault 2


async def finish_by_leaving(service: Service) -> Outcome:
    await started(service, ALICE, BORIS)
    return await service.lobby.leave(CHAT, BORIS)


async def test_the_match_is_recorded_with_its_last_move(
    service: Service, storage: Storage, outage: Outage
) -> None:
    # Before: statistics were a second write after the move; when it failed, the move stood
    # but the winner got a generic error and the result was never announced.
    outage.fail("record_match")
    out = await finish_by_leaving(service)
    assert out.ok and any(isinstance(e, GameEnded) for e in out.events)
    assert outage.calls["record_match"] == 0  # no second write at all
    assert [(r.user_id, r.wins) for r in await storage.leaderboard(CHAT)] == [
        (ALICE.id, 1),
        (BORIS.id, 0),
    ]


async def test_a_failed_last_move_changes_nothing_and_can_be_made_again(
    service: Service, storage: Storage, outage: Outage
) -> None:
    await started(service, ALICE, BORIS)
    outage.fail("commit")
    out = await service.lobby.leave(CHAT, BORIS)
    assert out.error is not None and out.error.key == "error-storage"
    assert await storage.leaderboard(CHAT) == []
    outage.recover()
    again = await service.lobby.leave(CHAT, BORIS)
    assert again.ok and again.match_finished
    assert [r.user_id for r in await storage.leaderboard(CHAT)] == [ALICE.id, BORIS.id]


async def test_start_records_finished_matches_that_have_no_statistics(
    service: Service, storage: Storage, clock: FakeClock
) -> None:
    # A match finished by a process that died before recording it (older versions did this in
    # two steps): the next start records it, once.
    await started(service, ALICE, BORIS)
    rec = await storage.active_game(CHAT)
    assert rec is not None and rec.state is not None
    game = Game.from_dict(rec.state)
    game.remove_player(BORIS.id)
    assert game.is_over
    await storage.commit(
        rec.id, rec.version, state=game.to_dict(), meta=rec.meta, status="finished", deadline=None
    )
    assert await storage.leaderboard(CHAT) == []
    for _ in range(2):
        await Service(storage, clock=clock).start()
    assert [(r.user_id, r.games, r.wins) for r in await storage.leaderboard(CHAT)] == [
        (ALICE.id, 1, 1),
        (BORIS.id, 1, 0),
    ]
    assert await storage.unrecorded_finished_games() == []


# ---------------------------------------------------------------------- fault 3


REFUSED: list[tuple[str, Callable[[Service], Awaitable[Outcome]]]] = [
    ("leave", lambda s: s.lobby.leave(CHAT, VIKA)),
    ("uno", lambda s: s.play.uno(CHAT, VIKA)),
    ("challenge", lambda s: s.play.challenge(CHAT, VIKA)),
    ("hand button", lambda s: s.play.act(VIKA, "draw", game_id=1, version=1)),
    ("hand", lambda s: s.queries.hand(VIKA, chat_key=CHAT)),
    ("join", lambda s: s.lobby.join(CHAT, VIKA)),
    ("kick", lambda s: s.lobby.kick(CHAT, VIKA, ALICE.id)),
    ("kick seat", lambda s: s.lobby.kick_seat(CHAT, VIKA, 1)),
    ("kill", lambda s: s.lobby.kill(CHAT, VIKA)),
    ("start", lambda s: s.lobby.start_game(CHAT, VIKA)),
    ("rematch", lambda s: s.lobby.rematch(CHAT, VIKA)),
    ("bad setting", lambda s: s.settings.change_setting(CHAT, VIKA, "timer", "7")),
]


@pytest.mark.parametrize(("name", "command"), REFUSED, ids=[n for n, _ in REFUSED])
async def test_a_refused_command_writes_nothing(
    service: Service,
    storage: Storage,
    name: str,
    command: Callable[[Service], Awaitable[Outcome]],
) -> None:
    # Before: /leave, /uno or a hand button with no game stored a settings row with the
    # caller's language, and that decided the chat's language for good.
    out = await command(service)
    assert out.error is not None, name
    assert out.lang == "uk"  # answered in the caller's language all the same
    assert await storage.get_settings(CHAT) is None
    assert await storage.last_game(CHAT) is None


async def test_the_chat_language_is_the_first_creators(service: Service) -> None:
    assert not (await service.lobby.leave(CHAT, VIKA)).ok  # Vika (uk) first, refused
    out = await service.lobby.new_game(CHAT, ALICE)  # Alice (ru) opens the first game
    assert out.ok and out.lang == "ru"
    assert (await service.settings.settings(CHAT)).lang == "ru"
    assert (await service.lobby.join(CHAT, VIKA)).lang == "ru"


# ---------------------------------------------------------------------- fault 4


FORGED = [0, -1, 2**63 - 1, 2**63, 2**64, 10**30, -(2**63) - 1]


@pytest.mark.parametrize("game_id", FORGED)
async def test_forged_game_ids_get_the_no_game_answer(service: Service, game_id: int) -> None:
    # Before: an id of 2**63 or more overflowed in the storage: a generic error.
    await started(service, ALICE, BORIS)
    acted = await service.play.act(ALICE, "draw", game_id=game_id, version=1)
    assert acted.error is not None and acted.error.key == "error-no-game"
    shown = await service.queries.hand(ALICE, game_id=game_id)
    assert shown.error is not None and shown.error.key == "error-no-game"


@pytest.mark.parametrize("game_id", FORGED)
async def test_a_forged_rematch_button_is_stale(service: Service, game_id: int) -> None:
    out = await finish_by_leaving(service)
    assert out.match_finished
    rematch = await service.lobby.rematch(CHAT, ALICE, game_id=game_id)
    assert rematch.error is not None and rematch.error.key == "error-rematch-stale"


# ---------------------------------------------------------------------- fault 5


async def test_ended_games_and_idle_locks_leave_memory(
    service: Service, storage: Storage, clock: FakeClock
) -> None:
    # Before: a match ended by /leave or a kick stayed cached forever, and every chat and
    # person ever seen kept a lock.
    endings: list[Callable[[str], Awaitable[Any]]] = [
        lambda chat: service.lobby.leave(chat, BORIS),  # the match is won by the one left
        lambda chat: service.lobby.kick(chat, ALICE, BORIS.id),
        lambda chat: service.lobby.kill(chat, ALICE),
        lambda chat: service.lobby.leave(chat, ALICE),  # Boris plays on... then leaves too
    ]
    for n in range(40):
        chat = f"tg:-{n}"
        assert (await service.lobby.new_game(chat, ALICE)).ok
        assert (await service.lobby.join(chat, BORIS)).ok
        assert (await service.lobby.start_game(chat, ALICE)).ok
        assert (await service.queries.table(chat)).ok
        assert (await service.queries.hand(ALICE, chat_key=chat)).ok
        await endings[n % len(endings)](chat)
        if await storage.active_game(chat) is not None:
            await service.lobby.leave(chat, BORIS)
        await service.settings.toggle_personal(f"tg:{n}", "dm_hands", default=False)
    # Games that end by a computer player moving, and by the last person timing out.
    for n in range(5):
        chat = f"tg:-bots{n}"
        await service.lobby.new_game(chat, ALICE)
        await service.lobby.add_bot(chat, ALICE)
        await service.lobby.start_game(chat, ALICE)
        for _ in range(400):
            if await storage.active_game(chat) is None:
                break
            clock.advance(3600)
            await service.clock.run_due()
        assert await storage.active_game(chat) is None
    gc.collect()
    assert service.uow.in_memory == (0, 0)
    assert service.clock.next_deadline() is None


# ---------------------------------------------------------------------- fault 6


def corrupt_state(db_path: Path, game_id: int, state: str) -> None:
    """Overwrite a stored state behind the service's back (a bad disk, a bad migration)."""
    with sqlite3.connect(db_path) as conn:
        conn.execute("UPDATE games SET state = ? WHERE id = ?", (state, game_id))
    conn.close()


async def test_a_game_that_is_not_json_is_set_aside_and_the_bot_starts(
    service: Service,
    storage: Storage,
    db_path: Path,
    clock: FakeClock,
    caplog: pytest.LogCaptureFixture,
) -> None:
    # Before: one such row stopped the whole bot from starting.
    await started(service, ALICE, BORIS)
    rec = await storage.active_game(CHAT)
    assert rec is not None
    corrupt_state(db_path, rec.id, '{"hands": ')
    restarted = Service(storage, clock=clock)
    with caplog.at_level(logging.ERROR, logger="bot.service"):
        await restarted.start()  # does not raise
        outs = await restarted.clock.run_due()  # due at once: the chat is told
    assert [(o.chat_key, [n.key for n in o.notices]) for o in outs] == [
        (CHAT, ["notice-game-broken"])
    ]
    assert CHAT in caplog.text and str(rec.id) in caplog.text
    broken = await storage.get_game(rec.id)
    assert broken is not None and broken.status == "broken"
    out = await restarted.lobby.new_game(CHAT, ALICE)
    assert out.ok and out.notices == []  # told once, and the chat plays on


async def test_a_state_the_engine_cannot_load_is_set_aside(
    service: Service, storage: Storage, caplog: pytest.LogCaptureFixture
) -> None:
    # Before: every command in that chat raised.
    await started(service, ALICE, BORIS)
    rec = await storage.active_game(CHAT)
    assert rec is not None
    await storage.commit(
        rec.id,
        rec.version,
        state=dict(rec.state or {}, hands="not a hand"),
        meta=rec.meta,
        status="running",
    )
    fresh = Service(storage)  # nothing cached
    with caplog.at_level(logging.ERROR, logger="bot.service"):
        out = await fresh.play.act(ALICE, "draw", chat_key=CHAT)
    assert out.error is not None and out.error.key == "error-no-game"
    assert [n.key for n in out.notices] == ["notice-game-broken"]
    assert f"game {rec.id}" in caplog.text and CHAT in caplog.text
    assert (await fresh.queries.table(CHAT)).notices == []  # told once
    assert (await fresh.lobby.new_game(CHAT, BORIS)).ok


async def test_a_broken_notice_has_words_in_both_languages(renderer: Renderer) -> None:
    from bot.service import Notice

    for lang in ("ru", "uk"):
        assert "/new" in renderer.notice(lang, Notice("notice-game-broken"))
        assert renderer.notice(lang, Notice("error-storage"))


# ---------------------------------------------------------------------- fault 8


def use_cases() -> list[tuple[str, Callable[[Service], Awaitable[Outcome]]]]:
    return [
        ("new", lambda s: s.lobby.new_game(CHAT, VIKA)),
        ("rematch", lambda s: s.lobby.rematch(CHAT, VIKA)),
        ("rematch button", lambda s: s.lobby.rematch(CHAT, VIKA, game_id=1)),
        ("join", lambda s: s.lobby.join(CHAT, VIKA)),
        ("add bot", lambda s: s.lobby.add_bot(CHAT, ALICE)),
        ("close", lambda s: s.lobby.set_closed(CHAT, ALICE, True)),
        ("start", lambda s: s.lobby.start_game(CHAT, ALICE)),
        ("leave", lambda s: s.lobby.leave(CHAT, BORIS)),
        ("kick", lambda s: s.lobby.kick(CHAT, ALICE, BORIS.id)),
        ("kick seat", lambda s: s.lobby.kick_seat(CHAT, ALICE, 2)),
        ("kill", lambda s: s.lobby.kill(CHAT, ALICE)),
        ("act", lambda s: s.play.act(ALICE, "draw", chat_key=CHAT)),
        ("hand button", lambda s: s.play.act(ALICE, "draw", game_id=1, version=1)),
        ("uno", lambda s: s.play.uno(CHAT, ALICE)),
        ("challenge", lambda s: s.play.challenge(CHAT, ALICE)),
        ("table", lambda s: s.queries.table(CHAT)),
        ("hand", lambda s: s.queries.hand(ALICE, chat_key=CHAT)),
        ("hand by id", lambda s: s.queries.hand(ALICE, game_id=1)),
        ("setting", lambda s: s.settings.change_setting(CHAT, ALICE, "timer", "30")),
        ("switch", lambda s: s.settings.toggle_setting(CHAT, ALICE, "colorblind")),
    ]


@pytest.mark.parametrize("failing", ["reads", "writes"])
@pytest.mark.parametrize(("name", "command"), use_cases(), ids=[n for n, _ in use_cases()])
async def test_every_use_case_answers_a_storage_failure(
    service: Service,
    storage: Storage,
    outage: Outage,
    failing: str,
    name: str,
    command: Callable[[Service], Awaitable[Outcome]],
) -> None:
    # Before: /leave got no reply at all, buttons a generic alert.
    await started(service, ALICE, BORIS)
    outage.fail(*(READS if failing == "reads" else WRITES))
    before = await _snapshot(storage, outage)
    out = await command(service)
    if failing == "writes" and out.ok:
        return  # a read-only use case: nothing to write, nothing failed
    if out.error is not None and out.error.key != "error-storage":
        # A refusal decided before any write (e.g. no such lobby): nothing changed either.
        assert failing == "writes", (name, out.error)
    else:
        assert out.error is not None and out.error.key == "error-storage", name
        assert out.lang == "ru"
    outage.recover()
    assert await _snapshot(storage, outage) == before


async def _snapshot(storage: Storage, outage: Outage) -> tuple[Any, ...]:
    down, outage.down = outage.down, set()
    try:
        rec = await storage.active_game(CHAT)
        game = None if rec is None else (rec.version, rec.status)
        return game, await storage.get_settings(CHAT)
    finally:
        outage.down = down


# ---------------------------------------------------------------------- the timer loop


async def test_the_timer_loop_runs_on_the_injected_clock(
    service: Service, storage: Storage, clock: FakeClock
) -> None:
    """No real waiting: the loop wakes when told the clock moved, and publishes."""
    await computer_to_act(service, storage, clock)
    service.alarms.arm(CHAT, clock() + 30)
    published: asyncio.Queue[Outcome] = asyncio.Queue()
    other: asyncio.Queue[Outcome] = asyncio.Queue()
    loops = [
        asyncio.create_task(service.clock.run_timers(published.put_nowait, prefix="tg:")),
        asyncio.create_task(service.clock.run_timers(other.put, prefix="dc:")),
    ]
    try:
        await asyncio.sleep(0)  # both loops are waiting now
        clock.advance(30)
        service.alarms.wake()
        out = await asyncio.wait_for(published.get(), timeout=30)
        assert out.chat_key == CHAT and out.ok
        assert await moves_of(storage, BOT) == 1
        assert other.empty()
    finally:
        for task in loops:
            task.cancel()
        await asyncio.gather(*loops, return_exceptions=True)


async def test_a_new_earlier_deadline_wakes_every_loop(service: Service) -> None:
    woken = []
    for prefix in ("tg:", "dc:"):
        task = asyncio.create_task(service.alarms.sleep(prefix, lambda: 0.0))
        woken.append(task)
    await asyncio.sleep(0)
    service.alarms.arm("tg:-1", 5.0)  # earlier than nothing: both loops look again
    done, _ = await asyncio.wait(woken, timeout=30)
    assert len(done) == 2


async def test_start_survives_a_finished_game_it_cannot_record(
    service: Service,
    storage: Storage,
    db_path: Path,
    clock: FakeClock,
    caplog: pytest.LogCaptureFixture,
) -> None:
    await started(service, ALICE, BORIS)
    rec = await storage.active_game(CHAT)
    assert rec is not None
    await storage.commit(
        rec.id, rec.version, state=rec.state, meta=rec.meta, status="finished", deadline=None
    )
    corrupt_state(db_path, rec.id, "not json")
    with caplog.at_level(logging.ERROR, logger="bot.service"):
        await Service(storage, clock=clock).start()
    assert CHAT in caplog.text and str(rec.id) in caplog.text
    assert (await service.lobby.new_game(CHAT, ALICE)).ok
