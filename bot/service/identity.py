"""Who acts, as a platform names them, made safe for the service and its storage.

A platform hands over a number and a display name, and neither is the service's to trust:

- a name may hold what no storage keeps and no platform sends back (a lone surrogate, a NUL):
  `storable` shows such a character replaced (U+FFFD), and `User` keeps its name that way;
- an id may lie outside what the platform gives (0, negative, past its width): `person_id`
  makes it no id (""), and a use case refuses a user with no person's id as it does a stale
  button (`is_person`), as it does an id no person can have (a computer player's, unstorable
  text).

Each adapter builds its users with `User.of` (`bot.service.outcome`), at its edge.
"""

from __future__ import annotations

import re
from typing import Final

from bot.service import chat_keys
from bot.service.views import is_bot

STRANGER: Final = "error-stale"  # a user no platform can send: answered as a stale button

ID_LIMITS: Final = {chat_keys.TELEGRAM: 2**52, chat_keys.DISCORD: 2**64}
"""A platform's user ids are 0 < id < its limit (Telegram: 52 bits; Discord: 64-bit snowflakes)."""

MAX_KEY = 128  # characters of an id or a chat key at most
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")
REPLACEMENT = "\ufffd"


def storable(text: str) -> str:
    """`text` with every character no storage can keep (a NUL, a lone surrogate) replaced."""
    if _UNSTORABLE.search(text) is None:
        return text
    return _UNSTORABLE.sub(REPLACEMENT, text)


def is_key(text: str) -> bool:
    """Whether `text` can be an id or a chat key: 1 to `MAX_KEY` printable characters (a NUL,
    a lone surrogate or a line break are not), with no space at either end."""
    return 0 < len(text) <= MAX_KEY and text.isprintable() and text.strip() == text


def is_person(user_id: str) -> bool:
    """Whether `user_id` can be a person's: a key, and not a computer player's."""
    return is_key(user_id) and not is_bot(user_id)


def refusal(chat_key: str, user_id: str | None) -> str | None:
    """Why a use case is refused before it starts (a notice key): a chat key that names no
    chat, or a user id that names no person."""
    if not is_key(chat_key):
        return "error-no-game"
    if user_id is not None and not is_person(user_id):
        return STRANGER
    return None


def person_id(platform: str, number: int) -> str:
    """The service's id of the platform's user `number`: "" (nobody) outside its range."""
    return str(number) if 0 < number < ID_LIMITS[platform] else ""
