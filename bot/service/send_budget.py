"""Each chat's budget of sends, shared by every bot process that sends to it.

A platform limits the messages a group receives (Telegram: 20 a minute); with several processes
each keeping its own count, a group would get their sum. The database keeps one count for all.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from bot.storage import SendBudgetStorage, SendSlot, StorageError

logger = logging.getLogger("bot.service")


class SendBudget:
    def __init__(self, storage: SendBudgetStorage, clock: Callable[[], float]) -> None:
        self.storage = storage
        self.clock = clock

    async def take_send_slot(
        self, chat_key: str, count: int, period: float, flight: float, reserve: int = 0
    ) -> SendSlot | float:
        """One send in the chat's budget shared by every process: the slot taken, or the seconds
        to wait. `reserve` slots are left for the others (a low-priority send); `flight` is the
        longest the send's call may take (see `SendSlot`). Once the call has completed, answered
        or not, `land_send_slot` records when.

        A storage failure lets the send go (each process still keeps its own budget): a
        message must not wait for the database."""
        try:
            return await self.storage.take_send_slot(
                chat_key, self.clock, max(1, count - reserve), period, flight
            )
        except StorageError as exc:
            logger.warning("send budget of chat %s not shared: %s", chat_key, exc)
            return SendSlot(chat_key, self.clock() + flight)  # recorded nowhere

    async def land_send_slot(self, slot: SendSlot) -> None:
        """The slot's call completed (answered, refused or failed): it counts from now, no
        earlier than the platform received it, rather than from its mark."""
        try:
            await self.storage.land_send_slot(slot, self.clock())
        except StorageError as exc:  # it stays at its mark: counted longer, never shorter
            logger.warning("send budget of chat %s: a send not landed: %s", slot.chat_key, exc)
