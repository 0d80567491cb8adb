"""What only one player may read, and the one public note about a player nobody can write to.

Private notes go with the player's hand: the cards they drew, and for a challenger the hand they
were shown. When a player's private chat is closed to the bot, the chat is told so once per game
and player; the mark is kept with the game's refs, so a restarted bot does not repeat it.
"""

from __future__ import annotations

from typing import Protocol

from bot.presentation.render import Renderer
from bot.service import Outcome
from core.events import CardsDrawn, HandRevealed

DM_CLOSED = "dm-closed:"  # + player: the chat was told that this player's private chat is closed


def drawn(r: Renderer, out: Outcome, player: str, colorblind: bool) -> list[str]:
    """The cards `player` drew in this outcome, one line per draw."""
    return [
        text
        for e in out.private_events(player)
        if isinstance(e, CardsDrawn)
        and (
            text := r.event(out.lang, e, out.names, colorblind, viewer=player, scoring=out.scoring)
        )
    ]


def revealed(r: Renderer, out: Outcome, colorblind: bool = False) -> dict[str, str]:
    """A challenged hand, by the player who may see it (the challenger); its cards with the
    color-blind marks when `colorblind`."""
    texts = {}
    for e in out.events:
        if isinstance(e, HandRevealed):
            text = r.event(out.lang, e, out.names, colorblind, viewer=e.viewer, scoring=out.scoring)
            if text:
                texts[e.viewer] = text
    return texts


def refused_choice(r: Renderer, lang: str, reason: str) -> str:
    """For the player only: a card chosen in the group (inline) was not played, and why (when
    the message it left cannot be edited to say so)."""
    return r.t(lang, "inline-note", reason=reason)


def private(r: Renderer, out: Outcome, player: str, colorblind: bool) -> list[str]:
    """Everything of this outcome only `player` may read (their draws, a hand shown to them)."""
    return r.private(out, player, colorblind)


class Refs(Protocol):
    async def once(self, game_id: int, key: str) -> bool: ...


async def first_dm_closed(refs: Refs, game_id: int, player: str) -> bool:
    """True the first time this game finds `player`'s private chat closed: tell the chat now."""
    return await refs.once(game_id, DM_CLOSED + player)
