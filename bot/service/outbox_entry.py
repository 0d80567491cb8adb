"""What an outbox entry holds: the payload a commit writes, and the outcome read back from it.

The one place that knows the payload's keys (the storage never looks inside): the events
(public and private), the notices, the info, the players whose hands changed, the names, the
language, whether the match finished, and the player whose turn the change began. The views
are not stored: a re-delivery draws them from the game's latest committed state.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from bot.service.outcome import Notice, Outcome
from bot.storage import OutboxEntry
from core.events import DealerChosen, Event, event_from_dict, event_to_dict

logger = logging.getLogger("bot.service")


def payload(
    out_lang: str,
    names: dict[str, str],
    events: Sequence[Event],
    notices: Sequence[Notice],
    info: Notice | None,
    hands: Sequence[str],
    finished: bool,
    began: str | None = None,
) -> dict[str, Any]:
    """An entry's payload: what the chat must be shown beyond the latest state (`began`: the
    player whose turn the change began, notified when it is shown)."""
    return {
        "began": began,
        "lang": out_lang,
        "names": dict(names),
        "events": [event_to_dict(e) for e in events],
        "notices": [_notice(n) for n in notices],
        "info": None if info is None else _notice(info),
        "hands": list(hands),
        "finished": finished,
    }


def outcome_of(entry: OutboxEntry) -> Outcome:
    """The entry's outcome without views: its language, names, events and notices."""
    data = entry.payload
    lang, names = data.get("lang"), data.get("names")
    out = Outcome(
        entry.chat_key,
        lang if isinstance(lang, str) else "ru",
        names={str(k): str(v) for k, v in names.items()} if isinstance(names, dict) else {},
    )
    out.events = _events(entry, data.get("events"))
    out.notices = [n for n in map(_notice_of, data.get("notices") or ()) if n is not None]
    out.info = _notice_of(data.get("info"))
    return out


def hands(entry: OutboxEntry) -> list[str]:
    """The players whose hands the entry's change changed."""
    return [p for p in entry.payload.get("hands", ()) if isinstance(p, str)]


def began(entry: OutboxEntry) -> str | None:
    """The player whose turn the entry's change began, if it began one."""
    player = entry.payload.get("began")
    return player if isinstance(player, str) else None


def dealt(entry: OutboxEntry) -> bool:
    """Whether the entry's change dealt the game (its events choose the dealer)."""
    return any(
        isinstance(e, dict) and e.get("event") == DealerChosen.name
        for e in entry.payload.get("events") or ()
    )


def _notice(notice: Notice) -> dict[str, Any]:
    return {"key": notice.key, "args": dict(notice.args)}


def _notice_of(data: Any) -> Notice | None:
    if not isinstance(data, dict) or not isinstance(data.get("key"), str):
        return None
    args = data.get("args")
    return Notice(data["key"], dict(args) if isinstance(args, dict) else {})


def _events(entry: OutboxEntry, data: Any) -> list[Event]:
    events = []
    for item in data or ():
        try:
            events.append(event_from_dict(item))
        except (KeyError, TypeError, ValueError) as exc:
            logger.error("outbox entry %d: an event cannot be read (%s)", entry.id, exc)
    return events
