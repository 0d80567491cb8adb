"""Standings under `tally` scoring, where the fewest points win: the score lists of a match,
the chat's leaderboard (a history that may mix both scorings), and the migration that splits the
points already recorded by mode."""

from __future__ import annotations

import dataclasses
import json
import sqlite3
from pathlib import Path

from bot.presentation.render import Renderer
from bot.service import Service
from bot.storage import MIGRATIONS, SCHEMA_VERSION, PlayerResult, StatRow, Storage
from core.events import GameEnded
from core.game import Game
from core.rules import Rules, Scoring
from tests.service.conftest import ALICE, BORIS, VIKA
from tests.service.test_service import CHAT, install

NAMES = (ALICE.name, BORIS.name, VIKA.name)


def _order(text: str, *names: str) -> list[str]:
    """`names` in the order they first appear in `text`."""
    assert all(name in text for name in names), text
    return sorted(names, key=text.index)


async def test_a_tally_match_and_its_leaderboard_rank_the_fewest_points_first(
    service: Service, storage: Storage, renderer: Renderer
) -> None:
    assert (await service.lobby.new_game(CHAT, ALICE)).ok
    assert (await service.settings.change_setting(CHAT, ALICE, "scoring", "tally")).ok
    for user in (BORIS, VIKA):
        assert (await service.lobby.join(CHAT, user)).ok
    assert (await service.lobby.start_game(CHAT, ALICE)).ok
    # Seat order Vika, Alice, Boris; Alice goes out. Tally: Alice 0, Boris 3, Vika 24, so the
    # target (20) is reached and the fewest points, Alice's, win. Seat order, most points first
    # and fewest points first are three different orders.
    await install(
        service,
        storage,
        Game.from_position(
            players=[VIKA.id, ALICE.id, BORIS.id],
            hands={VIKA.id: "g9 g8 g7", ALICE.id: "r5", BORIS.id: "y1 y2"},
            discard="r1",
            draw="y3 y4 y5 y6 y7 y8 y9 b1 b2 b3",
            rules=Rules(scoring=Scoring.TALLY, target=20),
            current=ALICE.id,
        ),
    )
    out = await service.play.act(ALICE, "play r5", chat_key=CHAT)
    assert out.ok and out.scoring is Scoring.TALLY and out.table is not None
    (ended,) = [e for e in out.events if isinstance(e, GameEnded)]
    assert ended.winners == (ALICE.id,)
    assert ended.scores == {VIKA.id: 24, ALICE.id: 0, BORIS.id: 3}
    for lang in ("ru", "uk"):
        shown = renderer.announcements(dataclasses.replace(out, lang=lang))
        round_won, match_won = shown  # the round, then the match with the final score
        assert _order(match_won.split(":", 1)[1], *NAMES) == list(NAMES), match_won
        # Said once: the round's message names its winner, not the same scores again.
        assert not any(renderer.name(lang, p, out.names) in round_won for p in (VIKA.id, BORIS.id))
    # The table's log of recent events says the same.
    recent = renderer.table(out.table, out.names).split("\n\n")[-1]
    assert _order(recent.splitlines()[-1], *NAMES) == list(NAMES)

    # /stats: Alice won; Boris and Vika did not, and Boris kept fewer tally points.
    rows = await service.statistics.leaderboard(CHAT)
    assert [r.user_id for r in rows] == [ALICE.id, BORIS.id, VIKA.id]
    assert rows[2] == StatRow(VIKA.id, VIKA.name, 1, 0, 0, 1, 24)
    for lang in ("ru", "uk"):
        text = renderer.stats(lang, rows)
        assert _order(text, *NAMES) == list(NAMES)
        assert renderer.t(lang, "stats-tally-points", count=24) in text
        assert renderer.i18n.points(lang, 0) not in text  # no winner-scored games to speak of


# ---------------------------------------------------------------------- the stored leaderboard


async def _match(s: Storage, scoring: Scoring, *results: tuple[str, bool, int]) -> None:
    game = await s.create_game(CHAT, {})
    await s.commit(game.id, 0, state={}, meta={}, status="finished")
    players = [PlayerResult(user, user.upper(), won, points) for user, won, points in results]
    await s.record_match(CHAT, game.id, players, scoring=scoring)


async def test_a_tally_chat_breaks_ties_on_wins_by_fewest_points(storage: Storage) -> None:
    await _match(storage, Scoring.TALLY, ("a", True, 10), ("b", False, 300), ("c", False, 120))
    await _match(storage, Scoring.TALLY, ("b", True, 40), ("c", False, 250), ("d", False, 90))
    # wins: a 1, b 1, c 0, d 0; tally points: a 10, b 340, c 370, d 90
    board = await storage.leaderboard(CHAT, scoring=Scoring.TALLY)
    assert [r.user_id for r in board] == ["a", "b", "d", "c"]
    assert board[1] == StatRow("b", "B", 2, 1, 0, 2, 340)
    # Asked as a winner-scored chat, equal points (none) fall back to the tally ones anyway.
    assert [r.user_id for r in await storage.leaderboard(CHAT)] == ["a", "b", "d", "c"]


