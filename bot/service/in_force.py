"""What an outcome carries of the settings in force, so that publishing it needs no other read.

The chat's settings (the play mode, the table picture, where hands go) and each changed hand's
owner's own switches (a turn's ping, a hand as a picture, a hand by DM) are read by the service
once the commit is done, outside the chat's lock, through the settings cache
(`bot.service.settings_store`). With other processes a switch may change through any of them
meanwhile: the value read right after the commit is the one that outcome is shown with.
"""

from __future__ import annotations

from bot.service.chat_keys import personal_key, platform_of
from bot.service.chat_settings import ChatSettings
from bot.service.outcome import Outcome
from bot.service.settings_store import SettingsStore
from bot.service.views import is_bot


async def fill(out: Outcome, store: SettingsStore, known: ChatSettings | None = None) -> None:
    """Give an outcome that shows a table or hands the chat's settings (`known`: those the use
    case read) and every changed person's own switches."""
    if out.table is None and not out.hands:
        return
    if out.settings is None:
        out.settings = known if known is not None else await store.chat(out.chat_key)
    platform = platform_of(out.chat_key)
    for player in out.hands:
        if not is_bot(player) and player not in out.switches:
            out.switches[player] = await store.personal(personal_key(platform, player))
