"""A member's own switches: their hand by DM (else the channel's default) and a mention when
their turn begins. An outcome carries them as read right after its commit (`Outcome.switches`,
`Outcome.settings`); one that does not is answered from the service. Where a hand goes is
remembered per game and player in one process; with other processes a switch may change through
any of them, so it is taken again from each outcome (the service keeps settings only a few
seconds then)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.discord.chats import DM_HANDS, TURN_PING, personal_key
from bot.service import Outcome, Service
from bot.service.chat_settings import ChatSettings
from bot.service.views import HandView


class Switches:
    def __init__(self, service: Service) -> None:
        self.service = service
        self._by_dm: dict[tuple[int, str], bool] = {}  # (game, player) -> the hand goes by DM

    async def own(self, player: str, out: Outcome | None = None) -> Mapping[str, Any]:
        """`player`'s own switches: as `out` carries them, else read from the service."""
        carried = None if out is None else out.switches.get(player)
        if carried is not None:
            return carried
        return await self.service.settings.personal(personal_key(player))

    async def wants_dm(
        self, player: str, settings: ChatSettings, out: Outcome | None = None
    ) -> bool:
        """Whether `player` gets their hand by DM: their own choice, else the channel's default."""
        own = (await self.own(player, out)).get(DM_HANDS)
        return settings.dm_hands if own is None else bool(own)

    async def wants_ping(self, player: str, out: Outcome | None = None) -> bool:
        """Whether `player` asked to be notified when their turn begins (off unless chosen)."""
        return bool((await self.own(player, out)).get(TURN_PING))

    async def by_dm(self, hand: HandView, out: Outcome | None = None) -> bool:
        """Whether this hand goes by DM: decided once per game and player, again after a
        settings change through this process (`changed`), each time with other processes
        (`out`: the outcome that shows it, which carries the switches)."""
        slot = (hand.game_id, hand.player)
        known = self._by_dm.get(slot)
        if known is None:
            settings = None if out is None else out.settings
            if settings is None:
                settings = await self.service.settings.settings(hand.chat_key)
            known = await self.wants_dm(hand.player, settings, out)
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