async def test_a_mixed_history_ranks_wins_then_the_chats_own_scoring(storage: Storage) -> None:
    await _match(storage, Scoring.WINNER, ("w", True, 200), ("t", False, 0), ("x", False, 0))
    await _match(storage, Scoring.TALLY, ("t", True, 5), ("w", False, 150), ("x", False, 30))
    await _match(storage, Scoring.WINNER, ("x", True, 80), ("t", False, 0))
    # wins: 1 each. winner points: w 200, x 80, t 0; tally points: t 5, x 30, w 150.
    stored = {r.user_id: r for r in await storage.leaderboard(CHAT)}
    assert stored["w"] == StatRow("w", "W", 2, 1, 200, 1, 150)
    assert stored["t"] == StatRow("t", "T", 3, 1, 0, 1, 5)
    winner = await storage.leaderboard(CHAT, scoring=Scoring.WINNER)
    assert [r.user_id for r in winner] == ["w", "x", "t"]
    tally = await storage.leaderboard(CHAT, scoring=Scoring.TALLY)
    assert [r.user_id for r in tally] == ["t", "x", "w"]


async def test_a_player_without_tally_games_is_no_tally_champion(storage: Storage) -> None:
    await _match(storage, Scoring.WINNER, ("n", True, 50), ("m", False, 0))
    await _match(storage, Scoring.TALLY, ("m", True, 70), ("n", False, 90))
    await _match(storage, Scoring.WINNER, ("o", True, 60))
    # wins: 1 each; only m and n played a tally game; o's 0 tally points mean nothing.
    board = await storage.leaderboard(CHAT, scoring=Scoring.TALLY)
    assert [r.user_id for r in board] == ["m", "n", "o"]


def test_stats_rows_name_the_points_of_each_scoring(renderer: Renderer) -> None:
    both = StatRow("1", "Аня", 5, 3, 201, 2, 22)
    assert renderer.stats("ru", [both]).splitlines()[1] == (
        "1. Аня — 3 победы из 5 игр, 201 очко и 22 штрафных очка"
    )
    assert renderer.stats("uk", [both]).splitlines()[1] == (
        "1. Аня — 3 перемоги з 5 ігор, 201 очко і 22 штрафні очки"
    )
    winner_only = StatRow("1", "Аня", 1, 1, 25)
    assert renderer.stats("ru", [winner_only]).splitlines()[1] == (
        "1. Аня — 1 победа из 1 игры, 25 очков"
    )
    tally_only = StatRow("1", "Аня", 21, 0, 0, 21, 101)
    assert renderer.stats("uk", [tally_only]).splitlines()[1] == (
        "1. Аня — 0 перемог з 21 гри, 101 штрафне очко"
    )


# ---------------------------------------------------------------------- the migration


def _make_v2(path: Path) -> None:
    """A database the previous release left: points of both scorings in one sum."""
    raw = sqlite3.connect(path, isolation_level=None)
    try:
        raw.execute("BEGIN")
        for migration in MIGRATIONS[:2]:
            for stmt in migration:
                raw.execute(stmt)
        raw.execute("PRAGMA user_version = 2")
        games = [
            (1, {"rules": {"scoring": "winner", "target": 500}}),
            (2, {"rules": {"scoring": "tally", "target": 500}}),
            (3, None),  # not an engine state at all: counted as winner-scored
        ]
        for game_id, state in games:
            raw.execute(
                "INSERT INTO games (id, chat_key, status, version, state, meta, created_at,"
                " updated_at) VALUES (?, ?, 'finished', 1, ?, '{}', 1.0, 1.0)",
                (game_id, CHAT, None if state is None else json.dumps(state)),
            )
        matches = {
            1: [("u1", True, 120), ("u2", False, 0)],
            2: [("u1", False, 90), ("u2", True, 15)],
            3: [("u1", True, 7)],
        }
        totals: dict[str, list[int]] = {}
        for game_id, results in matches.items():
            payload = [{"user_id": u, "name": u, "won": w, "points": p} for u, w, p in results]
            raw.execute(
                "INSERT INTO matches VALUES (?, ?, ?, 1.0)", (game_id, CHAT, json.dumps(payload))
            )
            for user, won, points in results:
                games_, wins, total = totals.get(user, [0, 0, 0])
                totals[user] = [games_ + 1, wins + won, total + points]
        for user, (games_, wins, total) in totals.items():
            raw.execute(
                "INSERT INTO player_stats VALUES (?, ?, ?, ?, ?, ?)",
                (CHAT, user, user, games_, wins, total),
            )
        raw.execute("COMMIT")
    finally:
        raw.close()


async def test_migration_splits_recorded_points_by_scoring(db_path: Path) -> None:
    _make_v2(db_path)
    s = await Storage.open(db_path)
    try:
        assert SCHEMA_VERSION >= 3  # migrated through v3 (and any later step)
        assert await s.player_stats(CHAT, "u1") == StatRow("u1", "u1", 3, 2, 127, 1, 90)
        assert await s.player_stats(CHAT, "u2") == StatRow("u2", "u2", 2, 1, 0, 1, 15)
        game = await s.create_game(CHAT, {})
        await s.commit(game.id, 0, state={}, meta={}, status="finished")
        await s.record_match(
            CHAT, game.id, [PlayerResult("u2", "u2", False, 4)], scoring=Scoring.TALLY
        )
        assert await s.player_stats(CHAT, "u2") == StatRow("u2", "u2", 3, 1, 0, 2, 19)
    finally:
        await s.close()
