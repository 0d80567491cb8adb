"""The seam between deciding what to show (`bot.discord.publisher`) and showing it on Discord
(`bot.discord.messages`): the message operations the publisher needs, and nothing else.

Each operation renders one view and sends, edits or deletes one message; it decides nothing and
remembers nothing. A ref is whatever string an operation gives back for a message it sent (the
publisher stores it with the game); `reply` is the interaction being answered, if any.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from bot.discord.reply import LiveHand, Reply, SharedHand
from bot.service import Outcome
from bot.service.views import HandView, TableView

Live = LiveHand | SharedHand  # an ephemeral hand: answered here, or by another process


class DmClosed(Exception):
    """The player takes no direct messages from the bot."""


class MessageOps(Protocol):
    def clicked(self, reply: Reply, game_id: int) -> tuple[int | None, bool]:
        """The message whose component `reply` answers, and whether it is the game's lobby."""

    async def defer(self, reply: Reply) -> None:
        """Answer the interaction now, as an update of its message to come."""

    async def answer_with_table(
        self, reply: Reply, table: TableView, names: Mapping[str, str]
    ) -> None:
        """The table as the update of the message whose button was pressed."""

    async def edit_table(self, table: TableView, names: Mapping[str, str], ref: str) -> bool:
        """False when the message is gone or not editable."""

    async def post_table(self, table: TableView, names: Mapping[str, str], *, invite: bool) -> int:
        """A new table message; `invite`: it pings a rematch's invited people."""

    async def drop_table(self, chat_key: str, message_id: int) -> None:
        """Delete a table message that is not the game's, else take its buttons away."""

    async def post_results(self, out: Outcome, reply: Reply | None) -> int | None:
        """The outcome's public results; None when there are none or they went privately."""

    async def edit_dm(self, ref: str, hand: HandView, out: Outcome) -> bool:
        """False when the message is gone; raises `DmClosed`."""

    async def delete_dm(self, ref: str) -> bool:
        """False when the message is gone; raises `DmClosed`."""

    async def send_dm(self, hand: HandView, out: Outcome) -> str:
        """The hand as a new direct message; its ref. Raises `DmClosed`."""

    async def tell_dm_closed(self, hand: HandView) -> None:
        """Tell the channel why this player's hand does not come by DM."""

    def shared_hand(self, ref: str) -> SharedHand | None:
        """An ephemeral hand another process answered (`LiveHand.ref`); None if unusable."""

    async def edit_live(self, live: Live, hand: HandView, out: Outcome) -> bool:
        """False when the ephemeral hand could not be edited."""

    async def post_prompt(self, hand: HandView, *, ping: bool) -> str | None:
        """ "Your turn" and "my cards" in the channel; its ref, None without the right."""

    async def delete_prompt(self, ref: str) -> None:
        """Delete a turn prompt (already gone: nothing to do)."""
