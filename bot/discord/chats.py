"""Who and where on Discord, as the service knows them: a channel is a chat (`dc:<channel id>`),
a member is their id, and a member's own choices are kept under `dc:<member id>`."""

from __future__ import annotations

from bot.service import chat_keys

PLATFORM = chat_keys.DISCORD
PREFIX = chat_keys.prefix(PLATFORM)
DM_HANDS = "dm_hands"  # a member's own switch (else the channel's): my cards by DM
TURN_PING = "turn_ping"  # a member's own switch: mention me when my turn begins


def chat_key(channel_id: int | None) -> str:
    return chat_keys.chat_key(PLATFORM, channel_id or 0)


def channel_of(key: str) -> int | None:
    """The channel of a chat key; None for another platform's chat."""
    return chat_keys.chat_id(key, PLATFORM)


def personal_key(member: str) -> str:
    """Where the service keeps a member's own switches (`DM_HANDS`, `TURN_PING`)."""
    return chat_keys.personal_key(PLATFORM, member)
