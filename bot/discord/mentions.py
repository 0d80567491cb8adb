"""A rematch lobby's invited people as Discord mentions, and the one message that may ping them.

The bot sends every message with `AllowedMentions.none()` (bot.discord.app): a name in a result
or a `<@id>` in the table notifies nobody. A rematch's lobby is the exception: its invited
people are written as `<@id>` in every version of the lobby message (Discord shows each as that
member's current name), and the first message of the lobby allows exactly them to be pinged.
Edits never notify on Discord, so the lobby's later versions (someone joined) ping nobody.
"""

from __future__ import annotations

import discord

from bot.presentation.mentions import Marked
from bot.service.views import TableView


def mention(player: str) -> str:
    return f"<@{player}>"


def with_mentions(marked: Marked) -> str:
    """The text with each marked name of a member as a mention of them."""
    members = tuple(m for m in marked.mentions if m.player.isdigit())
    return Marked(marked.text, members).replaced(mention)


def invitation(table: TableView) -> discord.AllowedMentions | None:
    """Whom the lobby's first message pings: the rematch's invited people, nobody else (None
    when nobody is invited, and the bot's default of no mentions holds)."""
    people = [discord.Object(int(p)) for p in table.invited if p.isdigit()]
    if not people:
        return None
    return discord.AllowedMentions(everyone=False, users=people, roles=False, replied_user=False)
