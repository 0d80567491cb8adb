"""How values cross into and out of the database, the same for every backend.

Values are checked and serialised before a write is queued, so a bad value fails fast in its
caller and never inside a transaction; rows are decoded without ever raising on bad data.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from bot.storage.port import (
    STATUSES,
    GameNotFound,
    GameRecord,
    LogEntry,
    OutboxEntry,
    PlayerResult,
)
from core.rules import Scoring

# Game ids are signed 64-bit integers in SQLite and PostgreSQL (bigint) alike.  A Python int
# outside this range cannot even be bound (sqlite3 raises OverflowError), so such an id -- say,
# from forged button data -- can only mean "no such game".
MIN_ID: Final = -(2**63)
MAX_ID: Final = 2**63 - 1


def known_id(game_id: int) -> bool:
    """Whether ``game_id`` can name a stored game at all."""
    return MIN_ID <= game_id <= MAX_ID


def dumps(value: Any) -> str:
    """Compact JSON; NaN/Infinity are rejected because other JSON readers cannot parse them."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


@dataclass(frozen=True)
class Commit:
    """A commit checked and serialised before any transaction (a bad value fails fast, holding
    no lock), the same for every backend."""

    game_id: int
    status: str
    version: int  # the version the commit produces
    state: str | None
    meta: str
    deadline: float | None
    now: float
    log: list[tuple[int, int, int, str, str, float]]  # game_log rows, in order
    outbox: list[str]  # the outbox payloads, serialised
    claim: float  # the new entries are claimed until then

    def record(self, chat_key: str, created_at: float, outbox: Sequence[int] = ()) -> GameRecord:
        """The stored game as this commit leaves it (``outbox``: the new entries' ids)."""
        state = None if self.state is None else json_object(self.state)
        return GameRecord(
            self.game_id, chat_key, self.status, self.version, state,
            json_object(self.meta) or {}, self.deadline, created_at, self.now,
            outbox=tuple(outbox),
        )  # fmt: skip


def prepare_commit(
    game_id: int,
    expected_version: int,
    *,
    state: dict[str, Any] | None,
    meta: dict[str, Any],
    status: str,
    log: Sequence[LogEntry],
    deadline: float | None,
    now: float,
    outbox: Sequence[dict[str, Any]] = (),
    claim: float = 0.0,
) -> Commit:
    """Check and serialise what `GameStorage.commit` writes; GameNotFound for an id no row can
    have, ValueError for a status or value the storage cannot hold."""
    check_status(status)
    if not known_id(game_id):
        raise GameNotFound(game_id)
    version = expected_version + 1
    rows = [(game_id, version, seq, e.actor, e.action, e.at or now) for seq, e in enumerate(log)]
    state_text = None if state is None else dumps(state)
    payloads = [dumps(payload) for payload in outbox]
    return Commit(
        game_id, status, version, state_text, dumps(meta), deadline, now, rows, payloads, claim
    )


def check_status(status: str) -> None:
    if status not in STATUSES:
        raise ValueError(f"unknown game status {status!r}")


def json_object(raw: str | bytes | None) -> dict[str, Any] | None:
    """The JSON object stored in ``raw`` (None for NULL); ``ValueError`` if it is anything else.

    Bytes are accepted because a text column that is not valid UTF-8 must be read as bytes:
    decoding it as text would fail the whole query, not just the row.
    """
    if raw is None:
        return None
    value = json.loads(raw)  # JSONDecodeError or UnicodeDecodeError: both are ValueErrors
    if not isinstance(value, dict):
        raise ValueError("not a JSON object")
    return value


def settings_object(raw: str | bytes | None) -> dict[str, Any] | None:
    """A chat's stored settings; a value that is not a JSON object reads as none (the
    defaults), so that one damaged row cannot stop its chat from playing."""
    try:
        return json_object(raw)
    except ValueError:
        return None


def game_record(row: Sequence[Any]) -> GameRecord:
    """A record from a stored row, its columns in the order of :class:`GameRecord`.

    A row whose state or meta does not load comes back ``corrupt`` (state None, meta {})
    instead of raising, so one bad row cannot stop a listing -- or the bot's start-up -- from
    returning the good ones.
    """
    game_id, chat_key, status, version, state, meta, deadline, created_at, updated_at = row
    try:
        state_obj = json_object(state)
        meta_obj = json_object(meta)
        if meta_obj is None:
            raise ValueError("no meta")
    except ValueError:
        return GameRecord(
            game_id, chat_key, status, version, None, {}, deadline, created_at, updated_at, True
        )
    return GameRecord(
        game_id, chat_key, status, version, state_obj, meta_obj, deadline, created_at, updated_at
    )


def outbox_entry(row: Sequence[Any]) -> OutboxEntry:
    """An entry from a stored row ``(id, chat_key, game_id, version, payload, created_at,
    attempts)``; a payload that is not a JSON object reads as {} (never raises)."""
    entry_id, chat_key, game_id, version, payload, created_at, attempts = row
    try:
        data = json_object(payload) or {}
    except ValueError:
        data = {}
    return OutboxEntry(entry_id, chat_key, game_id, version, data, created_at, attempts)


def match_results(game_id: int, results: Sequence[PlayerResult]) -> str:
    """A match's results as stored with it (so statistics can be rebuilt); one row per player."""
    ids = [r.user_id for r in results]
    if len(set(ids)) != len(ids):
        raise ValueError(f"duplicate players in results of game {game_id}")
    return dumps(
        [{"user_id": r.user_id, "name": r.name, "won": r.won, "points": r.points} for r in results]
    )


def match_totals(
    results: Sequence[PlayerResult], scoring: Scoring
) -> list[tuple[str, str, int, int, int, int]]:
    """What a match adds to each player's statistics row: ``(user_id, name, wins, points,
    tally_games, tally_points)``.  A `tally` match's points go to the tally sums, never to
    `points` (see :class:`~bot.storage.port.StatRow`)."""
    tally = scoring is Scoring.TALLY
    return [
        (r.user_id, r.name, int(r.won), 0 if tally else r.points, int(tally),
         r.points if tally else 0)
        for r in results
    ]  # fmt: skip
