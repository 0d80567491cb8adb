"""A member's own switches, read from the service: their hand by DM (else the channel's default)
and a mention when their turn begins. Where a hand goes is remembered per game and player in
one process; with other processes a switch may change through any of them, so it is read again
each time (the service keeps settings only a few seconds then)."""

from __future__ import annotations

from bot.discord.chats import DM_HANDS, TURN_PING, personal_key
from bot.service import Service
from bot.service.chat_settings import ChatSettings
from bot.service.views import HandView


class Switches:
    def __init__(self, service: Service) -> None:
        self.service = service
        self._by_dm: dict[tuple[int, str], bool] = {}  # (game, player) -> the hand goes by DM

    async def wants_dm(self, player: str, settings: ChatSettings) -> bool:
        """Whether `player` gets their hand by DM: their own choice, else the channel's default."""
        own = (await self.service.settings.personal(personal_key(player))).get(DM_HANDS)
        return settings.dm_hands if own is None else bool(own)

    async def wants_ping(self, player: str) -> bool:
        """Whether `player` asked to be notified when their turn begins (off unless chosen)."""
        return bool((await self.service.settings.personal(personal_key(player))).get(TURN_PING))

    async def by_dm(self, hand: HandView) -> bool:
        """Whether this hand goes by DM: decided once per game and player, again after a
        settings change through this process (`changed`), each time with other processes."""
        slot = (hand.game_id, hand.player)
        known = self._by_dm.get(slot)
        if known is None:
            settings = await self.service.settings.settings(hand.chat_key)
            known = await self.wants_dm(hand.player, settings)
            if self.service.outbox.sole_process:
                self._by_dm[slot] = known
        return known

    def changed(self, player: str | None = None) -> None:
        """A chat's (None) or a member's settings changed: where hands go is decided anew."""
        for slot in [s for s in self._by_dm if player is None or s[1] == player]:
            del self._by_dm[slot]

    def forget(self, game_id: int) -> None:
        for slot in [s for s in self._by_dm if s[0] == game_id]:
            del self._by_dm[slot]
