"""The deadlines this process knows of, and waking the timer loops when one comes due earlier.

One deadline per chat, armed by this process's own commits (and by `start` after a restart):
they wake the timer loop early, while the database decides which process acts on a due
deadline (`bot.service.clock`). A deadline whose work failed on the storage is armed again
after a backoff, never dropped: the game must not wait for a restart to move on.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable

RETRY_FIRST = 1.0  # seconds before the first retry of a failed deadline
RETRY_MAX = 60.0  # retries back off by doubling up to this
IDLE_WAIT = 3600.0  # a loop with nothing armed still looks again this often


class Alarms:
    def __init__(self) -> None:
        self._due: dict[str, float] = {}
        self._failures: dict[str, int] = {}
        # Chats whose deadline work runs now: their alarm waits until it is done (`running`).
        self._running: set[str] = set()
        # One event per waiting loop (a process may run a Telegram and a Discord loop): each
        # loop clears only its own, so waking one never swallows the other's wake-up.
        self._waiting: set[asyncio.Event] = set()

    def arm(self, chat_key: str, at: float | None) -> None:
        """Set (None: clear) the chat's deadline; wake the loops if it comes earlier."""
        if at is None:
            self._due.pop(chat_key, None)
            self._failures.pop(chat_key, None)
            return
        previous = self._due.get(chat_key)
        self._due[chat_key] = at
        if previous is None or at < previous:
            self.wake()

    def at(self, chat_key: str) -> float | None:
        return self._due.get(chat_key)

    def due(self, now: float, prefix: str = "") -> list[str]:
        return [
            c
            for c, at in self._due.items()
            if at <= now and c.startswith(prefix) and c not in self._running
        ]

    def next(self, prefix: str = "") -> float | None:
        """The earliest deadline of the chats whose key starts with `prefix` (but those whose
        deadline work runs now)."""
        return min(
            (at for c, at in self._due.items() if c.startswith(prefix) and c not in self._running),
            default=None,
        )

    def running(self, chat_key: str) -> None:
        """The chat's deadline work started: its alarm is not due again until `done`."""
        self._running.add(chat_key)

    def done(self, chat_key: str) -> None:
        """The chat's deadline work ended; the deadline it left (if any) counts again."""
        self._running.discard(chat_key)
        if chat_key in self._due:
            self.wake()

    def failed(self, chat_key: str, now: float) -> float:
        """The chat's deadline work failed: arm it again after a backoff; returns the delay."""
        count = self._failures.get(chat_key, 0) + 1
        self._failures[chat_key] = count
        delay = retry_delay(count)
        self._due[chat_key] = now + delay
        return delay

    def succeeded(self, chat_key: str) -> None:
        self._failures.pop(chat_key, None)

    def retrying(self, chat_key: str) -> bool:
        """Whether the chat's deadline work failed and waits for its retry."""
        return chat_key in self._failures

    def wake(self) -> None:
        """Make every waiting loop look at the deadlines again (also after a fake clock moved)."""
        for event in self._waiting:
            event.set()

    async def sleep(
        self,
        prefix: str,
        now: Callable[[], float],
        *,
        stored: Callable[[], Awaitable[float | None]] | None = None,
        most: float = IDLE_WAIT,
    ) -> None:
        """Wait until the next deadline of `prefix` is due (the earlier of this process's and
        `stored`'s, the database's), at most `most` seconds, or until `wake`. A deadline armed
        while `stored` is read wakes the sleep too: the loop is listening from the start."""
        event = asyncio.Event()
        self._waiting.add(event)
        try:
            other = None if stored is None else await stored()
            at = min((t for t in (self.next(prefix), other) if t is not None), default=None)
            delay = most if at is None else min(most, max(0.0, at - now()))
            # asyncio.timeout, not wait_for: Python 3.11's wait_for returns a wake-up that
            # comes with a cancellation and drops the cancellation (the loop would not stop).
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(delay):
                    await event.wait()
        finally:
            self._waiting.discard(event)

    def __len__(self) -> int:
        return len(self._due)


def retry_delay(failures: int) -> float:
    """1, 2, 4, ... seconds, capped at RETRY_MAX."""
    return min(RETRY_MAX, RETRY_FIRST * 2.0 ** min(failures - 1, 16))
