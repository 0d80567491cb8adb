"""The storage contract: what every adapter of the port promises, run against each backend.

Round trips, the optimistic version check, one open game per chat, refs, statistics (also
recorded with a match's last move), faults on demand (each a :class:`StorageError` that
changes nothing), corrupt rows that never raise, ids from outside, broken games.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from bot.storage import (
    STATUSES,
    GameExists,
    GameNotFound,
    GameRecord,
    LogEntry,
    MatchRecord,
    PlayerResult,
    StatRow,
    StorageError,
    StoragePort,
    VersionConflict,
)
from core.rules import Scoring
from tests.storage.conftest import CORRUPT_CASES, Backend, FakeClock

CHAT = "tg:-100123"
OTHER = "dc:9876"


async def _running(s: StoragePort, chat: str = CHAT) -> GameRecord:
    """A game that has had one commit (lobby -> running), i.e. is at version 1."""
    g = await s.create_game(chat, {"host": "u1"})
    return await s.commit(
        g.id,
        0,
        state={"turn": 0},
        meta={"host": "u1"},
        status="running",
        log=[LogEntry("u1", "start")],
    )


async def test_settings_round_trip(storage: StoragePort) -> None:
    assert await storage.get_settings(CHAT) is None
    await storage.put_settings(CHAT, {"lang": "uk", "rules": {"stack": True, "seven_o": False}})
    assert await storage.get_settings(CHAT) == {
        "lang": "uk",
        "rules": {"stack": True, "seven_o": False},
    }
    await storage.put_settings(CHAT, {"lang": "ru"})  # replaced wholesale, not merged
    assert await storage.get_settings(CHAT) == {"lang": "ru"}
    assert await storage.get_settings(OTHER) is None


async def test_create_game(storage: StoragePort, clock: FakeClock) -> None:
    g = await storage.create_game(CHAT, {"host": "u1"})
    assert g == GameRecord(
        id=g.id,
        chat_key=CHAT,
        status="lobby",
        version=0,
        state=None,
        meta={"host": "u1"},
        deadline=None,
        created_at=clock.now,
        updated_at=clock.now,
    )
    assert await storage.get_game(g.id) == g
    assert await storage.active_game(CHAT) == g
    assert await storage.active_game(OTHER) is None
    assert await storage.get_game(g.id + 1000) is None


async def test_commit_round_trip(storage: StoragePort, clock: FakeClock) -> None:
    g = await storage.create_game(CHAT, {"host": "u1"})
    state: dict[str, Any] = {"hands": {"u1": ["r5", "wd4"]}, "dir": -1, "top": None}
    r1 = await storage.commit(
        g.id,
        0,
        state=state,
        meta={"host": "u1", "players": ["u1", "u2"]},
        status="running",
        log=[LogEntry("u1", "start"), LogEntry("u2", "play r5", at=5.5)],
        deadline=1234.5,
    )
    t1 = clock.now
    assert r1 == GameRecord(
        id=g.id,
        chat_key=CHAT,
        status="running",
        version=1,
        state=state,
        meta={"host": "u1", "players": ["u1", "u2"]},
        deadline=1234.5,
        created_at=g.created_at,
        updated_at=t1,
    )
    assert await storage.get_game(g.id) == r1

    r2 = await storage.commit(
        g.id, 1, state={"done": True}, meta={}, status="finished", log=[LogEntry("u2", "win")]
    )
    assert r2.version == 2 and r2.deadline is None and r2.status == "finished"
    assert await storage.get_game(g.id) == r2
    assert await storage.log(g.id) == [
        LogEntry("u1", "start", 1, t1),
        LogEntry("u2", "play r5", 1, 5.5),  # an explicit timestamp is kept
        LogEntry("u2", "win", 2, clock.now),
    ]
    assert await storage.active_game(CHAT) is None


async def test_commit_without_log_entries(storage: StoragePort) -> None:
    g = await _running(storage)
    r = await storage.commit(g.id, 1, state=None, meta={}, status="running", deadline=9.0)
    assert (r.version, r.state, r.deadline) == (2, None, 9.0)
    assert [e.version for e in await storage.log(g.id)] == [1]


async def test_everything_survives_reopen(backend: Backend) -> None:
    s = await backend.open()
    g = await _running(s)
    await s.put_settings(CHAT, {"lang": "ru"})
    await s.put_ref(g.id, "table_msg", "42")
    await s.record_match(CHAT, g.id, [PlayerResult("u1", "Ann", True, 30)])
    before = (await s.get_game(g.id), await s.log(g.id))
    await s.close()

    s = await backend.open()
    try:
        assert (await s.get_game(g.id), await s.log(g.id)) == before
        assert await s.get_settings(CHAT) == {"lang": "ru"}
        assert await s.refs(g.id) == {"table_msg": "42"}
        assert await s.player_stats(CHAT, "u1") == StatRow("u1", "Ann", 1, 1, 30)
        assert await s.active_games() == [before[0]]
    finally:
        await s.close()


async def test_active_games_lists_only_running_games_oldest_first(storage: StoragePort) -> None:
    a = await _running(storage, "tg:1")
    await storage.create_game("tg:2", {})  # lobby: excluded
    b = await _running(storage, "tg:3")
    c = await _running(storage, "tg:4")
    await storage.commit(c.id, 1, state=None, meta={}, status="finished")
    assert await storage.active_games() == [a, b]


async def test_open_games_lists_lobbies_and_running_games_with_their_deadlines(
    storage: StoragePort, clock: FakeClock
) -> None:
    a = await _running(storage, "tg:1")
    due = clock() + 60
    lobby = await storage.create_game("tg:2", {}, deadline=due)
    assert lobby.deadline == due
    done = await _running(storage, "tg:3")
    await storage.commit(done.id, 1, state=None, meta={}, status="finished")
    assert await storage.open_games() == [a, lobby]
    assert [g.deadline for g in await storage.open_games()] == [None, due]


async def test_version_conflict_changes_nothing(storage: StoragePort) -> None:
    g = await _running(storage)
    row_before, log_before = await storage.get_game(g.id), await storage.log(g.id)
    for stale in (0, 2, 7):
        with pytest.raises(VersionConflict) as info:
            await storage.commit(
                g.id,
                stale,
                state={"evil": True},
                meta={"evil": True},
                status="finished",
                log=[LogEntry("u2", "double move")],
                deadline=1.0,
            )
        assert (info.value.game_id, info.value.expected, info.value.actual) == (g.id, stale, 1)
        assert await storage.get_game(g.id) == row_before
        assert await storage.log(g.id) == log_before
    # ...and the storage is still usable (lock released, no transaction left open)
    assert (await storage.commit(g.id, 1, state={}, meta={}, status="running")).version == 2


async def test_failure_after_the_update_rolls_back_and_is_never_visible(
    storage: StoragePort,
) -> None:
    """The UPDATE succeeds, then appending the log fails: the whole commit must vanish, and
    concurrent readers on the same Storage must never observe the half-done transaction."""
    g = await _running(storage)
    before, log_before = await storage.get_game(g.id), await storage.log(g.id)
    bad = asyncio.create_task(
        storage.commit(
            g.id, 1, state={"x": 1}, meta={}, status="running",
            log=[LogEntry("u1", "ok"), LogEntry("u1", "\ud800")],  # unencodable: fails late
        )
    )  # fmt: skip

    seen: list[GameRecord | None] = []

    async def poll() -> None:  # keep reading for as long as the commit is in flight
        while not bad.done():
            seen.append(await storage.get_game(g.id))

    await asyncio.gather(poll(), poll(), poll())
    with pytest.raises(ValueError):  # a lone surrogate cannot be stored as text
        await bad
    assert all(r == before for r in seen), "a reader saw an uncommitted write"
    assert await storage.get_game(g.id) == before
    assert await storage.log(g.id) == log_before


async def test_commit_unknown_game(storage: StoragePort) -> None:
    with pytest.raises(GameNotFound):
        await storage.commit(999, 0, state=None, meta={}, status="running")


async def test_invalid_commits_are_rejected_without_side_effects(storage: StoragePort) -> None:
    g = await _running(storage)
    before = await storage.get_game(g.id)
    with pytest.raises(ValueError):
        await storage.commit(g.id, 1, state={}, meta={}, status="paused")
    with pytest.raises(ValueError):  # NaN is not JSON
        await storage.commit(g.id, 1, state={"x": float("nan")}, meta={}, status="running")
    with pytest.raises(TypeError):
        await storage.commit(g.id, 1, state={"x": {1, 2}}, meta={}, status="running")
    assert await storage.get_game(g.id) == before
    assert (await storage.commit(g.id, 1, state={}, meta={}, status="running")).version == 2


async def test_concurrent_commits_on_one_instance(storage: StoragePort) -> None:
    g = await _running(storage)
    results = await asyncio.gather(
        *(
            storage.commit(
                g.id, 1, state={"by": i}, meta={}, status="running", log=[LogEntry(str(i), "m")]
            )
            for i in range(10)
        ),
        return_exceptions=True,
    )
    winners = [r for r in results if isinstance(r, GameRecord)]
    assert len(winners) == 1
    assert all(isinstance(r, VersionConflict) for r in results if r not in winners)
    assert await storage.get_game(g.id) == winners[0]
    assert [(e.actor, e.version) for e in await storage.log(g.id)][1:] == [
        (str(winners[0].state["by"]), 2)  # type: ignore[index]
    ]


@pytest.mark.parametrize("yields", range(8))
async def test_cancelled_commit_is_all_or_nothing(storage: StoragePort, yields: int) -> None:
    g = await _running(storage)
    task = asyncio.create_task(
        storage.commit(
            g.id, 1, state={"x": 1}, meta={}, status="running",
            log=[LogEntry("u1", "a"), LogEntry("u1", "b")],
        )
    )  # fmt: skip
    for _ in range(yields):
        await asyncio.sleep(0)
    # The writer's thread runs beside these turns of the loop: on busy cores it may have
    # committed before the cancel, which then comes too late and the caller gets its record.
    finished = task.done()
    task.cancel()
    if finished:
        assert (await task).version == 2
    else:
        with pytest.raises(asyncio.CancelledError):
            await task
    now = await storage.get_game(g.id)
    assert now is not None
    log = await storage.log(g.id)
    if now.version == 1:
        assert now == g and len(log) == 1
    else:
        assert now.version == 2 and [e.action for e in log] == ["start", "a", "b"]
    # the lock and the connection are free again
    after = await storage.commit(g.id, now.version, state={}, meta={}, status="running")
    assert after.version == now.version + 1


async def test_last_game_is_the_chats_newest_of_any_status(storage: StoragePort) -> None:
    assert await storage.last_game(CHAT) is None
    first = await storage.create_game(CHAT, {"n": 1})
    await storage.commit(first.id, 0, state={}, meta={"n": 1}, status="finished")
    other = await storage.create_game("tg:-999", {"n": 2})  # another chat's newer game
    second = await storage.create_game(CHAT, {"n": 3})
    last = await storage.last_game(CHAT)
    assert last is not None and (last.id, last.status) == (second.id, "lobby")
    await storage.commit(second.id, 0, state=None, meta={"n": 3}, status="killed")
    assert (await storage.last_game(CHAT)).status == "killed"  # type: ignore[union-attr]
    assert (await storage.last_game("tg:-999")).id == other.id  # type: ignore[union-attr]


async def test_only_one_lobby_or_running_game_per_chat(storage: StoragePort) -> None:
    g = await storage.create_game(CHAT, {})
    with pytest.raises(GameExists) as info:
        await storage.create_game(CHAT, {})
    assert info.value.chat_key == CHAT
    await storage.commit(g.id, 0, state={}, meta={}, status="running")
    with pytest.raises(GameExists):
        await storage.create_game(CHAT, {})
    other = await storage.create_game(OTHER, {})  # other chats are independent
    assert (await storage.active_game(CHAT), await storage.active_game(OTHER)) == (
        await storage.get_game(g.id),
        other,
    )


@pytest.mark.parametrize("end", ["finished", "killed"])
async def test_ended_games_do_not_block_a_new_one(storage: StoragePort, end: str) -> None:
    g = await _running(storage)
    await storage.commit(g.id, 1, state={}, meta={}, status=end)
    new = await storage.create_game(CHAT, {"n": 2})
    assert new.id != g.id
    assert await storage.active_game(CHAT) == new
    # reviving the old game would make two open games: refused, nothing changed
    old = await storage.get_game(g.id)
    with pytest.raises(GameExists):
        await storage.commit(g.id, 2, state={}, meta={}, status="running")
    assert await storage.get_game(g.id) == old


async def test_refs(storage: StoragePort) -> None:
    g1 = await storage.create_game(CHAT, {})
    g2 = await storage.create_game(OTHER, {})
    assert await storage.get_ref(g1.id, "table") is None
    assert await storage.refs(g1.id) == {}
    await storage.put_ref(g1.id, "table", "111")
    await storage.put_ref(g1.id, "hand:u1", "222")
    await storage.put_ref(g2.id, "table", "999")
    await storage.put_ref(g1.id, "table", "333")  # overwrite
    assert await storage.get_ref(g1.id, "table") == "333"
    assert await storage.refs(g1.id) == {"table": "333", "hand:u1": "222"}
    assert await storage.refs(g2.id) == {"table": "999"}


async def test_ref_for_unknown_game_is_rejected(storage: StoragePort) -> None:
    with pytest.raises(GameNotFound):
        await storage.put_ref(12345, "table", "1")
    assert await storage.refs(12345) == {}


async def test_claim_ref_stores_only_over_what_the_claimer_saw(storage: StoragePort) -> None:
    """The first claim of an absent ref stores; a later one gets the stored value back and
    changes nothing. Replacing a known value works only while it is still that value."""
    g = await storage.create_game(CHAT, {})
    assert await storage.claim_ref(g.id, "table", "111") == "111"
    assert await storage.claim_ref(g.id, "table", "222") == "111"
    assert await storage.claim_ref(g.id, "table", "333", replacing="999") == "111"
    assert await storage.claim_ref(g.id, "table", "444", replacing="111") == "444"
    assert await storage.claim_ref(g.id, "other", "5", replacing="4") is None  # nothing to replace
    assert await storage.refs(g.id) == {"table": "444"}
    # Claims made at once: exactly one stores, and every claimer learns which.
    won = await asyncio.gather(*(storage.claim_ref(g.id, "dm", str(n)) for n in range(8)))
    assert len(set(won)) == 1 and won[0] == await storage.get_ref(g.id, "dm")
    with pytest.raises(GameNotFound):
        await storage.claim_ref(12345, "table", "1")


async def _finished(s: StoragePort, chat: str = CHAT) -> int:
    g = await _running(s, chat)
    await s.commit(g.id, 1, state={}, meta={}, status="finished")
    return g.id


async def test_record_match_is_idempotent(storage: StoragePort) -> None:
    gid = await _finished(storage)
    results = [PlayerResult("u1", "Ann", True, 50), PlayerResult("u2", "Bob", False, 0)]
    await storage.record_match(CHAT, gid, results)
    await storage.record_match(CHAT, gid, results)
    await storage.record_match(CHAT, gid, [PlayerResult("u1", "Ann", True, 999)])
    assert await storage.player_stats(CHAT, "u1") == StatRow("u1", "Ann", 1, 1, 50)
    assert await storage.player_stats(CHAT, "u2") == StatRow("u2", "Bob", 1, 0, 0)

    gid2 = await _finished(storage)
    await storage.record_match(CHAT, gid2, [PlayerResult("u1", "Anna", False, 7)])
    assert await storage.player_stats(CHAT, "u1") == StatRow("u1", "Anna", 2, 1, 57)
    assert await storage.player_stats(CHAT, "nobody") is None
    assert await storage.player_stats(OTHER, "u1") is None  # stats are per chat


async def test_record_match_rejects_duplicate_players(storage: StoragePort) -> None:
    gid = await _finished(storage)
    with pytest.raises(ValueError):
        await storage.record_match(
            CHAT, gid, [PlayerResult("u1", "A", True, 1), PlayerResult("u1", "A", False, 0)]
        )
    assert await storage.player_stats(CHAT, "u1") is None


async def test_leaderboard_order_and_limit(storage: StoragePort) -> None:
    async def match(*results: tuple[str, str, bool, int], chat: str = CHAT) -> None:
        gid = await _finished(storage, chat)
        await storage.record_match(chat, gid, [PlayerResult(*r) for r in results])

    # final totals (games, wins, points):
    #   w: 2 games, 2 wins, 10   -> first: most wins despite fewest points
    #   p: 2 games, 1 win, 100   -> ties on wins with q, r, s; most points
    #   q: 1 game, 1 win, 40     -> ties with r and s on wins+points; fewest games, name "Q"
    #   s: 1 game, 1 win, 40     -> same as q, name "S" sorts after "Q"
    #   r: 2 games, 1 win, 40    -> more games than q and s
    #   z: 1 game, 0 wins, 0
    await match(("w", "W", True, 5), ("p", "P", False, 0))
    await match(("w", "W", True, 5), ("z", "Z", False, 0))
    await match(("p", "P", True, 100), ("r", "R", False, 0))
    await match(("r", "R", True, 40))
    await match(("s", "S", True, 40))
    await match(("q", "Q", True, 40))
    await match(("x", "X", True, 1000), chat=OTHER)  # another chat's champion is not ours

    board = await storage.leaderboard(CHAT)
    assert [r.user_id for r in board] == ["w", "p", "q", "s", "r", "z"]
    assert board[0] == StatRow("w", "W", 2, 2, 10)
    assert [r.user_id for r in await storage.leaderboard(CHAT, limit=3)] == ["w", "p", "q"]
    assert await storage.leaderboard("tg:empty") == []


async def _snapshot(s: StoragePort, game_id: int) -> tuple[Any, ...]:
    return (
        await s.get_game(game_id),
        await s.log(game_id),
        await s.refs(game_id),
        await s.get_settings(CHAT),
        await s.leaderboard(CHAT),
    )


async def _every_write_fails(
    s: StoragePort, g: GameRecord, *, pad: str = "", in_place: bool = True
) -> list[BaseException]:
    """Try each kind of write on ``g`` (at version 1); return what each raised.

    ``pad`` makes every written value that long, so each write needs new pages; ``in_place``
    adds the writes that only rewrite a row (which a full disk does not stop).
    """
    who = [PlayerResult("u1", "Ann" + pad, True, 5)]
    attempts: list[Callable[[], Awaitable[Any]]] = [
        lambda: s.commit(g.id, 1, state={"x": pad}, meta={}, status="running",
                         log=[LogEntry("u1", "m" + pad)]),
        lambda: s.commit(g.id, 1, state={"x": pad}, meta={}, status="finished",
                         match=MatchRecord(who, Scoring.WINNER)),
        lambda: s.put_settings(CHAT, {"lang": "uk" + pad}),
        lambda: s.put_ref(g.id, "table", "9" + pad),
        lambda: s.record_match(CHAT, g.id, who),
        lambda: s.create_game(OTHER, {"m": pad}),
    ]  # fmt: skip
    if in_place:
        attempts.append(lambda: s.mark_broken(g.id))
    errors: list[BaseException] = []
    for attempt in attempts:
        with pytest.raises(StorageError) as info:
            await attempt()
        assert info.value.__cause__ is not None  # the backend's own error
        errors.append(info.value)
    return errors


@pytest.mark.parametrize("kind", ["locked", "full", "read_only"])
async def test_a_failing_database_raises_storage_error_and_keeps_the_data(
    backend: Backend, storage: StoragePort, kind: str
) -> None:
    g = await _running(storage)
    await storage.put_settings(CHAT, {"lang": "ru"})
    before = await _snapshot(storage, g.id)
    async with backend.fault(storage, kind):
        # A full disk refuses new data; rewriting a row in place may still fit, so that case
        # writes values large enough to need new room.
        full = kind == "full"
        await _every_write_fails(storage, g, pad="x" * 20_000 if full else "", in_place=not full)
        assert await _snapshot(storage, g.id) == before  # reads still answer meanwhile
        assert await storage.active_game(OTHER) is None
    assert await _snapshot(storage, g.id) == before
    # the fault is over: the storage works again, and the same move can be retried
    assert (await storage.commit(g.id, 1, state={}, meta={}, status="running")).version == 2


async def test_a_closed_storage_raises_storage_error_on_every_call(backend: Backend) -> None:
    s = await backend.open()
    g = await _running(s)
    await s.close()
    calls = [
        s.get_game(g.id), s.active_game(CHAT), s.last_game(CHAT), s.open_games(),
        s.active_games(), s.unrecorded_finished_games(), s.log(g.id), s.refs(g.id),
        s.get_ref(g.id, "t"), s.get_settings(CHAT), s.leaderboard(CHAT),
        s.player_stats(CHAT, "u1"), s.put_settings(CHAT, {}), s.mark_broken(g.id),
        s.commit(g.id, 1, state={}, meta={}, status="running"),
    ]  # fmt: skip
    for call in calls:
        with pytest.raises(StorageError, match="closed"):
            await call


def test_storage_error_is_not_one_of_the_storage_answers() -> None:
    """Callers tell a fault (retry later) from an answer (reload, refuse): no shared base."""
    for answer in (VersionConflict, GameExists, GameNotFound):
        assert not issubclass(answer, StorageError)
        assert not issubclass(StorageError, answer)
    assert not issubclass(StorageError, (ValueError, LookupError))


async def test_commit_with_a_match_records_it_in_the_same_transaction(storage: StoragePort) -> None:
    g = await _running(storage)
    match = MatchRecord((PlayerResult("u1", "Ann", True, 40), PlayerResult("u2", "Bob", False, 0)))
    done = await storage.commit(
        g.id, 1, state={"over": True}, meta={}, status="finished", match=match
    )
    assert done.status == "finished"
    assert await storage.leaderboard(CHAT) == [
        StatRow("u1", "Ann", 1, 1, 40),
        StatRow("u2", "Bob", 1, 0, 0),
    ]
    assert await storage.unrecorded_finished_games() == []
    # idempotent per game: a later record_match (recovery) or commit adds nothing
    await storage.record_match(CHAT, g.id, list(match.results))
    await storage.commit(g.id, 2, state={}, meta={}, status="finished", match=match)
    assert (await storage.player_stats(CHAT, "u1")) == StatRow("u1", "Ann", 1, 1, 40)


async def test_a_tally_match_goes_to_the_tally_columns(storage: StoragePort) -> None:
    g = await _running(storage)
    match = MatchRecord([PlayerResult("u1", "Ann", True, 12)], Scoring.TALLY)
    await storage.commit(g.id, 1, state={}, meta={}, status="finished", match=match)
    assert await storage.player_stats(CHAT, "u1") == StatRow("u1", "Ann", 1, 1, 0, 1, 12)


async def test_a_refused_commit_records_no_match(storage: StoragePort) -> None:
    g = await _running(storage)
    match = MatchRecord([PlayerResult("u1", "Ann", True, 40)])
    with pytest.raises(VersionConflict):
        await storage.commit(g.id, 0, state={}, meta={}, status="finished", match=match)
    with pytest.raises(ValueError):  # duplicate players: refused before any transaction
        await storage.commit(
            g.id, 1, state={}, meta={}, status="finished",
            match=MatchRecord([PlayerResult("u1", "A", True, 1), PlayerResult("u1", "A", True, 1)]),
        )  # fmt: skip
    assert await storage.player_stats(CHAT, "u1") is None
    assert (await storage.get_game(g.id)).version == 1  # type: ignore[union-attr]


async def test_a_failing_match_write_keeps_the_move_out_too(
    backend: Backend, storage: StoragePort
) -> None:
    """State and statistics are one transaction: if the statistics cannot be written, the last
    move is not stored either (and the caller may retry both)."""
    g = await _running(storage)
    before = await _snapshot(storage, g.id)
    match = MatchRecord([PlayerResult("u1", "Ann", True, 40)])
    async with backend.refuse_stats():
        with pytest.raises(StorageError, match="stats refused"):
            await storage.commit(
                g.id, 1, state={}, meta={}, status="finished", log=[LogEntry("u1", "win")],
                match=match,
            )  # fmt: skip
        assert await _snapshot(storage, g.id) == before
        assert await storage.unrecorded_finished_games() == []
    done = await storage.commit(g.id, 1, state={}, meta={}, status="finished", match=match)
    assert done.version == 2 and await storage.player_stats(CHAT, "u1") is not None


async def test_unrecorded_finished_games_are_the_ones_to_recover(storage: StoragePort) -> None:
    recorded = await _running(storage, "tg:1")
    await storage.commit(recorded.id, 1, state={}, meta={}, status="finished",
                       match=MatchRecord([PlayerResult("u1", "A", True, 1)]))  # fmt: skip
    lost = await _running(storage, "tg:2")
    lost_done = await storage.commit(lost.id, 1, state={"s": 1}, meta={"m": 1}, status="finished")
    late = await _running(storage, "tg:3")
    await storage.commit(late.id, 1, state={}, meta={}, status="finished")
    await storage.record_match("tg:3", late.id, [PlayerResult("u1", "A", True, 1)])
    await _running(storage, "tg:4")  # running
    killed = await _running(storage, "tg:5")
    await storage.commit(killed.id, 1, state={}, meta={}, status="killed")
    assert await storage.unrecorded_finished_games() == [lost_done]
    await storage.record_match("tg:2", lost.id, [])  # recovery recorded it (even with no humans)
    assert await storage.unrecorded_finished_games() == []


async def test_mark_broken_sets_the_game_aside(storage: StoragePort, clock: FakeClock) -> None:
    g = await _running(storage)
    await storage.commit(g.id, 1, state={"s": 1}, meta={"m": 1}, status="running", deadline=99.0)
    await storage.mark_broken(g.id)
    broken = await storage.get_game(g.id)
    assert broken is not None
    assert (broken.status, broken.deadline, broken.state, broken.meta) == (
        "broken", None, {"s": 1}, {"m": 1},
    )  # fmt: skip
    assert broken.updated_at == clock.now
    assert "broken" in STATUSES
    assert await storage.active_game(CHAT) is None
    assert await storage.open_games() == await storage.active_games() == []
    assert await storage.unrecorded_finished_games() == []
    assert await storage.last_game(CHAT) == broken
    new = await storage.create_game(CHAT, {})  # the chat can play again
    assert await storage.active_game(CHAT) == new
    with pytest.raises(VersionConflict):  # a move loaded before it was set aside is refused
        await storage.commit(g.id, 2, state={}, meta={}, status="running")
    await storage.mark_broken(g.id)  # again: harmless
    with pytest.raises(GameNotFound):
        await storage.mark_broken(g.id + 1000)


async def test_a_lobby_can_be_marked_broken(storage: StoragePort) -> None:
    lobby = await storage.create_game(CHAT, {}, deadline=5.0)
    await storage.mark_broken(lobby.id)
    assert await storage.open_games() == []


@pytest.mark.parametrize(("backend", "how"), CORRUPT_CASES, indirect=["backend"])
@pytest.mark.parametrize("column", ["state", "meta"])
async def test_a_corrupt_row_reads_as_corrupt_and_never_raises(
    backend: Backend, storage: StoragePort, column: str, how: str
) -> None:
    good_before = await _running(storage, "tg:1")
    bad = await _running(storage, CHAT)
    lobby = await storage.create_game("tg:3", {"ok": True})
    good_after = await _running(storage, "tg:4")
    await backend.corrupt(bad.id, column, how)
    expected = GameRecord(
        bad.id, CHAT, "running", 1, None, {}, None, bad.created_at, bad.updated_at, corrupt=True
    )
    assert await storage.get_game(bad.id) == expected
    assert await storage.active_game(CHAT) == expected
    assert await storage.last_game(CHAT) == expected
    # one bad row does not stop the start-up listing from returning every good one
    assert await storage.open_games() == [good_before, expected, lobby, good_after]
    assert await storage.active_games() == [good_before, expected, good_after]
    assert not any(g.corrupt for g in (good_before, lobby, good_after))
    await storage.mark_broken(bad.id)
    assert await storage.active_game(CHAT) is None
    assert (await storage.get_game(bad.id)).corrupt  # type: ignore[union-attr]


async def test_a_corrupt_finished_game_is_still_listed_for_recovery(
    backend: Backend, storage: StoragePort
) -> None:
    g = await _running(storage)
    await storage.commit(g.id, 1, state={}, meta={}, status="finished")
    await backend.corrupt(g.id, "state", "not json")
    [rec] = await storage.unrecorded_finished_games()
    assert rec.corrupt and rec.id == g.id


@pytest.mark.parametrize("game_id", [2**63, -(2**63) - 1, 2**64 + 5, 10**30, -(10**30),
                                     2**63 - 1, -(2**63), 0, -1])  # fmt: skip
async def test_any_int_game_id_is_no_such_game(storage: StoragePort, game_id: int) -> None:
    g = await _running(storage)  # a real game, which none of these ids names
    await storage.put_ref(g.id, "table", "1")
    assert await storage.get_game(game_id) is None
    assert await storage.log(game_id) == []
    assert await storage.get_ref(game_id, "table") is None
    assert await storage.refs(game_id) == {}
    with pytest.raises(GameNotFound):
        await storage.commit(game_id, 0, state={}, meta={}, status="running")
    with pytest.raises(GameNotFound):
        await storage.put_ref(game_id, "table", "2")
    with pytest.raises(GameNotFound):
        await storage.record_match(CHAT, game_id, [PlayerResult("u1", "A", True, 1)])
    with pytest.raises(GameNotFound):
        await storage.mark_broken(game_id)
    assert await storage.player_stats(CHAT, "u1") is None
    assert await storage.refs(g.id) == {"table": "1"}
