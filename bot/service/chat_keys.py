"""The service's chat keys: `<platform>:<chat id>` (`tg:-1001234`, `dc:8765`).

The service knows a chat only by its key; each adapter makes the keys of its own chats and reads
back the chat id of an outcome, and ignores another platform's (the console's `console:...`).
"""

from __future__ import annotations

TELEGRAM = "tg"
DISCORD = "dc"


def prefix(platform: str) -> str:
    """What every key of the platform starts with (a timer loop's filter)."""
    return platform + ":"


def chat_key(platform: str, chat_id: int) -> str:
    return f"{platform}:{chat_id}"


def personal_key(platform: str, person: str) -> str:
    """Where the service keeps a person's own switches: their id under their platform (a
    Telegram user's is also their private chat's key)."""
    return f"{platform}:{person}"


def platform_of(key: str) -> str:
    return key.partition(":")[0]


def chat_id(key: str, platform: str) -> int | None:
    """The platform's chat id in `key`; None for another platform's key or a malformed one."""
    head, sep, rest = key.partition(":")
    if head != platform or not sep:
        return None
    digits = rest[1:] if rest.startswith("-") else rest
    if not digits.isascii() or not digits.isdigit():
        return None
    return int(rest)
