"""The feed of committed changes: "game `id` is now at `version`", for whoever shows games live.

A view that is pushed rather than answered (the web table) must learn of every commit of its
game, whichever adapter or process made it. Two sources feed one `Changes`:

- this process: the unit of work publishes after each commit of a game (`Work._store`,
  `Work.create`), so a move made on Telegram, Discord, the console or a timer is seen at once;
- other processes (PostgreSQL only): each commit also sends `pg_notify` in its own transaction
  (so a notification exists exactly when the commit does), and a listening connection
  (`bot.storage.postgres.listen`) publishes what it hears here. LISTEN/NOTIFY rather than
  reading the outbox: the outbox holds only what a chat adapter must still send, is claimed
  and finished by one process, and would have to be polled; a notification reaches every
  process at once and costs one statement in a transaction that is open anyway.

A notification carries no view: a subscriber reads the current view through the service, so a
change it missed (its listener reconnecting) costs nothing but a read, announced by `gap`.
Versions only grow, so a subscriber may ignore a version it has already shown (the same commit
arrives twice on PostgreSQL: from this process and from the listener).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from bot.storage.port import ChangeStorage

logger = logging.getLogger(__name__)

Listener = Callable[[int, int], None]  # (game id, version), called on the event loop; no await


class Changes:
    """Subscribers by game, and those of every game (`game_id` None); publishing never fails."""

    def __init__(self) -> None:
        self._by_game: dict[int | None, list[Listener]] = {}
        self._gap: list[Callable[[], None]] = []

    def subscribe(self, listener: Listener, game_id: int | None = None) -> Callable[[], None]:
        """Call `listener` on each change of `game_id` (None: of every game); returns the way
        to stop."""
        self._by_game.setdefault(game_id, []).append(listener)

        def stop() -> None:
            listeners = self._by_game.get(game_id, [])
            if listener in listeners:
                listeners.remove(listener)
            if not listeners:
                self._by_game.pop(game_id, None)

        return stop

    def on_gap(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Call `callback` when changes may have been missed (a listener reconnected)."""
        self._gap.append(callback)
        return lambda: self._gap.remove(callback) if callback in self._gap else None

    def publish(self, game_id: int, version: int) -> None:
        for listener in [*self._by_game.get(game_id, ()), *self._by_game.get(None, ())]:
            try:
                listener(game_id, version)
            except Exception:  # one broken subscriber must not cost a commit its answer
                logger.exception("a change listener of game %d failed", game_id)

    def gap(self) -> None:
        for callback in list(self._gap):
            try:
                callback()
            except Exception:
                logger.exception("a change gap callback failed")

    async def follow(self, storage: ChangeStorage) -> None:
        """Publish the commits of other processes until cancelled (a storage only this process
        writes has none to tell)."""
        await storage.listen_changes(self.publish, self.gap)
